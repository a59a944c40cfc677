"""What the hardening tests share: the toy game on SQLite with an injected clock,
a Maildir outbox read back, mails as players write them, and a little table
that plays turns."""
from __future__ import annotations

import email
import mailbox
import re
import sys
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

HERE = Path(__file__).resolve().parent
for extra in (HERE.parent,):
    if str(extra) not in sys.path:
        sys.path.append(str(extra))

import refkit  # noqa: E402
import toygame  # noqa: E402

from referee.app.referee import Referee  # noqa: E402
from referee.authority.base import Settings  # noqa: E402
from referee.mail.inbound import parse_inbound  # noqa: E402
from referee.mail.sink import MaildirSink  # noqa: E402
from referee.render.renderer import Renderer  # noqa: E402
from referee.store import open_store  # noqa: E402

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
REFEREE = "referee@example.org"
SPEC = {
    "id": "toy1", "game": "toybid", "title": "Toy One", "gm": "gm@example.org", "language": "en",
    "timezone": "Europe/Berlin", "options": {"rounds": 4},
    "schedule": {"period": "48h", "grace": "30m"},
    "players": [
        {"id": "ann", "name": "Ann", "email": "ann@example.org"},
        {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"},
        {"id": "cyd", "name": "Cyd", "email": "cyd@example.org"},
    ],
    "observers": ["watcher@example.org"],
}
KEY = re.compile(r"(?:Your key|Dein Schlüssel|GM key|Spielleitungs-Schlüssel)[^:\n]*: (\S+)")


class Clock(refkit.Clock):
    def __init__(self, t: datetime = START) -> None:
        super().__init__(t)


def make_referee(root: Path, clock, store: str | None = None, **settings) -> Referee:
    """A referee with its archive in ``root``; its store there too, or at ``store`` (a PostgreSQL address)."""
    root.mkdir(parents=True, exist_ok=True)
    return Referee(open_store(store or root / "referee.sqlite"), root / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]),
                   clock, Settings(address=REFEREE, rate_limit_per_hour=1000, **settings))


Outbox = refkit.Outbox


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()


def to(msgs, address: str) -> list[EmailMessage]:
    return [m for m in msgs if address in m["To"]]


def raw_mail(sender: str, body: str, *, subject: str = "orders") -> bytes:
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = sender
    msg["To"] = REFEREE
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain="players.example")
    msg.set_content(body)
    return msg.as_bytes()


def inbound(sender: str, body: str):
    return parse_inbound(raw_mail(sender, body), own_addresses=[REFEREE])


def bid(match: str, player: str, key: str, turn: int, value: int = 1) -> str:
    return f"match: {match}\nplayer: {player}\nkey: {key}\nturn: {turn}\norders:\n  bid: {value}\n"


def create(ref: Referee, outbox: Outbox, spec: dict = SPEC) -> dict[str, str]:
    """Create the match; the keys its welcome mails hand out, by seat, and the GM's as "@gm"."""
    created = ref.create_match(spec)
    keys = {}
    for m in outbox.flush():
        hit = re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m))
        if hit and m["To"] != spec["gm"]:
            keys[m["To"].split("@")[0]] = hit.group(1)
    keys["@gm"] = created.gm_key
    return keys


def send_orders(ref: Referee, match: str, keys: dict, who, turn: int, value: int = 1) -> None:
    for player in who:
        handled = ref.handle(inbound(f"{player}@example.org", bid(match, player, keys[player], turn, value)))
        assert handled.reason == "accepted", handled


# -- fixtures (imported by each test module: a conftest.py here would shadow
#    tests/referee's, which its modules import by the name ``conftest``) -------
import pytest  # noqa: E402

from referee.game_api import registry  # noqa: E402

toy_registered = refkit.toy_registered   # autouse: the toy game, registered for each test


@pytest.fixture
def clock():
    return Clock()


ref, outbox = refkit.referee_fixtures(make_referee)
