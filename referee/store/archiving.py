"""Who writes a closed turn's archive, so that workers sharing a store never
write the same turn at once (issue 12).

The close's own transaction names its process as the turn's ``archiver``
(``host:pid:unix time``): the closer writes the archive right after its commit.
A turn still unarchived is repaired (``SqlStore.take_unarchived``) only by its own
process, or once its archiver is gone: a process of this machine that no
longer runs, or one that has held it longer than ``GRACE`` (another machine's
process, or one stuck).  A worker that takes a turn over names itself, so a
second repairing worker leaves it too.  Wall-clock time: the referee's clock
may be a test's or a replay's.
"""
from __future__ import annotations

import os
import socket
import time

from referee.runtime.lifeline import gone

GRACE = 60.0   # seconds an archiver that still runs (or runs elsewhere) keeps its turn


def me() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{int(time.time())}"


def lost(archiver: str | None) -> bool:
    """Whether a turn whose archive ``archiver`` writes may be taken over by this process."""
    if not archiver:
        return True   # closed before schema 6, or a store copied or restored
    host, _, rest = archiver.partition(":")
    pid, _, since = rest.partition(":")
    if host == socket.gethostname() and pid.isdigit():
        if int(pid) == os.getpid():
            return True   # this process's own: its close failed to write it (a full disk) or it is retried
        if gone(int(pid)):
            return True   # the closer died between its commit and the archive (a zombie too: issue 32)
    try:
        return float(since) < time.time() - GRACE
    except ValueError:
        return True


def take(store) -> list[dict]:
    """``SqlStore.take_unarchived``: the turns this process may write, each taken (a
    compare-and-set on its archiver: two repairing workers never both take one)."""
    taken = []
    for r in store._all("SELECT match, number, archiver FROM turns WHERE status='resolved' AND archived=0"
                        " ORDER BY match, number"):
        if not lost(r["archiver"]):
            continue
        held, was = ("archiver IS NULL", ()) if r["archiver"] is None else ("archiver=?", (r["archiver"],))
        if store._exec(f"UPDATE turns SET archiver=? WHERE match=? AND number=? AND archived=0 AND {held}",
                       (me(), r["match"], r["number"], *was)):
            taken.append({"match": r["match"], "number": r["number"]})
    return taken
