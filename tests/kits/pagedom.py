"""What the browser kits (``browser.Browser`` chromium, ``firefox.Firefox``) do the same way:
reading and setting the page through script, so a step reads alike in both. A kit brings
``eval`` (an expression's value), its own real mouse and keyboard, and the process."""
from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

# Collects the page's uncaught exceptions in window.__errors; a kit runs it before each load.
ERROR_LOG = "window.__errors=[];window.addEventListener('error',function(e){window.__errors.push(String(e.message));});"


class PageDom:
    def exchange(self, method: str, params: dict) -> dict:
        """Send one command on the kit's websocket (``self.ws``); its answer, events skipped."""
        self._id = getattr(self, "_id", 0) + 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self._id:
                return msg

    def eval(self, expression: str):
        raise NotImplementedError

    def png(self) -> bytes:
        """The whole page as PNG."""
        raise NotImplementedError

    def screenshot(self, path: Path) -> bytes:
        png = self.png()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return png

    def errors(self) -> list[str]:
        """Uncaught exceptions the page's scripts raised since it loaded (``install_error_log``)."""
        return self.eval("window.__errors || []")

    def until(self, expression: str, seconds: float = 10):
        """The expression's value once it is truthy (a promise's outcome, say); TimeoutError if never."""
        deadline = time.monotonic() + seconds
        while not (value := self.eval(expression)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"never true: {expression}")
            time.sleep(0.05)
        return value

    def centre(self, selector: str) -> list[float]:
        """The element scrolled into view: the middle of its box, in the viewport's pixels."""
        box = self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                        "if(!e) return null; e.scrollIntoView({block:'center'}); var r=e.getBoundingClientRect();"
                        "return [r.left+r.width/2, r.top+r.height/2];})()")
        if box is None:
            raise LookupError(f"no element {selector!r}")
        return box

    def focus(self, selector: str) -> None:
        if not self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                         "if(!e) return false; e.focus(); return document.activeElement===e;})()"):
            raise LookupError(f"cannot focus {selector!r}")

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


def program(*names: str, package: str) -> str:
    """The browser's path: the first of ``names`` installed."""
    for name in names:
        if found := shutil.which(name):
            return found
    raise RuntimeError(f"{names[0]} is not installed (.ci/run installs Debian's '{package}')")


def stop(proc: subprocess.Popen, profile: Path) -> None:
    """End the browser this kit started and remove its fresh profile."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    shutil.rmtree(profile, ignore_errors=True)
