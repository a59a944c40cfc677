"""Fixtures for the authority's tests: a toy game, an injected clock, SQLite in a
temp folder, Maildir out, and mails built as players would write them."""
from __future__ import annotations

import re

import pytest
import refkit  # tests/ is on sys.path (tests/conftest.py)
from referee_kit import (  # noqa: F401  (older modules import these from conftest)
    BOSS,
    REFEREE,
    SPEC,
    START,
    Clock,
    Outbox,
    inbound,
    make_referee,
    raw_mail,
    text_of,
    to,
)

toy_registered = refkit.toy_registered   # autouse: the toy game, registered for each test


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def ref(tmp_path, clock):
    r = make_referee(tmp_path, clock)
    yield r
    r.store.close()


@pytest.fixture
def outbox(ref, tmp_path):
    return Outbox(ref, tmp_path / "out")


@pytest.fixture
def game(ref, outbox):
    """SPEC's match created; the keys its welcome mails hand out, by seat (and "@gm")."""
    created = ref.create_match(SPEC)
    keys = {}
    for m in outbox.flush():
        hit = re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m))
        if hit:
            keys[m["To"].split("@")[0]] = hit.group(1)
    keys["@gm"] = created.gm_key
    return keys
