"""A game's board picture: asked of the game (its optional ``picture`` hook),
turned from SVG into PNG here, because several mail clients show no inline SVG.

One library draws it: libvips (``raster.py``: librsvg reads the SVG, Pango sets its
text in the system's fonts, libvips writes a palette PNG sized for a phone).
``bench/pictures_png.py`` measures it against the resvg + HarfBuzz path it replaced.
"""
from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from referee.pictures import raster
from referee.runtime import gc_policy
from referee.runtime.lifeline import die_with_parent

log = logging.getLogger("referee.pictures.board")

MAX_SVG_CHARS = 2_000_000   # a picture larger than this is a game's bug, not a board


def svg_of(rules, view: dict, lang: str) -> str | None:
    """The game's SVG for one view, or None if it draws none.  A picture is an
    extra: a game whose hook fails still gets its reports (the fault is logged)."""
    hook = getattr(rules, "picture", None)
    if hook is None:
        return None
    try:
        svg = hook(view, lang)
    except Exception:
        log.exception("%s: drawing the picture failed", getattr(rules, "name", "?"))
        return None
    if not isinstance(svg, str) or not svg.strip() or len(svg) > MAX_SVG_CHARS:
        return None
    return svg


def png_of(svg: str) -> bytes | None:
    """PNG bytes of an SVG document (None if it cannot be read: a picture is an extra)."""
    return raster.png(svg)


def picture_png(rules, view: dict, lang: str) -> bytes | None:
    svg = svg_of(rules, view, lang)
    return None if svg is None else png_of(svg)


# -- rendering beside the close ----------------------------------------------------
# A PNG takes 25-45 ms of CPU, the whole rest of a report's sending a few: a close hands its distinct pictures to worker processes
# (``prerender``) as soon as it has drawn them, so they are ready on the other
# core by the time the outbox sends.  What a worker returns is the very bytes
# ``png_of`` gives here; a worker that dies costs nothing but the time: the
# picture is rendered here instead (``cached_png``).  Nothing a worker makes is
# stored: the store and the archive keep the SVG.
# A picture a close hands over (``prerender``, ``keep``) is held until a mail takes it
# (``cached_png``): a pass of a thousand closes must not evict its first PNGs before their
# mails go out.  Both sets are bounded: held ones beyond KEEP (the oldest: pictures no mail
# took, a seat that wants none) and taken ones beyond RECENT are let go (rendered again if asked).
WORKERS = max(1, (os.cpu_count() or 2) - 1)   # 0: render in this process only
KEEP = 2048    # PNGs handed over and not yet taken (a PNG is 14-33 kB: at most ~68 MB)
RECENT = 512   # PNGs taken, kept for the turn's other readers and resends (at most ~17 MB)
WAIT = 60.0  # seconds a send waits for a worker before rendering itself

_pool: ProcessPoolExecutor | None = None
_pool_pid = 0
_lifeline: list = [None, 0]   # ((read end, write end), the pid that made them)
_ready: OrderedDict[str, Future] = OrderedDict()   # every PNG kept or under way, by its SVG's digest
_held: OrderedDict[str, None] = OrderedDict()      # of them, the handed over, oldest first
_recent: OrderedDict[str, None] = OrderedDict()    # the taken ones, least recently used first
_lock = threading.Lock()


def _place(key: str, future: Future | None, held: bool) -> None:
    """(Under ``_lock``.)  ``key``'s PNG kept: ``held`` (handed over by a pass, until a mail takes it)
    or among the recent ones (taken by a mail); beyond each bound the oldest is let go."""
    if future is not None:
        _ready[key] = future
    into, out = (_held, _recent) if held else (_recent, _held)
    out.pop(key, None)
    into[key] = None
    into.move_to_end(key)
    while len(_held) > KEEP:   # the oldest handed over joins the recent ones
        _place(next(iter(_held)), None, False)
    while len(_recent) > RECENT:
        gone = _ready.pop(_recent.popitem(last=False)[0], None)
        if gone is not None:
            gone.cancel()


def _drop(key: str) -> None:
    """(Under ``_lock``.)"""
    _ready.pop(key, None)
    _held.pop(key, None)
    _recent.pop(key, None)


def _key(svg: str) -> str:
    return hashlib.sha256(svg.encode()).hexdigest()


def _executor() -> ProcessPoolExecutor | None:
    """The worker pool, started on first use (spawned: a forked copy of a service
    would carry its store connection and threads)."""
    global _pool, _pool_pid
    if WORKERS <= 0:
        return None
    if _pool is None or _pool_pid != os.getpid():
        context = multiprocessing.get_context("spawn")
        if _lifeline[1] != os.getpid():   # the workers end when this process does (lifeline.die_with_parent)
            _lifeline[:] = [context.Pipe(duplex=False), os.getpid()]
        _pool = ProcessPoolExecutor(WORKERS, mp_context=context, initializer=_start,
                                    initargs=(os.getpid(), _lifeline[0][0]))
        _pool_pid = os.getpid()
    return _pool


def _start(parent: int | None = None, lifeline=None) -> None:
    """A picture worker's start-up: fonts and libvips ready, then frozen (``gc_policy.settle``)."""
    if parent is not None:   # the pipe alone: the pool is started by whichever thread comes first
        die_with_parent(parent, lifeline, kernel=False)
    try:
        prime()
    except Exception:   # the first picture tries again
        log.exception("priming the picture worker failed")
    gc_policy.settle()


def _drop_pool() -> None:
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def prime() -> None:
    """In a worker: load libvips and read the system's fonts now, not for the first picture."""
    raster.ready()


def warm() -> None:
    """Start the picture workers now (a spawned interpreter takes a second to come up,
    its fonts and libvips another 40 ms), so the first close's pictures do not wait for them."""
    with _lock:
        try:
            pool = _executor()
            if pool is not None:
                pool.submit(prime)
        except (BrokenProcessPool, RuntimeError, OSError):
            _drop_pool()


def prerender(svgs: Iterable[str]) -> int:
    """Start rendering each of ``svgs`` not already ready or under way; returns how
    many were handed to a worker.  Never raises: a picture is an extra."""
    started = 0
    with _lock:
        for svg in svgs:
            key = _key(svg)
            if key in _ready:   # ready or under way: held (again) for this pass's mails
                _place(key, None, True)
                continue
            try:
                pool = _executor()
                if pool is None:
                    return started
                _place(key, pool.submit(png_of, svg), True)
            except (BrokenProcessPool, RuntimeError, OSError):
                log.warning("the picture workers are gone; pictures are rendered in this process")
                _drop_pool()
                return started
            started += 1
    return started


def has(svg: str) -> bool:
    """Whether a PNG of ``svg`` is kept here, or under way in a picture worker."""
    with _lock:
        future = _ready.get(_key(svg))
    return future is not None and not future.cancelled()


def _done(png: bytes | None) -> Future:
    done: Future = Future()
    done.set_result(png)
    return done


def keep(svg: str, png: bytes | None) -> None:
    """A PNG of ``svg`` rendered elsewhere (a close worker process), held for ``cached_png``."""
    with _lock:
        _place(_key(svg), _done(png), True)


def cached_png(svg: str) -> bytes | None:
    """PNG of ``svg``: a worker's if it rendered it (or is at it), else rendered
    here and kept; every report of a close carries the same public picture, so
    it is rendered once, not once per recipient."""
    key = _key(svg)
    with _lock:
        future = _ready.get(key)
        if future is not None:
            _place(key, None, False)   # taken by a mail
    if future is not None and future.cancel():   # not started yet: this process renders it, not waits for it
        future = None
    if future is not None:
        try:
            return future.result(timeout=WAIT)
        except CancelledError:
            pass
        except Exception:   # the worker died or hung: this process renders it
            log.warning("a picture worker failed; rendering the picture here", exc_info=True)
            with _lock:
                if _ready.get(key) is future:
                    _drop(key)
                if isinstance(future.exception(timeout=0) if future.done() else None, BrokenProcessPool):
                    _drop_pool()
    png = png_of(svg)
    with _lock:
        _place(key, _done(png), False)
    return png


def shutdown() -> None:
    """Stop the picture workers (waiting for them); the next ``prerender`` starts new ones."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
        _ready.clear()
        _held.clear()
        _recent.clear()
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
