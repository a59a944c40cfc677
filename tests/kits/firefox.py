"""A real headless Firefox (Debian's ``firefox-esr``) driven over WebDriver BiDi, the
remote protocol Firefox serves itself on ``--remote-debugging-port`` (no geckodriver).

Same methods as ``browser.Browser`` (chromium), so the order page's steps run unchanged
in both. A fresh profile each time; Firefox picks the port and writes it to the
profile's ``WebDriverBiDiServer.json``; ``user.js`` switches off what phones home.
"""
from __future__ import annotations

import base64
import json
import subprocess
import tempfile
import time
from pathlib import Path

import websocket
from pagedom import ERROR_LOG, PageDom, program, stop

# Nothing to reach: no updates, studies, remote settings, safe browsing or first-run pages.
PREFS = {
    "app.update.disabledForTesting": True, "app.normandy.enabled": False,
    "browser.shell.checkDefaultBrowser": False, "browser.startup.homepage_override.mstone": "ignore",
    "browser.safebrowsing.malware.enabled": False, "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False, "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False, "toolkit.telemetry.enabled": False,
    "extensions.update.enabled": False, "messaging-system.rsexperimentloader.enabled": False,
    "network.connectivity-service.enabled": False, "network.captive-portal-service.enabled": False,
    "services.settings.server": "http://127.0.0.1:9/", "browser.newtabpage.enabled": False,
}
KEYS = {"Tab": "\ue004", "Enter": "\ue007", " ": " ", "ArrowDown": "\ue015", "ArrowUp": "\ue013"}


class Firefox(PageDom):
    name = "firefox"   # screenshots are named after the browser

    def __init__(self) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="referee-firefox-"))
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items()))
        self.proc = subprocess.Popen([program("firefox-esr", "firefox", package="firefox-esr"), "--headless", "--no-remote", "--profile", str(self.profile),
                                      "--remote-debugging-port=0", "--width=1100", "--height=1400", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = self.profile / "WebDriverBiDiServer.json"
        deadline = time.monotonic() + 90
        port = None
        while port is None:
            try:
                port = json.loads(port_file.read_text())["ws_port"]
            except (OSError, ValueError, KeyError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("Firefox did not open its WebDriver BiDi port") from None
                time.sleep(0.1)
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=60, suppress_origin=True)
        self.call("session.new", capabilities={})
        self.context = self.call("browsingContext.getTree", maxDepth=0)["contexts"][0]["context"]

    def call(self, method: str, **params):
        msg = self.exchange(method, params)
        if msg.get("type") == "error":
            raise RuntimeError(f"{method}: {msg.get('error')}: {msg.get('message')}")
        return msg.get("result", {})

    def open(self, url: str) -> None:
        """Navigate and wait until the page has loaded."""
        self.call("browsingContext.navigate", context=self.context, url=url, wait="complete")
        if self.eval("location.href") != url:
            raise TimeoutError(f"{url} did not load")

    def eval(self, expression: str):
        """The expression's value, passed back as JSON (so lists and objects arrive whole)."""
        got = self.call("script.evaluate", expression=f"JSON.stringify([({expression})])",
                        target={"context": self.context}, awaitPromise=False)
        if got.get("type") == "exception":
            raise RuntimeError(f"{expression}: {got['exceptionDetails'].get('text')}")
        return json.loads(got["result"]["value"])[0]


    def _actions(self, source: dict) -> None:
        self.call("input.performActions", context=self.context, actions=[source])

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element (scrolled into view first)."""
        x, y = (round(v) for v in self.centre(selector))
        self._actions({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                       "actions": [{"type": "pointerMove", "x": x, "y": y},
                                   {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]})

    def type(self, text: str) -> None:
        """Characters typed into the focused element, as a keyboard sends them."""
        steps = [a for ch in text for a in ({"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch})]
        self._actions({"type": "key", "id": "keyboard", "actions": steps})

    def key(self, name: str, code: int = 0) -> None:
        """One named key (Tab, Enter, Space, ArrowDown) pressed and released; ``code`` as chromium's kit takes it."""
        value = KEYS[name]
        self._actions({"type": "key", "id": "keyboard",
                       "actions": [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}]})



    def install_error_log(self) -> None:
        """Collect the page's uncaught exceptions in ``window.__errors`` from the next load on."""
        self.call("script.addPreloadScript", functionDeclaration=f"function(){{{ERROR_LOG}}}")

    def png(self) -> bytes:
        got = self.call("browsingContext.captureScreenshot", context=self.context, origin="document")
        return base64.b64decode(got["data"])

    def close(self) -> None:
        try:
            if getattr(self, "ws", None) is not None:
                try:
                    self.call("session.end")
                except (OSError, RuntimeError, websocket.WebSocketException):
                    pass
                self.ws.close()
        finally:
            stop(self.proc, self.profile)
