"""The archived flag of closed turns whose record a close named after its commit
(``archive_close.place_record``): set only once those names are durable.

The record's bytes were synced before the commit; its names (a rename in the turn's
folder) are not, until the folder is fsynced.  A folder's fsync right after each commit
flushes the store's fresh WAL with it (measured: +20-90% of a tick's wall), so the turns
of a pass are collected here and, at the end of the pass (and every ``EVERY`` turns, or
``MAX_AGE`` seconds, so a long pass holds few unflagged), their folders are fsynced in
one parallel round (one journal flush) and then flagged in one transaction.  A close
outside a pass (a GM's force, ``Referee.close_turn``) is flushed before it returns.

A crash, or a refused fsync or flag, leaves the turns unflagged: the tick's archive
repair (``Closing.repair_archive``) rewrites their record durably and flags them.
While a live process holds them unflagged, another process's repair leaves them to it
(``store.archiving``: the close named its process the turn's archiver); one that takes
them anyway (a pass held past ``archiving.GRACE``) writes the very bytes again by
atomic renames, and flagging twice sets the same flag.
"""
from __future__ import annotations

import time
from contextlib import contextmanager

from referee.archive import record as files
from referee.runtime import crash


class PendingFlags:
    """Closed turns waiting for their folder's fsync, then their archived flag.
    ``held``: passes (or a close worker, whose parent flags) under way; while held, a
    turn is flagged at the pass's end (``batch``), not as it is added."""

    EVERY = 64       # turns at most between two flushes within a pass
    MAX_AGE = 10.0   # seconds at most a turn waits within a pass (well inside archiving.GRACE)

    def __init__(self, store, archive, faults) -> None:
        self.store, self.archive, self.faults = store, archive, faults
        self.turns: list[tuple[str, int]] = []
        self.held = 0
        self._since = 0.0

    def add(self, match_id: str, number: int) -> None:
        if not self.turns:
            self._since = time.monotonic()
        self.turns.append((match_id, number))
        if not self.held or len(self.turns) >= self.EVERY or time.monotonic() - self._since > self.MAX_AGE:
            self.flush()

    @contextmanager
    def batch(self):
        """A pass: the turns added meanwhile are flagged together, at the latest when it ends
        (an exception too: what is placed is flagged, after its fsync)."""
        self.held += 1
        try:
            yield self
        finally:
            self.held -= 1
            if not self.held:
                self.flush()

    def take(self) -> list[tuple[str, int]]:
        """The turns waiting, handed over (a close worker's to its parent, which flags them)."""
        turns, self.turns = self.turns, []
        return turns

    def flush(self) -> None:
        """Fsync the waiting turns' folders in one round, then flag them in one transaction.
        A refused fsync or flag leaves them unflagged for the repair, each noted as the
        archive's fault; a locked store (transient) is raised, as for any close's step."""
        turns = self.take()
        if not turns:
            return
        try:
            self._sync(turns)
            crash.point("archive.written")
            with self.store.transaction():
                self.store.set_archived_many(turns)
        except Exception as error:
            self._refused(turns, error)

    def _sync(self, turns: list[tuple[str, int]]) -> None:
        files.sync_folders(dict.fromkeys(str(self.archive.turn_dir(m, n)) for m, n in turns))

    def _refused(self, turns: list[tuple[str, int]], error: Exception) -> None:
        trace = error.__traceback__
        for match_id, number in turns:   # each turn's fault, as a close's archive fault is noted (or raised)
            with self.faults.guarded("archive", f"{match_id}:{number}", match_id, number):
                raise error.with_traceback(trace)
