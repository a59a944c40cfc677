"""Many rows in few statements: each statement is a round trip on PostgreSQL, and
SQLite's oldest limit is 999 parameters a statement."""
from __future__ import annotations


def insert_rows(store, head: str, rows: list[tuple], per: int, tail: str = "") -> None:
    """``head`` (``INSERT INTO t (a, b) VALUES ``) with up to ``per`` of ``rows`` a statement,
    then ``tail`` (an ``ON CONFLICT`` clause); every row as wide as the first."""
    if not rows:
        return
    marks = "(" + ",".join("?" * len(rows[0])) + ")"
    for at in range(0, len(rows), per):
        part = rows[at:at + per]
        store._exec(head + ",".join([marks] * len(part)) + tail, tuple(v for row in part for v in row))
