"""A real headless chromium (Debian's package) driven over the DevTools protocol.

Started with a fresh profile and everything that phones home switched off; the
DevTools port is the one chromium picks itself and writes to DevToolsActivePort.
"""
from __future__ import annotations

import base64
import json
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import websocket
from pagedom import ERROR_LOG, PageDom, program, stop

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         "--remote-debugging-port=0", "--window-size=1100,1400"]


class Browser(PageDom):
    name = "chromium"   # screenshots are named after the browser

    def __init__(self) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="referee-chromium-"))
        self.proc = subprocess.Popen([program("chromium", "chromium-browser", package="chromium"), *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not port_file.exists() or len(port_file.read_text().splitlines()) < 2:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.1)
        port = int(port_file.read_text().splitlines()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            page = next(t for t in json.load(r) if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method: str, **params):
        msg = self.exchange(method, params)
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg.get("result", {})

    def open(self, url: str) -> None:
        """Navigate and wait until the page and its images have loaded."""
        self.call("Page.navigate", url=url)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.eval("document.readyState === 'complete' && location.href") == url:
                return
            time.sleep(0.05)
        raise TimeoutError(f"{url} did not load")

    def eval(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element (scrolled into view first)."""
        x, y = self.centre(selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def type(self, text: str) -> None:
        """Characters typed into the focused element, as a keyboard sends them."""
        for ch in text:
            self.call("Input.dispatchKeyEvent", type="keyDown", text=ch, key=ch, unmodifiedText=ch)
            self.call("Input.dispatchKeyEvent", type="keyUp", key=ch)

    def key(self, name: str, code: int) -> None:
        """One named key (Tab 9, Enter 13, Space 32, ArrowDown 40) pressed and released on the focused element."""
        extra = {"text": "\r"} if name == "Enter" else {"text": " "} if name == " " else {}
        self.call("Input.dispatchKeyEvent", type="keyDown", key=name, windowsVirtualKeyCode=code, **extra)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=name, windowsVirtualKeyCode=code)



    def install_error_log(self) -> None:
        """Collect the page's uncaught exceptions in ``window.__errors`` from the next load on."""
        self.call("Page.addScriptToEvaluateOnNewDocument", source=ERROR_LOG)

    def png(self) -> bytes:
        return base64.b64decode(self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"])

    def close(self) -> None:
        try:
            if getattr(self, "ws", None) is not None:
                self.ws.close()
        finally:
            stop(self.proc, self.profile)
