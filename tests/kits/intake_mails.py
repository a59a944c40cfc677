"""Realistic player mails as raw bytes, read by the real mail layer."""
from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

from referee.mail.inbound import InboundMail, parse_inbound

ORDERS = """match: ff-winter
player: madison
key: 4F7Q-K2XD-9MRA     # my secret
turn: 12
orders:
  action: declare_vote
  state: PA
  side: yea
  delegates: [ingersoll, mifflin]
"""


def mail(text: str | None = None, *, html: str | None = None, charset: str = "utf-8",
         attachments: tuple[tuple[str, str], ...] = (), sender: str = "madison@example.org") -> InboundMail:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = f"James Madison <{sender}>"
    msg["To"] = "referee@example.net"
    msg["Subject"] = "Re: ff-winter turn 12"
    msg["Message-ID"] = "<abc@example.org>"
    if text is not None:
        msg.set_content(text, charset=charset)
    if html is not None:
        if text is None:
            msg.set_content(html, subtype="html", charset=charset)
        else:
            msg.add_alternative(html, subtype="html")
    for name, body in attachments:
        msg.add_attachment(body.encode("utf-8"), maintype="application", subtype="x-yaml", filename=name)
    return parse_inbound(msg.as_bytes())


def raw_mail(raw: bytes) -> InboundMail:
    return parse_inbound(raw)
