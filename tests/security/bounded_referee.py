"""A referee with the toy game, an injected clock and a Maildir outbox, for the
security tests of issue 16 (findings 7, 8 and 10)."""
from __future__ import annotations

import email
import mailbox
import re
from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from referee import registry
from referee.authority import Referee, Settings
from referee.mail.sink import MaildirSink
from referee.render import Renderer
from referee.store import open_store
import toygame  # tests/ is on sys.path (tests/conftest.py)

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
REFEREE = "referee@example.org"
BOSS = ("boss@example.org", "BOSS-KEY2-3456")
SPEC = {
    "id": "toy1", "game": "toybid", "title": "Toy One", "gm": "gm@example.org", "language": "en",
    "timezone": "Europe/Berlin", "options": {"rounds": 2},
    "schedule": {"period": "48h", "grace": "30m"},
    "players": [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("ann", "bob", "cyd")],
}


class Clock:
    def __init__(self, t: datetime = START) -> None:
        self.t = t

    def __call__(self) -> datetime:
        return self.t

    def advance(self, **kw) -> datetime:
        self.t += timedelta(**kw)
        return self.t


@pytest.fixture
def toy():
    registry.register(toygame.RULES)
    yield
    registry.unregister(toygame.RULES.name)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def ref(toy, tmp_path, clock):
    r = Referee(open_store(tmp_path / "referee.sqlite"), tmp_path / "turns",
                Renderer(extra_dirs=[toygame.TEMPLATES]), clock,
                Settings(address=REFEREE, gm_keys={BOSS[0]: BOSS[1]}, rate_limit_per_hour=3))
    yield r
    r.store.close()


def sent(ref, path: Path) -> list:
    """Send the outbox into the Maildir at ``path``; every message there."""
    ref.send_pending(MaildirSink(path))
    box = mailbox.Maildir(str(path), create=False)
    return [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in box.keys()]


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def keys_of(ref, path: Path) -> dict[str, str]:
    found = {}
    for m in sent(ref, path):
        hit = re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m))
        if hit:
            found[m["To"].split("@")[0]] = hit.group(1)
    return found


def raw_mail(sender: str, body: str, *, message_id: str | None = None) -> bytes:
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = sender, REFEREE, "orders"
    msg["Message-ID"] = message_id or make_msgid(domain="players.example")
    msg.set_content(body)
    return msg.as_bytes()


def bid(player: str, key: str, value: int = 1, turn: int = 1) -> str:
    return f"match: toy1\nplayer: {player}\nkey: {key}\nturn: {turn}\norders:\n  bid: {value}\n"
