"""The authority tests' referee (tests/referee/conftest.py: toy game, injected
clock, SQLite in a temp folder) for the security tests of issue 16, findings
7, 8 and 10, plus a Maildir outbox read back and the keys it mailed."""
from __future__ import annotations

import email
import importlib.util
import mailbox
import re
from pathlib import Path

import pytest

from referee.mail.sink import MaildirSink

_spec = importlib.util.spec_from_file_location(
    "authority_fixtures", Path(__file__).resolve().parents[1] / "referee" / "conftest.py")
authority = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(authority)   # a module of its own: "referee" names the package here

START, REFEREE, BOSS, SPEC = authority.START, authority.REFEREE, authority.BOSS, authority.SPEC
raw_mail, text_of = authority.raw_mail, authority.text_of


@pytest.fixture
def clock():
    return authority.Clock()


@pytest.fixture
def ref(tmp_path, clock):
    registry = authority.registry
    registry.register(authority.toygame.RULES)
    r = authority.make_referee(tmp_path, clock)
    yield r
    r.store.close()
    registry.unregister(authority.toygame.RULES.name)


def sent(ref, path: Path) -> list:
    """Send the outbox into the Maildir at ``path``; every message there."""
    ref.send_pending(MaildirSink(path))
    box = mailbox.Maildir(str(path), create=False)
    return [email.message_from_bytes(box.get_bytes(k), policy=email.policy.default) for k in box.keys()]


def keys_of(ref, path: Path) -> dict[str, str]:
    found = {}
    for m in sent(ref, path):
        hit = re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m))
        if hit:
            found[m["To"].split("@")[0]] = hit.group(1)
    return found


def bid(player: str, key: str, value: int = 1, turn: int = 1) -> str:
    return f"match: toy1\nplayer: {player}\nkey: {key}\nturn: {turn}\norders:\n  bid: {value}\n"
