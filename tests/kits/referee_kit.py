"""What the authority tests share: the toy match, the referee they
build and the mails they read back (a module of its own, so that ``from referee_kit import``
never picks another folder's conftest)."""

from __future__ import annotations

import email
import mailbox
import re
from datetime import UTC, datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
import refkit  # tests/ is on sys.path (tests/conftest.py)
import toygame

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.inbound import parse_inbound
from referee.mail.senderauth import Trust
from referee.mail.sink import MaildirSink
from referee.render.renderer import Renderer
from referee.store import open_store

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
REFEREE = "referee@example.org"
BOSS = ("boss@example.org", "BOSS-KEY2-3456")


class Clock(refkit.Clock):
    def __init__(self, t: datetime = START) -> None:
        super().__init__(t)


def make_referee(root: Path, clock) -> Referee:
    # strangers: answered within the budget, so these tests can read what the answer says;
    # the default (only a proven From is answered) is tested in tests/authority/test_backscatter_policy.py
    return Referee(open_store(root / "referee.sqlite"), root / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]),
                   clock, Settings(address=REFEREE, gm_keys={BOSS[0]: BOSS[1]}, rate_limit_per_hour=20,
                                   trust=Trust(strangers="all")))


Outbox = refkit.Outbox


def to(msgs, address: str) -> list[EmailMessage]:
    return [m for m in msgs if address in m["To"]]


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()


SPEC = {
    "id": "toy1", "game": "toybid", "title": "Toy One", "gm": "gm@example.org", "language": "en",
    "timezone": "Europe/Berlin", "options": {"rounds": 2},
    "schedule": {"period": "48h", "grace": "30m", "reminders": ["12h", "2h"]},
    "players": [
        {"id": "ann", "name": "Ann", "email": "ann@example.org"},
        {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"},
        {"id": "cyd", "name": "Cyd", "email": "cyd@example.org"},
    ],
    "observers": ["watcher@example.org"],
}


def raw_mail(sender: str, body: str, *, subject: str = "orders", headers: dict | None = None,
             message_id: str | None = None, charset: str = "utf-8") -> bytes:
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = sender
    msg["To"] = REFEREE
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or make_msgid(domain="players.example")
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body, charset=charset)
    return msg.as_bytes()


def inbound(sender: str, body: str, **kw):
    return parse_inbound(raw_mail(sender, body, **kw), own_addresses=[REFEREE])


toy_registered = refkit.toy_registered   # autouse: the toy game, registered for each test


@pytest.fixture
def clock():
    return Clock()


ref, outbox = refkit.referee_fixtures(make_referee)


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


def toy_league(root: Path, clock, matches: int, seed: str = "league", observers: bool = False):
    """``matches`` toy matches (toy0, toy1, …), no observers (``observers``: SPEC's), every deadline passed."""
    ref = make_referee(root, clock)
    for i in range(matches):
        ref.create_match(dict(SPEC, id=f"toy{i}", observers=SPEC["observers"] if observers else [],
                              players=[dict(p, email=p["email"].replace("@", f"{i}@")) for p in SPEC["players"]]),
                         seed=f"{seed}-{i}")
    clock.advance(hours=49)
    return ref


def keys_of(outbox) -> dict[str, str]:
    keys = {}
    for m in outbox.flush():
        hit = re.search(r"(?:Your key|Dein Schlüssel|Your GM key|Dein Spielleitungs-Schlüssel): (\S+)", text_of(m))
        if hit:
            keys[m["To"].split("@")[0]] = hit.group(1)
    return keys


def doc(player, key, body, match="toy1"):
    return f"match: {match}\nplayer: \"{player}\"\nkey: {key}\n{body}"


RAT_PLAYERS = [{"id": "alrik", "name": "Alrik", "email": "alrik@example.org"},
               {"id": "boronian", "name": "Boronian", "email": "boronian@example.org", "lang": "en"}]


def ratsspiel_match(ref, outbox) -> dict[str, str]:
    """A Perricumer Ratsspiel match "rat" (German; alrik reads German, boronian English):
    each seat's key from its welcome mail."""
    ref.create_match(dict(SPEC, id="rat", game="perricumer_ratsspiel", language="de", players=RAT_PLAYERS,
                          options={}, observers=[]))
    return keys_of(outbox)
