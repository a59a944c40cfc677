"""The authority tests' referee (tests/kits/referee_kit.py: toy game, injected
clock, SQLite in a temp folder) for the security tests of issue 16, findings
7, 8 and 10, plus a Maildir outbox read back and the keys it mailed."""
from __future__ import annotations

import email
import mailbox
import re
from pathlib import Path

import pytest
import referee_kit as authority  # tests/kits, on sys.path (tests/conftest.py)
import toygame

from referee.game_api import registry
from referee.mail.sink import MaildirSink

START, REFEREE, BOSS, SPEC = authority.START, authority.REFEREE, authority.BOSS, authority.SPEC
raw_mail, text_of = authority.raw_mail, authority.text_of


@pytest.fixture
def clock():
    return authority.Clock()


@pytest.fixture
def ref(tmp_path, clock):
    registry.register(toygame.RULES)
    r = authority.make_referee(tmp_path, clock)
    yield r
    r.store.close()
    registry.unregister(toygame.RULES.name)


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
