"""What the security tests share: a referee on SQLite with the toy game and an
injected clock, its outbox sent into a Maildir (or a real SMTP server), the
keys the welcome mails gave, and hostile raw mails written byte by byte (the
way an attacker writes them, not the way a library would)."""
from __future__ import annotations

import email
import mailbox
import re
from datetime import datetime, timedelta, timezone
from email import policy
from pathlib import Path

import pytest

from referee import registry
from referee.authority import Referee, Settings
from referee.mail.inbound import parse_inbound
from referee.mail.sink import MaildirSink
from referee.render import Renderer
from referee.store import open_store
import toygame  # tests/ is on sys.path (tests/conftest.py)

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
REFEREE = "referee@example.org"
CREATOR = ("boss@example.org", "BOSS-KEY2-3456")
KEY = re.compile(r"(?:Your key|Dein Schlüssel|Your GM key|Dein Spielleitungs-Schlüssel): (\S+)")

SPEC = {
    "id": "toy1", "game": "toybid", "title": "Toy One", "gm": "gm@example.org", "language": "en",
    "timezone": "Europe/Berlin", "options": {"rounds": 3},
    "schedule": {"period": "48h", "grace": "30m", "reminders": ["12h", "2h"]},
    "players": [{"id": "ann", "name": "Ann", "email": "ann@example.org"},
                {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"},
                {"id": "cyd", "name": "Cyd", "email": "cyd@example.org"}],
}


class Clock:
    def __init__(self, t: datetime = START) -> None:
        self.t = t

    def __call__(self) -> datetime:
        return self.t

    def advance(self, **kw) -> datetime:
        self.t += timedelta(**kw)
        return self.t


def make_referee(root: Path, clock, **settings) -> Referee:
    base = dict(address=REFEREE, gm_keys={CREATOR[0]: CREATOR[1]}, rate_limit_per_hour=30)
    return Referee(open_store(root / "referee.sqlite"), root / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]),
                   clock, Settings(**{**base, **settings}))


class Outbox:
    """The referee's outbox sent into a Maildir and read back."""

    def __init__(self, ref: Referee, path: Path) -> None:
        self.ref, self.sink, self.path, self.seen = ref, MaildirSink(path), path, set()

    def flush(self) -> list:
        self.ref.send_pending(self.sink)
        box = mailbox.Maildir(str(self.path), create=False)
        new = [k for k in box.keys() if k not in self.seen]
        self.seen |= set(new)
        return [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in new]


@pytest.fixture(autouse=True)
def toy_registered():
    registry.register(toygame.RULES)
    yield
    registry.unregister(toygame.RULES.name)


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


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def to(msgs, address: str) -> list:
    return [m for m in msgs if address in str(m["To"])]


def keys_of(msgs) -> dict[str, str]:
    """Address local part -> key, from welcome mails."""
    found = {}
    for m in msgs:
        hit = KEY.search(text_of(m))
        if hit:
            found[str(m["To"]).split("@")[0]] = hit.group(1)
    return found


def hostile(from_header: str, body: str, *, subject: str = "orders", message_id: str = "<h1@evil.test>",
            extra: str = "") -> bytes:
    """A raw mail with the headers exactly as given (CRLF line ends)."""
    head = f"From: {from_header}\r\nTo: {REFEREE}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n{extra}"
    return (head + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")).encode("utf-8")


def mail(raw: bytes):
    return parse_inbound(raw, own_addresses=[REFEREE])


def order(player: str, key: str, bid: int = 2, turn: int = 1, match: str = "toy1") -> str:
    return f"match: {match}\nplayer: {player}\nkey: {key}\nturn: {turn}\norders:\n  bid: {bid}\n"
