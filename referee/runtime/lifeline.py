"""Worker processes that end when their parent dies, whatever killed it (issue 32: after a
``kill -9`` of ``referee run`` its close workers, and through them multiprocessing's resource
tracker, ran on for good, holding store sessions).

``die_with_parent`` in a worker's initializer: on Linux the kernel sends it SIGKILL when its
parent dies (``PR_SET_PDEATHSIG``; this reaches a stopped worker too); everywhere a thread
of the worker ends it once a pipe whose write end only the parent holds reads EOF.  The
resource tracker ends by itself once the parent and every worker have closed their end of
its pipe.  The kernel's signal follows the parent's *thread* that started the worker, so the
parent starts its workers from a ``Spawner``, a thread that lives as long as they may.
"""
from __future__ import annotations

import ctypes
import os
import queue
import signal
import sys
import threading
from concurrent.futures import Future

PR_SET_PDEATHSIG = 1   # <linux/prctl.h>


def gone(pid: int) -> bool:
    """Whether process ``pid`` of this machine has ended: no such process, or one that died and
    waits to be reaped (a zombie: ``kill(pid, 0)`` still finds it, a parent killed with it
    never reaps it, and a claim it held must not wait for a grace period on that account)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:   # another user's: it runs
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):   # ended meanwhile, or no /proc to ask (not Linux): it runs
        return os.path.isdir("/proc/self") and not os.path.exists(f"/proc/{pid}")
    return state in (b"Z", b"X")


def die_with_parent(parent: int, lifeline, kernel: bool = True) -> None:
    """End this process when the process ``parent`` dies; ``lifeline``: the read end of the
    parent's pipe (a ``multiprocessing`` connection; None: the kernel's signal alone).
    ``kernel=False``: the pipe alone (a pool started by whichever thread comes first)."""
    if kernel and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):   # no libc to ask: the pipe alone
            pass
    if lifeline is not None:
        threading.Thread(target=_watch, args=(lifeline,), name="referee-lifeline", daemon=True).start()
    if os.getppid() != parent:   # it died before either was in place
        os._exit(1)


def _watch(lifeline) -> None:
    try:
        lifeline.recv_bytes()   # the parent never writes: this returns only once its end is closed
    except (EOFError, OSError):
        pass
    os._exit(1)   # as a kill would: no cleanup, no commit (a close under way is due again)


class Spawner:
    """A thread of the parent that starts worker processes (``run``) and ends only when told
    (``stop``, once they are gone): a worker started by a thread that ends before it, such as
    a closing thread restarted, would be killed then by the kernel's parent-death signal."""

    def __init__(self, name: str = "referee-spawner") -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            work, done = job
            try:
                done.set_result(work())
            except BaseException as e:   # handed to the caller
                done.set_exception(e)

    def run(self, work):
        """``work()`` done in the spawner's thread; its result."""
        done: Future = Future()
        self._jobs.put((work, done))
        return done.result()

    def stop(self) -> None:
        self._jobs.put(None)
        self._thread.join()
