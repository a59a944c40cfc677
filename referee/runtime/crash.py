"""Named crash points for the crash-safety tests.

``REFEREE_CRASH_AT=<point>`` (or ``<point>@<n>`` for its n-th passage) makes
the process die at once with exit code 137, as a kill would: no cleanup, no
commit, no flush beyond what already happened.  ``REFEREE_CRASH_HOW=stop``
makes it stop there instead (SIGSTOP), holding whatever it holds, for the
test to kill it with a real SIGKILL; ``stop-group`` stops its whole process
group, a ``referee run`` with its close workers frozen as one machine would be
(tests/store/test_workers.py starts each worker in a session of its own).
"""
from __future__ import annotations

import os
import signal

_passed: dict[str, int] = {}


def point(name: str) -> None:
    want = os.environ.get("REFEREE_CRASH_AT")
    if not want:
        return
    target, _, nth = want.partition("@")
    if target != name:
        return
    _passed[name] = _passed.get(name, 0) + 1
    if _passed[name] >= int(nth or 1):
        how = os.environ.get("REFEREE_CRASH_HOW")
        if how == "stop":
            os.kill(os.getpid(), signal.SIGSTOP)
        elif how == "stop-group":
            os.killpg(os.getpgrp(), signal.SIGSTOP)
        os._exit(137)
