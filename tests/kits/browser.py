"""A real headless chromium (Debian's package) driven over the DevTools protocol.

Started with a fresh profile and everything that phones home switched off; the
DevTools port is the one chromium picks itself and writes to DevToolsActivePort.
"""
from __future__ import annotations

import base64
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import websocket

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         "--remote-debugging-port=0", "--window-size=1100,1400"]


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        raise RuntimeError("chromium is not installed (.ci/run installs Debian's 'chromium')")
    return found


class Browser:
    name = "chromium"   # screenshots are named after the browser

    def __init__(self) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="referee-chromium-"))
        self.proc = subprocess.Popen([chromium_path(), *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
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
        self._id = 0
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method: str, **params):
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self._id:
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

    def errors(self) -> list[str]:
        """Uncaught exceptions the page's scripts raised since it loaded (``install_error_log``)."""
        return self.eval("window.__errors || []")

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element (scrolled into view first)."""
        box = self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                        "if(!e) return null; e.scrollIntoView({block:'center'}); var r=e.getBoundingClientRect();"
                        "return [r.left+r.width/2, r.top+r.height/2];})()")
        if box is None:
            raise LookupError(f"no element {selector!r}")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def focus(self, selector: str) -> None:
        if not self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                         "if(!e) return false; e.focus(); return document.activeElement===e;})()"):
            raise LookupError(f"cannot focus {selector!r}")

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
        self.call("Page.addScriptToEvaluateOnNewDocument",
                  source="window.__errors=[];window.addEventListener('error',function(e){window.__errors.push(String(e.message));});")

    def screenshot(self, path: Path) -> bytes:
        png = base64.b64decode(self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return png

    def close(self) -> None:
        try:
            if getattr(self, "ws", None) is not None:
                self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)
