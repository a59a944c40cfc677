"""A NUL character in text the store keeps becomes U+FFFD, on both backends.

PostgreSQL's text holds no NUL (SQLite's does), and hostile mail may carry one
(a header, a table-talk line, a name).  Stored as is on SQLite and as U+FFFD on
PostgreSQL, the same campaign would render different report and chronicle bytes
on the two (issue 12: a ``store copy`` and its replay must change nothing), so
both backends store U+FFFD, which no check lets through either.  JSON columns
are not touched by this: ``json.dumps`` writes a NUL as the escape ``\\u0000``,
kept exactly on both.  Bytes (BLOB/BYTEA) are kept as they are.
"""
from __future__ import annotations

REPLACEMENT = "\ufffd"


def args_without_nul(args: tuple) -> tuple:
    """``args`` with every NUL in a text argument replaced (the same tuple when none has one)."""
    for a in args:
        if type(a) is str and "\x00" in a:
            return tuple(v.replace("\x00", REPLACEMENT) if isinstance(v, str) else v for v in args)
    return args
