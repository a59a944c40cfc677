"""The store's part for computer players in seats (issue 35, migration 11): which
seat a bot plays, how strong, why (the match file, the GM, a dropout handed to
it) and the last turn it decided, so that it decides once a turn however often
the tick looks.  Plain functions over ``_one``, ``_all``, ``_exec`` in portable SQL,
as ``store/seats.py``."""
from __future__ import annotations

from datetime import UTC, datetime


def set_bot(store, match: str, player: str, strength: str, why: str, at: datetime) -> None:
    """The seat is a bot's from now on (a fresh seat: it has decided nothing yet)."""
    store._exec("INSERT INTO seat_bots (match, player, strength, why, since, decided) VALUES (?,?,?,?,?,NULL)"
                " ON CONFLICT (match, player) DO UPDATE SET strength=excluded.strength, why=excluded.why,"
                " since=excluded.since, decided=NULL",
                (match, player, strength, why, at.astimezone(UTC).isoformat()))


def drop_bot(store, match: str, player: str) -> bool:
    """The seat goes back to a person; True if a bot had it."""
    return store._exec("DELETE FROM seat_bots WHERE match=? AND player=?", (match, player)) == 1


def bots(store, match: str) -> dict[str, dict]:
    """{seat: its bot row} of the match's bot seats."""
    return {r["player"]: r for r in store._all("SELECT * FROM seat_bots WHERE match=? ORDER BY player", (match,))}


def undecided(store, match: str | None = None) -> dict[str, list[dict]]:
    """{match: its bot rows} of running matches whose open turn a bot has not decided
    yet (one query a tick; a league without bots reads an empty table); ``match``: its alone."""
    rows = store._all("SELECT b.match AS match, b.player AS player, b.strength AS strength, b.decided AS decided,"
                      " t.number AS number, t.rev AS rev FROM seat_bots b"
                      " JOIN matches m ON m.id = b.match AND m.status = 'running'"
                      " JOIN turns t ON t.match = b.match AND t.status = 'open'"
                      + (" WHERE b.match = ?" if match is not None else "") +
                      " ORDER BY b.match, b.player", (match,) if match is not None else ())
    out: dict[str, list[dict]] = {}
    for r in rows:
        if r["decided"] != turn_key(r["number"], r["rev"]):
            out.setdefault(r["match"], []).append(r)
    return out


def mark_decided(store, match: str, player: str, key: str) -> None:
    store._exec("UPDATE seat_bots SET decided=? WHERE match=? AND player=?", (key, match, player))


def turn_key(number: int, rev: int) -> str:
    return f"{number}.{rev}"
