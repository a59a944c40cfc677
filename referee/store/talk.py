"""The store's rows of table talk and the chronicle (issue 18): relayed messages,
the routes their replies take, chronicle entries and players' letters.

Plain portable SQL over the store's own connection (``_one``/``_all``/``_exec``,
``?`` placeholders), so it runs on whichever store the referee was given; the
tables are at the end of ``referee/store/schema.py``."""
from __future__ import annotations

import json
from datetime import UTC, datetime


def _iso(t: datetime) -> str:
    return t.astimezone(UTC).isoformat()


def _press(row: dict | None) -> dict | None:
    if row is None:
        return None
    return dict(row, recipients=json.loads(row["recipients"]), public=bool(row["public"]),
                anonymous=bool(row["anonymous"]))


def _entry(row: dict | None) -> dict | None:
    if row is None:
        return None
    return dict(row, seats=json.loads(row["seats"]) if row["seats"] else None)


class TalkRecords:
    def __init__(self, store) -> None:
        self.store = store

    # -- press --------------------------------------------------------------
    def add_press(self, match: str, turn: int, sender: str, recipients: list[str], public: bool,
                  anonymous: bool, text: str, sent: datetime, answers: int | None = None) -> int:
        row = self.store._one("SELECT COALESCE(MAX(number), 0) + 1 AS n FROM press WHERE match=?", (match,))
        number = int(row["n"])
        self.store._exec("INSERT INTO press (match, number, turn, sender, recipients, public, anonymous, answers, "
                         "text, sent) VALUES (?,?,?,?,?,?,?,?,?,?)",
                         (match, number, turn, sender, json.dumps(recipients), int(public), int(anonymous), answers,
                          text, _iso(sent)))
        return number

    def press_of_turn(self, match: str, turn: int) -> list[dict]:
        rows = self.store._all("SELECT * FROM press WHERE match=? AND turn=? ORDER BY number", (match, turn))
        return [_press(r) for r in rows]

    def press(self, match: str, number: int) -> dict | None:
        return _press(self.store._one("SELECT * FROM press WHERE match=? AND number=?", (match, number)))

    def add_route(self, route: str, token_hash: str, match: str, number: int, holder: str, back_to: str) -> None:
        self.store._exec("INSERT INTO press_routes (route, token, match, number, holder, back_to) VALUES (?,?,?,?,?,?) "
                         "ON CONFLICT (route) DO NOTHING", (route, token_hash, match, number, holder, back_to))

    def route(self, routes: list[str], token_hash: str | None) -> dict | None:
        """The route of a reply: by the relayed mail's Message-ID digest, else its subject token."""
        for digest in routes:
            row = self.store._one("SELECT * FROM press_routes WHERE route=?", (digest,))
            if row is not None:
                return row
        if token_hash:
            return self.store._one("SELECT * FROM press_routes WHERE token=?", (token_hash,))
        return None

    # -- the chronicle and letters ----------------------------------------------
    def add_entry(self, match: str, kind: str, author: str, status: str, turn: int | None, seats: list[str] | None,
                  title: str | None, text: str, created: datetime) -> int:
        row = self.store._one("SELECT COALESCE(MAX(number), 0) + 1 AS n FROM chronicle WHERE match=?", (match,))
        number = int(row["n"])
        self.store._exec("INSERT INTO chronicle (match, number, kind, author, status, turn, seats, title, text, created) "
                         "VALUES (?,?,?,?,?,?,?,?,?,?)",
                         (match, number, kind, author, status, turn, json.dumps(seats) if seats else None, title,
                          text, _iso(created)))
        return number

    def entry(self, match: str, number: int) -> dict | None:
        return _entry(self.store._one("SELECT * FROM chronicle WHERE match=? AND number=?", (match, number)))

    def decide(self, match: str, number: int, status: str, turn: int | None) -> None:
        self.store._exec("UPDATE chronicle SET status=?, turn=? WHERE match=? AND number=?", (status, turn, match, number))

    def published(self, match: str, turn: int) -> list[dict]:
        rows = self.store._all("SELECT * FROM chronicle WHERE match=? AND turn=? AND status='published' ORDER BY number",
                               (match, turn))
        return [_entry(r) for r in rows]

    def held(self, match: str, author: str | None = None) -> list[dict]:
        if author is None:
            rows = self.store._all("SELECT * FROM chronicle WHERE match=? AND status='held' ORDER BY number", (match,))
        else:
            rows = self.store._all("SELECT * FROM chronicle WHERE match=? AND status='held' AND author=? ORDER BY number",
                                   (match, author))
        return [_entry(r) for r in rows]
