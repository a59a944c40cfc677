"""A Ratsspiel table played through the real test mail servers (Dovecot + SMTP),
for the end-to-end tests of table talk and the chronicle: alice (English), bob and
carol (German), an observer and the GM; the clock is simulated."""
from __future__ import annotations

import email
import re
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

import yaml

from referee.app.referee import Referee
from referee.app.service import Service
from referee.authority.base import Settings
from referee.mail.imap_source import ImapSource
from referee.mail.senderauth import Trust
from referee.mail.sink import SmtpSink
from referee.store.sqlite import SqliteStore

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")
SEATS = ("alice", "bob", "carol")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def parsed(raw: bytes) -> tuple[EmailMessage, str]:
    msg = email.message_from_bytes(raw, policy=policy.default)
    part = msg.get_body(("plain",))
    return msg, part.get_content() if part else ""


class MailTable:
    def __init__(self, servers, tmp_path, press="private", match_id="talk") -> None:
        s = self.s = servers
        self.match_id = match_id
        self.clock = Clock()
        self.address = s.address("referee")
        self.gm_address = s.address("gm")
        self.turns = tmp_path / "turns"
        # strangers answered (as in tests/conftest.py): tests read that the answer tells nothing
        self.ref = Referee(SqliteStore(tmp_path / "referee.sqlite"), self.turns, clock=self.clock,
                           settings=Settings(address=self.address, trust=Trust(strangers="all")))
        source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), security="plain")
        self.service = Service(self.ref, source, SmtpSink(s.host, s.smtp.port, security="plain"), address=self.address)
        self.seen = {u: 0 for u in (*SEATS, "gm", "observer")}
        self.created = self.ref.create_match({
            "id": match_id, "game": "perricumer_ratsspiel", "lang": "de", "gm": self.gm_address,
            "timezone": "Europe/Berlin", "schedule": {"period": "48h"}, "press": press,
            "observers": [{"email": s.address("observer"), "lang": "en"}],
            "players": [{"id": p, "name": p.title(), "email": s.address(p), **({"lang": "en"} if p == "alice" else {})}
                        for p in SEATS]}, seed="talk-seed")
        self.service.tick()
        # each welcome, then the rules for players in a mail of their own (issue 33)
        self.keys = {p: KEY.search(self.new_mail(p, expect=2)[0][1]).group(1) for p in SEATS}
        self.new_mail("gm")
        (welcome, _), = self.new_mail("observer")      # the match file's observer is welcomed at creation
        assert "You follow" in welcome["Subject"]

    def new_mail(self, user: str, expect: int = 1) -> list[tuple[EmailMessage, str]]:
        raws = self.s.wait_messages(user, self.seen[user] + expect)
        fresh = raws[self.seen[user]:]
        self.seen[user] = len(raws)
        return [parsed(r) for r in fresh]

    def nothing_new(self, user: str) -> bool:
        return len(self.s.messages(user)) == self.seen[user]

    def mail(self, user: str, text: str, *, subject: str = "talk", in_reply_to: str | None = None,
             attachment: tuple[str, str] | None = None) -> bytes:
        msg = EmailMessage()
        msg["From"] = self.s.address(user)
        msg["To"] = self.address
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        if in_reply_to:
            msg["In-Reply-To"], msg["References"] = in_reply_to, in_reply_to
        msg.set_content(text)
        if attachment:
            msg.add_attachment(attachment[1], subtype="markdown", filename=attachment[0])
        raw = msg.as_bytes(policy=policy.SMTP)
        self.s.send(self.s.address(user), [self.address], raw)
        self.service.poll_once()
        return raw

    def doc(self, user: str, **fields) -> str:
        player, key = ("gm", self.created.gm_key) if user == "gm" else (user, self.keys[user])
        return "Hallo,\n\n" + yaml.safe_dump({"match": self.match_id, "player": player, "key": key, **fields},
                                             allow_unicode=True, sort_keys=False) + "\n-- \nGruß\n"

    def reply(self, user: str, to: EmailMessage, text: str, quoted: str, **kw) -> bytes:
        """``user`` answers ``to`` with their mail client: text on top, the original quoted."""
        quote = "\n".join("> " + line for line in quoted.splitlines())
        return self.mail(user, f"{text}\n\nAm 2. März 2026 schrieb der Schiedsrichter:\n{quote}\n",
                         subject="Re: " + to["Subject"], in_reply_to=to["Message-ID"], **kw)
