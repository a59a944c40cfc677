"""Fixtures for the authority's tests: a toy game, an injected clock, SQLite in a
temp folder, Maildir out, and mails built as players would write them (all in
referee_kit.py, which other folders' kits import too)."""
from __future__ import annotations

from referee_kit import (  # noqa: F401  (fixtures, and names older modules import from here)
    BOSS,
    REFEREE,
    SPEC,
    START,
    Clock,
    Outbox,
    clock,
    game,
    inbound,
    make_referee,
    outbox,
    raw_mail,
    ref,
    text_of,
    to,
    toy_registered,
)
