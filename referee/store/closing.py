"""What a close reads, as one comparable value (issue 8: the close is worked out
outside the write transaction, then committed in a short one).  ``inputs`` is
read before the close is worked out and again under the match's claim: equal
values mean nothing the close used has changed, so what it worked out stands.
Portable SQL over the store's own connection, like ``store/meta.py``.

Also the close workers' queue (``close_queue``, schema 9): the due turns a tick notes, each
claimed by one worker for a while (owner and expiry), so that no two workers try one close
and a dead worker's claim is taken by the next."""
from __future__ import annotations

import os
import socket
import time
from datetime import UTC, datetime

from referee.runtime.lifeline import gone
from referee.store.batches import insert_rows
from referee.store.rows import _iso

# every row a close's result or reports can depend on: the match (status, spec,
# GM), its newest turn, the turn's orders (which, not their text: a new one
# has a new message id or stamp), the seats and readers, absences (deadlines
# moved past them), and the table talk and chronicle that head the reports
_MATCH = "SELECT * FROM matches WHERE id=?"
_TURN = "SELECT number, rev, status, deadline, opened FROM turns WHERE match=? ORDER BY number DESC LIMIT 1"
_SUBS = ("SELECT player, message_id, content_hash, received FROM submissions WHERE match=? AND turn=?"
         " ORDER BY player")
_PLAYERS = "SELECT * FROM players WHERE match=? ORDER BY id"
_OBSERVERS = "SELECT * FROM observers WHERE match=? ORDER BY seq"
_ABSENCES = "SELECT * FROM absences WHERE match=? ORDER BY start, player"
_PRESS = "SELECT number FROM press WHERE match=? AND turn=? ORDER BY number"
_CHRONICLE = "SELECT number, status, seats, title, text FROM chronicle WHERE match=? AND turn=? ORDER BY number"


def _rows(store, sql: str, args: tuple) -> tuple:
    return tuple(tuple(r) for r in store._db.execute(sql, args).fetchall())


def inputs(store, match_id: str) -> tuple:
    """The close's inputs for the match's newest turn, as one value to compare."""
    turn = _rows(store, _TURN, (match_id,))
    number = turn[0][0] if turn else None
    return (_rows(store, _MATCH, (match_id,)), turn,
            _rows(store, _SUBS, (match_id, number)), _rows(store, _PLAYERS, (match_id,)),
            _rows(store, _OBSERVERS, (match_id,)), _rows(store, _ABSENCES, (match_id,)),
            _rows(store, _PRESS, (match_id, number)), _rows(store, _CHRONICLE, (match_id, number)))


def has_talk(seen: tuple, number: int) -> bool:
    """Whether ``seen`` (``inputs``) may hold table talk or chronicle entries for turn
    ``number``: False only when it was read for that turn and holds neither."""
    turn = seen[1]
    return not turn or turn[0][0] != number or bool(seen[6] or seen[7])


def stored_time(t: datetime) -> str | None:
    """A time as the store writes it and gives it back (ISO 8601 in UTC)."""
    return _iso(t)


# -- the close workers' queue (issues 34, 38): due turns, each claimed by one worker at a time -----
LEASE = 60.0   # seconds a claim holds; a close takes milliseconds: a claim this old is a dead or stuck worker's
_QUEUE = "INSERT INTO close_queue (match, turn) VALUES "


def worker_name() -> str:
    """This process as a claim's owner: ``host:pid`` (a claimer on this host sees whether it runs)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _gone(owner: str) -> bool:
    """Whether the claim's owner is a process of this host that no longer runs (another host's: expiry alone)."""
    host, _, pid = owner.partition(":")
    return host == socket.gethostname() and pid.isdigit() and int(pid) != os.getpid() and gone(int(pid))


def queue_due(store, turns: list[tuple[str, int]]) -> None:
    """Note ``turns`` (match, number) due for the close workers, in one transaction.  A row for this
    turn stays as it is (waiting, or claimed); one for another turn of the match is replaced.  Rows
    are read first and only new ones inserted, and a row to replace is passed over while another
    worker's transaction holds it (a close committing): neither waits on a worker that stopped
    in the middle of its close (PostgreSQL would wait on that row's lock)."""
    with store.transaction():
        queued = {r["match"]: r["turn"] for r in store._all("SELECT match, turn FROM close_queue")}
        insert_rows(store, _QUEUE, [t for t in turns if t[0] not in queued], 400, " ON CONFLICT DO NOTHING")
        for match_id, number in turns:
            if queued.get(match_id, number) != number and store._one(
                    "SELECT match FROM close_queue WHERE match=?" + store._db.skip_locked, (match_id,)):
                store._exec("UPDATE close_queue SET turn=?, owner=NULL, until=NULL WHERE match=?", (number, match_id))


def claim_due(store, owner: str, limit: int, lease: float = LEASE) -> list[tuple[str, int]]:
    """Up to ``limit`` queued turns claimed for ``owner`` until ``lease`` seconds from now: those
    waiting, those whose claim expired, and those of a dead process of this host.  Rows another
    worker is claiming right now are passed over, not waited for (PostgreSQL: SKIP LOCKED; SQLite:
    the write transaction holds the file).  Wall-clock time: the referee's clock may be a test's."""
    now = time.time()
    with store.transaction():
        held = store._all("SELECT DISTINCT owner FROM close_queue WHERE owner IS NOT NULL AND until >= ?",
                          (_at(now),))
        dead = [r["owner"] for r in held if _gone(r["owner"])]
        rows = store._all("SELECT match, turn FROM close_queue WHERE owner IS NULL OR until < ?"
                          + (" OR owner IN (" + ",".join("?" * len(dead)) + ")" if dead else "")
                          + " ORDER BY match LIMIT ?" + store._db.skip_locked, (_at(now), *dead, limit))
        if rows:
            store._exec("UPDATE close_queue SET owner=?, until=? WHERE match IN (" + ",".join("?" * len(rows)) + ")",
                        (owner, _at(now + lease), *[r["match"] for r in rows]))
    return [(r["match"], r["turn"]) for r in rows]


def end_claim(store, match_id: str, owner: str) -> bool:
    """The claim's row gone (in the close's transaction, or when a worker gives the turn up);
    False: ``owner`` no longer held it (it expired and another worker has it)."""
    return store._exec("DELETE FROM close_queue WHERE match=? AND owner=?", (match_id, owner)) == 1


def free_claims(store, owners: list[str]) -> None:
    """Dead workers' claims let go at once (their parent saw them die), for the next worker."""
    if owners:
        with store.transaction():
            store._exec("UPDATE close_queue SET owner=NULL, until=NULL WHERE owner IN ("
                        + ",".join("?" * len(owners)) + ")", tuple(owners))


def queued(store) -> list[dict]:
    """The queue as it stands: match, turn, owner, until."""
    return store._all("SELECT match, turn, owner, until FROM close_queue ORDER BY match")


def _at(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="microseconds")
