"""A real headless Firefox (Debian's ``firefox-esr``) driven over WebDriver BiDi, the
remote protocol Firefox serves itself on ``--remote-debugging-port`` (no geckodriver).

Same methods as ``browser.Browser`` (chromium), so the order page's steps run unchanged
in both. A fresh profile each time; Firefox picks the port and writes it to the
profile's ``WebDriverBiDiServer.json``; ``user.js`` switches off what phones home.
"""
from __future__ import annotations

import base64
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import websocket

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


def firefox_path() -> str:
    found = shutil.which("firefox-esr") or shutil.which("firefox")
    if not found:
        raise RuntimeError("Firefox is not installed (.ci/run installs Debian's 'firefox-esr')")
    return found


class Firefox:
    name = "firefox"   # screenshots are named after the browser

    def __init__(self) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="referee-firefox-"))
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items()))
        self.proc = subprocess.Popen([firefox_path(), "--headless", "--no-remote", "--profile", str(self.profile),
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
        self._id = 0
        self.call("session.new", capabilities={})
        self.context = self.call("browsingContext.getTree", maxDepth=0)["contexts"][0]["context"]

    def call(self, method: str, **params):
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self._id:
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

    def errors(self) -> list[str]:
        """Uncaught exceptions the page's scripts raised since it loaded (``install_error_log``)."""
        return self.eval("window.__errors || []")

    def _actions(self, source: dict) -> None:
        self.call("input.performActions", context=self.context, actions=[source])

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element (scrolled into view first)."""
        box = self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                        "if(!e) return null; e.scrollIntoView({block:'center'}); var r=e.getBoundingClientRect();"
                        "return [Math.round(r.left+r.width/2), Math.round(r.top+r.height/2)];})()")
        if box is None:
            raise LookupError(f"no element {selector!r}")
        self._actions({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                       "actions": [{"type": "pointerMove", "x": box[0], "y": box[1]},
                                   {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]})

    def focus(self, selector: str) -> None:
        if not self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                         "if(!e) return false; e.focus(); return document.activeElement===e;})()"):
            raise LookupError(f"cannot focus {selector!r}")

    def type(self, text: str) -> None:
        """Characters typed into the focused element, as a keyboard sends them."""
        steps = [a for ch in text for a in ({"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch})]
        self._actions({"type": "key", "id": "keyboard", "actions": steps})

    def key(self, name: str, code: int = 0) -> None:
        """One named key (Tab, Enter, Space, ArrowDown) pressed and released; ``code`` as chromium's kit takes it."""
        value = KEYS[name]
        self._actions({"type": "key", "id": "keyboard",
                       "actions": [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}]})

    def select(self, selector: str, label: str) -> None:
        """Choose the option of a <select> whose text is ``label`` (as the keyboard would: a change event)."""
        ok = self.eval(f"(function(){{var s=document.querySelector({json.dumps(selector)}); if(!s||!s.options) return false;"
                       f"var o=[].find.call(s.options,function(o){{return o.text==={json.dumps(label)};}});"
                       "if(!o) return false; s.focus(); s.value=o.value;"
                       "s.dispatchEvent(new Event('change',{bubbles:true})); return true;})()")
        if not ok:
            raise LookupError(f"no option {label!r} in {selector!r}")

    def attribute(self, selector: str, name: str):
        return self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                         f"return e && e.getAttribute({json.dumps(name)});}})()")

    def install_error_log(self) -> None:
        """Collect the page's uncaught exceptions in ``window.__errors`` from the next load on."""
        self.call("script.addPreloadScript", functionDeclaration=(
            "function(){window.__errors=[];window.addEventListener('error',"
            "function(e){window.__errors.push(String(e.message));});}"))

    def screenshot(self, path: Path) -> bytes:
        got = self.call("browsingContext.captureScreenshot", context=self.context, origin="document")
        png = base64.b64decode(got["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return png

    def close(self) -> None:
        try:
            if getattr(self, "ws", None) is not None:
                try:
                    self.call("session.end")
                except (OSError, RuntimeError, websocket.WebSocketException):
                    pass
                self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)
