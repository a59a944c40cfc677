"""The processes' garbage-collection policy: what the cyclic collector may skip.

A close allocates millions of short-lived objects (parsed states, views, template
contexts).  With CPython's defaults (a young collection every 700 net allocations,
a full one whenever the survivors grow by a quarter) the collector spends ~5% of a
1,000-match close in its passes, most of it in full ones re-walking what never dies:
modules, compiled templates, fonts and glyph caches, everything start-up and
warming made.  Two measures, each bounded:

* ``settle()``, once a process has warmed (the service, each close worker, each
  picture worker): one full collection, then ``gc.freeze()``: what is alive then
  moves to the permanent generation, never walked again.  Once a process: what is
  frozen and later becomes cyclic garbage is never freed, so only what start-up
  made is frozen, never what a pass leaves.
* ``closing_pass()``, around a close pass (``Closing.tick``) or a worker's close: the
  young generation collected every ``PASS_YOUNG`` allocations, not 700, so far
  fewer objects survive into the older generations and fewer full passes follow.
  Restored when the pass ends, raises or not (the service answers mail between
  passes at the defaults), and then one young collection frees what the pass left
  in cycles: nothing carries over from one pass to the next.  Memory: at most
  ``PASS_YOUNG`` container objects of cyclic garbage wait for a collection
  (a few MB).
"""
from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

PASS_YOUNG = 20_000   # the young generation's threshold during a close pass (CPython: 700)

_settled_pid = 0
_lock = threading.Lock()
_passes = 0                                  # close passes under way in this process (threads)
_before: tuple[int, int, int] | None = None  # the thresholds the first of them found


def settle() -> bool:
    """Collect, then freeze what is alive (start-up's and warming's objects); once a process
    (a forked child settles anew).  Whether it froze now."""
    global _settled_pid
    with _lock:
        if _settled_pid == os.getpid():
            return False
        _settled_pid = os.getpid()
    gc.collect()
    gc.freeze()
    return True


@contextmanager
def closing_pass() -> Iterator[None]:
    """The young generation's threshold raised to ``PASS_YOUNG`` for the length of the block
    (passes on several threads: raised by the first, restored by the last to end)."""
    global _passes, _before
    with _lock:
        if _passes == 0:
            _before = gc.get_threshold()
            young, middle, old = _before
            gc.set_threshold(max(young, PASS_YOUNG), middle, old)
        _passes += 1
    try:
        yield
    finally:
        with _lock:
            _passes -= 1
            restore, ended = _before, _passes == 0
            if ended and restore is not None:
                gc.set_threshold(*restore)
                _before = None
        if ended:
            gc.collect(0)   # the pass's cyclic garbage, freed now rather than held into the next pass
