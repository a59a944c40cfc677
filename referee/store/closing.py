"""What a close reads, as one comparable value (issue 8: the close is worked out
outside the write transaction, then committed in a short one).  ``inputs`` is
read before the close is worked out and again under the match's claim: equal
values mean nothing the close used has changed, so what it worked out stands.
Portable SQL over the store's own connection, like ``store/meta.py``."""
from __future__ import annotations

from datetime import datetime

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
