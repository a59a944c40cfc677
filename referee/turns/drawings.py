"""The close workers' pictures: the PNGs of a pass's drawn SVGs, made by the workers
once the pass's closes are done (``referee/app/close_pool.py``), each handed to the
parent's ``pictures.keep`` as it is made.  A report never waits on this: the
sending renders a PNG it does not find kept (``pictures.cached_png``), the very
bytes ``pictures.png_of`` gives anywhere."""
from __future__ import annotations

import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from referee.pictures import board as pictures


class Drawings:
    """The PNGs of a pass's pictures, made by the close workers once the pass's closes are done.

    ``note`` collects the SVGs the closes drew (in order, once each); ``draw`` hands them to the
    workers, one task each, and each PNG goes to ``pictures.keep`` as it is made; ``hold`` takes
    back those not started yet, so that the next closes do not queue behind pictures (drawn again
    by the next ``draw``).  Nothing here is needed for a report to be sent: the sending renders
    a PNG it does not find kept (``pictures.cached_png``), so a worker that dies loses nothing."""

    def __init__(self) -> None:
        self._noted: dict[str, None] = {}       # drawn, not handed out (in the order the closes drew them)
        self._under_way: dict[str, Future] = {}
        self._lock = threading.Condition(threading.RLock())   # callbacks: the executor's thread; cancel() calls back
        self.broken: ProcessPoolExecutor | None = None   # one a worker of which died drawing: started anew

    def note(self, svgs) -> None:
        with self._lock:
            for svg in svgs:
                self._noted.setdefault(svg, None)

    def draw(self, pool: ProcessPoolExecutor) -> int:
        """Hand every noted SVG (the last ``pictures.KEEP``: older ones would be dropped unsent) to ``pool``,
        the latest first: a service sends the earliest reports meanwhile, rendering a PNG it does not
        find made, so the sending and the workers meet in the middle instead of making the same PNGs."""
        with self._lock:
            # not those the sending has rendered (or is rendering) meanwhile: each PNG made once
            svgs = [svg for svg in self._noted if svg not in self._under_way and not pictures.has(svg)][-pictures.KEEP:]
            self._noted.clear()
            for svg in reversed(svgs):
                try:
                    future = pool.submit(pictures.png_of, svg)
                except (BrokenProcessPool, RuntimeError):   # the sending renders the rest
                    self.broken = pool
                    break
                self._under_way[svg] = future
                future.add_done_callback(lambda f, svg=svg: self._made(svg, f, pool))
            return len(svgs)

    def _made(self, svg: str, future: Future, pool: ProcessPoolExecutor) -> None:
        try:
            if not future.cancelled():
                pictures.keep(svg, future.result())
        except Exception:   # the worker died (or the pool stopped): the sending renders it
            self.broken = pool
        finally:
            with self._lock:
                if self._under_way.get(svg) is future:
                    del self._under_way[svg]
                self._lock.notify_all()

    def hold(self) -> None:
        """Take back the pictures not started yet (noted again, first): closes go before them."""
        with self._lock:
            back = [svg for svg, f in list(self._under_way.items()) if f.cancel()]   # handed out latest first
            self._noted = dict.fromkeys(reversed(back)) | self._noted

    def wait(self, timeout: float | None = None) -> bool:
        """Whether every picture handed out is made and kept (or failed) within ``timeout`` seconds."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._under_way, timeout)

    def noted(self) -> int:
        with self._lock:
            return len(self._noted)

    def pending(self) -> int:
        with self._lock:
            return len(self._noted) + len(self._under_way)
