"""Build the referee's outgoing mail: UTF-8, threaded, marked as automatic."""
from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Literal

from .headerlines import Written, address_line, ids_line, plain_line, text_line

AUTO_VALUES = ("auto-replied", "auto-generated")


def new_message_id(domain: str) -> str:
    return f"<{uuid.uuid4().hex}@{domain}>"


def _as_list(value: str | Sequence[str]) -> list[str]:
    return [value] if isinstance(value, str) else [v for v in value]


def heading(from_addr: str, to: str | Sequence[str], subject: str, *, in_reply_to: str | None,
            references: Iterable[str], auto: str, domain: str, message_id: str | None,
            cc: str | Sequence[str], date: datetime | None) -> list[tuple[str, str, str]]:
    """(name, value, folded line) of every top-level header of a message, in order."""
    if auto not in AUTO_VALUES:
        raise ValueError(f"auto must be one of {AUTO_VALUES}, not {auto!r}")
    out = [("From", from_addr, address_line), ("To", ", ".join(_as_list(to)), address_line)]
    cc_list = _as_list(cc)
    if cc_list:
        out.append(("Cc", ", ".join(cc_list), address_line))
    out += [("Subject", subject, text_line), ("Date", format_datetime(date or datetime.now(UTC)), plain_line),
            ("Message-ID", message_id or new_message_id(domain), ids_line)]
    refs = [r for r in references if r]
    if in_reply_to:
        out.append(("In-Reply-To", in_reply_to, ids_line))
        if in_reply_to not in refs:
            refs.append(in_reply_to)
    if refs:
        # Keep order, drop repeats; very long chains keep the first and the latest ids.
        seen = list(dict.fromkeys(refs))
        if len(seen) > 20:
            seen = seen[:1] + seen[-19:]
        out.append(("References", " ".join(seen), ids_line))
    out += [("Auto-Submitted", auto, plain_line),
            # Asks Exchange-style servers not to send out-of-office replies to us.
            ("X-Auto-Response-Suppress", "All", plain_line)]
    return [(name, value, write(name, value)) for name, value, write in out]


def compose(from_addr: str, to: str | Sequence[str], subject: str, text: str,
            html: str | None = None, *, in_reply_to: str | None = None,
            references: Iterable[str] = (),
            auto: Literal["auto-replied", "auto-generated"] = "auto-replied",
            domain: str, message_id: str | None = None, cc: str | Sequence[str] = (),
            date: datetime | None = None, picture: bytes | None = None, picture_cid: str | None = None,
            calendar: str | None = None, page: tuple[str, str] | None = None) -> EmailMessage:
    """One message, ready for ``MailSink.send``.

    ``auto`` is "auto-replied" for answers to a player's mail and
    "auto-generated" for reports and reminders (RFC 3834).  Bodies are
    quoted-printable so long report lines survive any relay; the message
    uses ``policy.SMTP`` and serialises with CRLF line ends.  Its top-level
    headers are written by ``headerlines`` (a value that cannot be one raises
    ``HeaderFault``), never parsed by the library.  ``page``: (file name, HTML) of
    the order page (issue 36), attached last, quoted-printable as the bodies.
    """
    msg = EmailMessage(policy=policy.SMTP)
    for name, value, line in heading(from_addr, to, subject, in_reply_to=in_reply_to, references=references,
                                     auto=auto, domain=domain, message_id=message_id, cc=cc, date=date):
        msg[name] = Written(name, value, line)   # written here: the library never parses it
    msg.set_content(text, charset="utf-8", cte="quoted-printable")
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    if picture is not None:
        _add_picture(msg, picture, picture_cid or new_message_id(domain), html is not None)
    if calendar is not None:
        method = "CANCEL" if "\nMETHOD:CANCEL" in calendar else "PUBLISH"
        msg.add_attachment(calendar.encode("utf-8"), maintype="text", subtype="calendar", filename="deadline.ics",
                           params={"method": method, "charset": "utf-8"})
    if page is not None:
        msg.add_attachment(page[1], subtype="html", charset="utf-8", cte="quoted-printable", filename=page[0])
    _fixed_boundaries(msg)
    return msg


def boundary(seed: str, i: int) -> str:
    """The i-th multipart boundary of a message whose Message-ID reads back as ``seed``
    (both send paths, ``_fixed_boundaries`` and ``frame.boundaries``, take it from here)."""
    return "==" + hashlib.sha256(f"{seed}:{i}".encode()).hexdigest()[:32] + "=="


def _fixed_boundaries(msg: EmailMessage) -> None:
    """MIME boundaries derived from the Message-ID instead of chance: the same
    queued message builds to the same bytes every time (and on either send path).
    '==' never occurs in quoted-printable or base64 bodies, so no part contains one."""
    seed = str(msg["Message-ID"])
    for i, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(boundary(seed, i))


def _add_picture(msg: EmailMessage, png: bytes, cid: str, has_html: bool) -> None:
    if not has_html:
        msg.add_attachment(png, maintype="image", subtype="png", filename="board.png")
        return
    html_part = msg.get_body(("html",))
    html_part.add_related(png, maintype="image", subtype="png", cid=Written("Content-ID", cid, ids_line("Content-ID", cid)),
                          filename="board.png",
                          disposition="inline")
