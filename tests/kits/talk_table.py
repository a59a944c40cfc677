"""A toy-game table for the table-talk and chronicle tests: three seats (ann and cat
write English, bob German), an observer, the GM; real SQLite, mail out to a Maildir."""
from __future__ import annotations

import email
import mailbox
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy

import toygame  # tests/ is on sys.path (tests/conftest.py)
import yaml
from refkit import in_order

from referee.app.referee import Referee
from referee.authority import keys
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.inbound import parse_inbound
from referee.mail.senderauth import Trust
from referee.mail.sink import MaildirSink
from referee.render.renderer import Renderer
from referee.store import open_store

REFEREE = "referee@example.org"
GM = "gm@example.org"
KEYS = {"ann": "7KQ2-MX4P-9WTR", "bob": "4HJD-8RVE-2NCZ", "cat": "9PLM-3XQA-6TVE"}
GM_KEY = "GMGM-2345-6789"


@dataclass
class Sent:
    to: str          # local part
    subject: str
    text: str
    msg: email.message.EmailMessage


class TalkTable:
    def __init__(self, tmp_path, press="private", **spec) -> None:
        registry.register(toygame.RULES)
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
        # strangers answered (within the budget) so tests read that the answer tells nothing;
        # the default policy (only a proven From is answered) is tests/authority/test_backscatter_policy.py's
        self.ref = Referee(open_store(tmp_path / "referee.sqlite"), tmp_path / "turns",
                           Renderer(extra_dirs=[toygame.TEMPLATES]), lambda: self.now,
                           Settings(address=REFEREE, trust=Trust(strangers="all")))
        self.turns = tmp_path / "turns"
        self.ref.create_match({
            "id": "talk1", "game": "toybid", "title": "Talk One", "gm": GM, "language": "en",
            "timezone": "Europe/Berlin", "options": {"rounds": 3}, "schedule": {"period": "48h"},
            "press": press, "observers": ["obs@example.org"],
            "players": [{"id": "ann", "name": "Ann", "email": "ann@example.org"},
                        {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"},
                        {"id": "cat", "name": "Cat", "email": "cat@example.org"}], **spec},
            seed="talk", gm_key=GM_KEY)
        with self.ref.store.transaction():
            for pid, key in KEYS.items():
                self.ref.store.replace_player("talk1", pid, f"{pid}@example.org", keys.hash_key(key), None, self.now)
        self.sink, self.box, self.seen, self.n = MaildirSink(tmp_path / "out"), tmp_path / "out", set(), 0
        self.mails()

    def close(self) -> None:
        self.ref.store.close()
        registry.unregister(toygame.RULES.name)

    def mails(self) -> list[Sent]:
        """Mails sent since the last call."""
        self.ref.send_pending(self.sink)
        box = mailbox.Maildir(str(self.box), create=False)
        new = [k for k in in_order(box) if k not in self.seen]
        self.seen |= set(new)
        out = []
        for k in new:
            m = email.message_from_bytes(box.get_bytes(k), policy=policy.default)
            out.append(Sent(m["To"].split("@")[0], m["Subject"], m.get_body(("plain",)).get_content(), m))
        return out

    def raw(self, sender: str, body: str, subject: str = "talk", headers: str = "") -> bytes:
        self.n += 1
        return (f"From: {sender}\r\nTo: {REFEREE}\r\nSubject: {subject}\r\nMessage-ID: <t{self.n}@example.org>\r\n"
                f"{headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()

    def doc(self, player: str, **fields) -> str:
        key = GM_KEY if player == "gm" else KEYS[player]
        return yaml.safe_dump({"match": "talk1", "player": player, "key": key, **fields}, allow_unicode=True,
                              sort_keys=False)

    def send(self, player: str, sender: str | None = None, **fields):
        """A document from ``player`` (from their address unless ``sender``); what the referee did."""
        address = sender or (GM if player == "gm" else f"{player}@example.org")
        return self.ref.handle(parse_inbound(self.raw(address, self.doc(player, **fields))))

    def answer(self, sender: str, to: Sent, text: str, *, keep_refs: bool = True, subject: str | None = None):
        """``sender`` replies to the mail ``to`` as a mail client would."""
        mid = to.msg["Message-ID"]
        quoted = "\r\n".join("> " + line for line in to.text.splitlines())
        headers = f"In-Reply-To: {mid}\r\nReferences: {mid}\r\n" if keep_refs else ""
        body = f"{text}\r\n\r\nOn Mon, 2 Mar 2026, Referee wrote:\r\n{quoted}\r\n"
        return self.ref.handle(parse_inbound(self.raw(sender, body, subject or "Re: " + to.subject, headers)))

    def to(self, mails: list[Sent], who: str) -> list[Sent]:
        return [m for m in mails if m.to == who]
