"""Named crash points for the crash-safety tests.

``REFEREE_CRASH_AT=<point>`` (or ``<point>@<n>`` for its n-th passage) makes
the process die at once with exit code 137, as a kill would: no cleanup, no
commit, no flush beyond what already happened.
"""
from __future__ import annotations

import os

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
        os._exit(137)
