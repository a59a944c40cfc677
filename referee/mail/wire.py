"""The referee's outgoing mail straight to wire bytes, without EmailMessage.

``compose(...).as_bytes(policy=SMTP)`` spends about a millisecond per message
in the ``email`` header machinery, most of it on headers that need no work at
all (a plain address, a Message-ID, a short ASCII line), and a report with
HTML, a picture and a calendar part 10-30 ms more building and flattening
its parts.  ``compose_bytes`` takes the top-level header lines ``compose``
takes (``compose.heading``: written by the referee, never by the library); the
MIME parts are the frame ``compose`` itself writes for that shape, filled in
(``frame``), with bodies encoded as the library encodes them (``qp``).  So the
bytes are exactly what ``compose`` would give: the tests compare both on many
inputs.  The finished header section is checked line by line (``check_head``).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from email import policy
from email.utils import getaddresses, parseaddr

from . import frame, qp
from .compose import compose, heading, new_message_id
from .headerlines import check_head, ids_line

_P = policy.SMTP
# a plain address, read without the library's address parser
_PAGE_NAME = re.compile(r"[A-Za-z0-9_-]{11,55}\.html")   # an order page name the frame writes (longer ones the library folds otherwise)
_ADDR = re.compile(r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")


def compose_bytes(from_addr: str, to: str | Sequence[str], subject: str, text: str,
                  html: str | None = None, *, in_reply_to: str | None = None,
                  references: Iterable[str] = (), auto: str = "auto-replied",
                  domain: str, message_id: str | None = None, cc: str | Sequence[str] = (),
                  date: datetime | None = None, picture: bytes | None = None, picture_cid: str | None = None,
                  calendar: str | None = None, page: tuple[str, str] | None = None) -> bytes:
    """The bytes of ``compose(...)`` with the same arguments, as sent over SMTP."""
    message_id = message_id or new_message_id(domain)
    date = date or datetime.now(UTC)
    top = heading(from_addr, to, subject, in_reply_to=in_reply_to, references=references, auto=auto,
                  domain=domain, message_id=message_id, cc=cc, date=date)
    names = [name for name, _, _ in top]
    odd_page = page is not None and (not page[1] or not _PAGE_NAME.fullmatch(page[0]))
    if picture == b"" or calendar == "" or odd_page:   # an empty part is framed differently: the library writes it
        msg = compose(from_addr, to, subject, text, html, in_reply_to=in_reply_to, references=references,
                      auto=auto, domain=domain, message_id=message_id, cc=cc, date=date,
                      picture=picture, picture_cid=picture_cid, calendar=calendar, page=page)
        return check_head(msg.as_bytes(policy=_P), names)
    out = [line for _, _, line in top]
    method = None if calendar is None else "CANCEL" if "\nMETHOD:CANCEL" in calendar else "PUBLISH"
    pieces = frame.frame(html is not None, picture is not None, method, None if page is None else len(page[0]))
    values = {"text": qp.body(text)}
    if html is not None:
        values["html"] = qp.body(html)
    if picture is not None:
        values["png"] = frame.base64_body(picture)
        if html is not None:
            values["cid"] = ids_line("Content-ID", picture_cid or new_message_id(domain))
    if calendar is not None:
        values["cal"] = frame.base64_body(calendar.encode("utf-8"))
    if page is not None:
        values["page"], values["pname"] = qp.body(page[1]), f'filename="{page[0]}"'
    values.update(zip((f"b{i}" for i in range(3)), frame.boundaries(message_id, 3)))
    out.append(frame.fill(pieces, values))
    raw = "".join(out).encode("ascii", "surrogateescape")  # as the generator writes 8-bit it was given
    return check_head(raw, names)


def envelope_of(from_value: str, to_values: Sequence[str]) -> tuple[str, list[str]]:
    """(MAIL FROM, RCPT TO list) from From and To values, as ``sink.envelope`` reads a message."""
    sender = from_value if _ADDR.fullmatch(from_value) else parseaddr(from_value)[1]
    rcpts: list[str] = []
    for value in to_values:
        found = [value] if _ADDR.fullmatch(value) else [a for _, a in getaddresses([value])]
        for addr in found:
            if addr and addr not in rcpts:
                rcpts.append(addr)
    return sender, rcpts
