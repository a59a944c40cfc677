"""A table of the toy game for the campaign tests of issue 18 (dropouts, keys and
addresses, absence): a real referee on SQLite in a temp folder, a simulated
clock, mail in as players write it, mail out into a Maildir, read back by
recipient.  The fixture ``seats_table(**spec)`` (conftest.py) makes one with extra
match-file fields."""
from __future__ import annotations

import email
import mailbox
import re
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

import toygame  # tests/ is on sys.path (tests/conftest.py)
from refkit import in_order

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.inbound import parse_inbound
from referee.mail.senderauth import Trust
from referee.mail.sink import MaildirSink
from referee.render.renderer import Renderer
from referee.store import open_store

REFEREE = "referee@example.org"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
KEY = re.compile(r"(?:Your key|Dein Schlüssel|Your new key|Dein neuer Schlüssel): (\S+)")


def spec(**extra) -> dict:
    return {"id": "toy1", "game": "toybid", "title": "Toy One", "gm": "gm@example.org", "language": "en",
            "timezone": "Europe/Berlin", "options": {"rounds": 8}, "schedule": {"period": "48h"},
            "players": [{"id": "ann", "name": "Ann", "email": "ann@example.org"},
                        {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"},
                        {"id": "cyd", "name": "Cyd", "email": "cyd@example.org"}], **extra}


class Table:
    def __init__(self, root, **extra) -> None:
        self.now = START
        # strangers answered (as in tests/conftest.py): tests read that the answer tells nothing
        self.ref = Referee(open_store(root / "referee.sqlite"), root / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]),
                           lambda: self.now, Settings(address=REFEREE, trust=Trust(strangers="all")))
        self.gm_key = self.ref.create_match(spec(**extra), seed="seats").gm_key
        self.sink, self.box, self.seen = MaildirSink(root / "out"), root / "out", set()
        self.keys = {m["To"].split("@")[0]: KEY.search(text(m)).group(1) for m in self.flush() if KEY.search(text(m))}

    def flush(self) -> list[EmailMessage]:
        """The mails sent since the last call."""
        self.ref.send_pending(self.sink)
        box = mailbox.Maildir(str(self.box), create=False)
        new = [k for k in in_order(box) if k not in self.seen]
        self.seen |= set(new)
        return [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in new]

    def mails(self) -> dict[str, list[str]]:
        """Subject + text of the mails sent since the last call, by recipient's address."""
        out: dict[str, list[str]] = {}
        for m in self.flush():
            out.setdefault(m["To"], []).append(m["Subject"] + "\n" + text(m))
        return out

    def send(self, sender: str, body: str):
        msg = EmailMessage(policy=policy.SMTP)
        msg["From"], msg["To"], msg["Subject"] = sender, REFEREE, "mail"
        msg["Message-ID"] = make_msgid(domain="players.example")
        msg.set_content(body)
        return self.ref.handle(parse_inbound(msg.as_bytes(), own_addresses=[REFEREE]))

    def command(self, player: str, command: str, sender: str | None = None, key: str | None = None, **args):
        lines = "".join(f"{k}: {v}\n" for k, v in args.items())
        key = key if key is not None else (self.gm_key if player == "gm" else self.keys[player])
        return self.send(sender or (f"{player}@example.org"), f"match: toy1\nplayer: {player}\nkey: {key}\n"
                                                              f"command: {command}\n{lines}")

    def bid(self, player: str, value: int = 1, key: str | None = None, sender: str | None = None):
        turn = self.ref.store.current_turn("toy1")["number"]
        return self.send(sender or f"{player}@example.org", f"match: toy1\nplayer: {player}\n"
                         f"key: {key or self.keys[player]}\nturn: {turn}\norders:\n  bid: {value}\n")

    def deadline(self) -> datetime:
        return datetime.fromisoformat(self.ref.store.current_turn("toy1")["deadline"])

    def pass_deadline(self) -> None:
        self.now = self.deadline() + timedelta(minutes=1)
        self.ref.tick()


def text(msg) -> str:
    return msg.get_body(("plain",)).get_content()
