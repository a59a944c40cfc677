"""A campaign folder driven the way an operator runs it and an attacker meets it:
``referee init`` and ``referee new`` on the embedded default (SQLite, Maildirs),
raw mails dropped into ``mail/in``, ``referee poll``, the answers read back from
``mail/out`` (issue 32's probes)."""
from __future__ import annotations

import email
import mailbox
import re
from email import policy
from email.message import EmailMessage
from pathlib import Path

import yaml
from refkit import in_order

from referee.app.cli import main
from referee.app.config import load
from referee.app.wiring import open_referee
from referee.mail.inbound import parse_inbound
from referee.store.senders import SenderRecords

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")
REFEREE = "referee@localhost"    # the starter file's address


def match_file(match_id: str, emails: dict | None = None, langs: dict | None = None, **options) -> str:
    """A Founding Fathers match file (English, a 48-hour period) for adams, jay and king at
    example.org, with other ``emails`` or ``langs`` for some seats, and further ``options``."""
    emails, langs = emails or {}, langs or {}
    players = [{"id": seat, "name": name, "email": emails.get(seat, f"{seat}@example.org"),
                **({"lang": langs[seat]} if seat in langs else {})}
               for seat, name in (("adams", "John Adams"), ("jay", "John Jay"), ("king", "Rufus King"))]
    return yaml.safe_dump({"id": match_id, "game": "founding_fathers", "lang": "en", "gm": "gm@example.org",
                           "schedule": {"period": "48h"}, **options, "players": players}, sort_keys=False)


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()


class Door:
    def __init__(self, folder: Path, monkeypatch, match_file: str, config: str = "") -> None:
        monkeypatch.chdir(folder)
        self.folder, self.seen, self.n = folder, set(), 0
        assert main(["init"]) == 0
        with (folder / "referee.yaml").open("a") as f:
            f.write("\n" + config)
        (folder / "match.yaml").write_text(match_file)
        assert main(["new", "match.yaml"]) == 0
        self.keys = {}
        for m in self.new_mail():
            hit = KEY.search(text_of(m))
            if hit:
                self.keys[str(m["To"]).split("@")[0]] = hit.group(1)

    def raw(self, sender: str, body: str, subject: str = "talk", headers: str = "") -> bytes:
        self.n += 1
        return (f"{headers}From: {sender}\r\nTo: {REFEREE}\r\nSubject: {subject}\r\n"
                f"Message-ID: <door{self.n}@players.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                + body.replace("\n", "\r\n")).encode()

    def drop(self, *raws: bytes) -> None:
        box = mailbox.Maildir(str(self.folder / "mail" / "in"), create=False)
        for raw in raws:
            box.add(raw)

    def poll(self, *raws: bytes) -> list[EmailMessage]:
        """Drop ``raws`` into the incoming Maildir, run ``referee poll``; the mails it sent."""
        self.drop(*raws)
        assert main(["poll"]) == 0
        return self.new_mail()

    def new_mail(self) -> list[EmailMessage]:
        box = mailbox.Maildir(str(self.folder / "mail" / "out"), create=False)
        fresh = [k for k in in_order(box) if k not in self.seen]
        self.seen |= set(fresh)
        return [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in fresh]

    def verdict(self, raw: bytes) -> dict | None:
        ref = open_referee(load(self.folder / "referee.yaml"))
        try:
            parsed = parse_inbound(raw)
            return SenderRecords(ref.store).verdict(parsed.message_id, parsed.content_hash)
        finally:
            ref.store.close()


def to(mails: list[EmailMessage], local: str) -> list[EmailMessage]:
    return [m for m in mails if str(m["To"]).split("@")[0] == local]
