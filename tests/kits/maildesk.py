"""A referee folder driven through its command line, as an operator runs it on the
embedded default: ``referee init``, ``new``, raw mails dropped into mail/in,
``poll --once``, and the files mail/out received, read back as bytes (the tests
of issue 32 items 1 and 14-16 read what a mail server would get)."""
from __future__ import annotations

import mailbox
import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from refkit import in_order

from referee.app.cli import main

KEY = re.compile(r"(?:Your key|Dein Schlüssel): (\S+)")


def read(raw: bytes) -> EmailMessage:
    return message_from_bytes(raw, policy=policy.default)


def text_of(raw: bytes) -> str:
    return read(raw).get_body(("plain",)).get_content()


class Desk:
    def __init__(self, root: Path, match_file: str, config: str = "") -> None:
        """In ``root`` (the current folder): ``referee init`` (``config`` appended to
        referee.yaml), then ``referee new`` with ``match_file``."""
        self.root, self.seen, self.n = root, set(), 0
        assert main(["init"]) == 0
        with open(root / "referee.yaml", "a") as f:
            f.write(config)
        (root / "match.yaml").write_text(match_file)
        assert main(["new", "match.yaml"]) == 0

    def drop(self, raw: bytes) -> None:
        """``raw`` into mail/in, then one poll."""
        mailbox.Maildir(str(self.root / "mail" / "in"), factory=None, create=False).add(raw)
        assert main(["poll", "--once"]) == 0

    def mail(self, sender: str, body: str, extra: str = "") -> str:
        """A plain text mail from ``sender`` (its Message-ID returned), dropped and polled."""
        self.n += 1
        mid = f"<m{self.n}@players.test>"
        self.drop((f"From: {sender}\r\nTo: referee@localhost\r\nSubject: mail {self.n}\r\nMessage-ID: {mid}\r\n"
                   f"{extra}Content-Type: text/plain; charset=utf-8\r\n\r\n"
                   + body.replace("\n", "\r\n")).encode("utf-8"))
        return mid

    def sent(self) -> list[bytes]:
        """The raw files mail/out received since the last call."""
        box = mailbox.Maildir(str(self.root / "mail" / "out"), factory=None, create=False)
        new = [k for k in in_order(box) if k not in self.seen]
        self.seen |= set(new)
        return [box.get_bytes(k) for k in new]

    def key(self, mails: list[bytes], address: str) -> str:
        """The key of ``address``'s welcome mail (the one played with)."""
        for raw in mails:
            msg = read(raw)
            hit = KEY.search(text_of(raw))
            if msg["To"] == address and "Welcome" in msg["Subject"] and hit:
                return hit.group(1)
        raise AssertionError(f"no key for {address}")
