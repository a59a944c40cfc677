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

AUTO_VALUES = ("auto-replied", "auto-generated")


def new_message_id(domain: str) -> str:
    return f"<{uuid.uuid4().hex}@{domain}>"


def _as_list(value: str | Sequence[str]) -> list[str]:
    return [value] if isinstance(value, str) else [v for v in value]


def compose(from_addr: str, to: str | Sequence[str], subject: str, text: str,
            html: str | None = None, *, in_reply_to: str | None = None,
            references: Iterable[str] = (),
            auto: Literal["auto-replied", "auto-generated"] = "auto-replied",
            domain: str, message_id: str | None = None, cc: str | Sequence[str] = (),
            date: datetime | None = None, picture: bytes | None = None, picture_cid: str | None = None,
            calendar: str | None = None) -> EmailMessage:
    """One message, ready for ``MailSink.send``.

    ``auto`` is "auto-replied" for answers to a player's mail and
    "auto-generated" for reports and reminders (RFC 3834).  Bodies are
    quoted-printable so long report lines survive any relay; the message
    uses ``policy.SMTP`` and serialises with CRLF line ends.
    """
    if auto not in AUTO_VALUES:
        raise ValueError(f"auto must be one of {AUTO_VALUES}, not {auto!r}")
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = from_addr
    msg["To"] = ", ".join(_as_list(to))
    cc_list = _as_list(cc)
    if cc_list:
        msg["Cc"] = ", ".join(cc_list)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date or datetime.now(UTC))
    msg["Message-ID"] = message_id or new_message_id(domain)
    refs = [r for r in references if r]
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        if in_reply_to not in refs:
            refs.append(in_reply_to)
    if refs:
        # Keep order, drop repeats; very long chains keep the first and the latest ids.
        seen: list[str] = []
        for ref in refs:
            if ref not in seen:
                seen.append(ref)
        if len(seen) > 20:
            seen = seen[:1] + seen[-19:]
        msg["References"] = " ".join(seen)
    msg["Auto-Submitted"] = auto
    # Asks Exchange-style servers not to send out-of-office replies to us.
    msg["X-Auto-Response-Suppress"] = "All"
    msg.set_content(text, charset="utf-8", cte="quoted-printable")
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    if picture is not None:
        _add_picture(msg, picture, picture_cid or new_message_id(domain), html is not None)
    if calendar is not None:
        method = "CANCEL" if "\nMETHOD:CANCEL" in calendar else "PUBLISH"
        msg.add_attachment(calendar.encode("utf-8"), maintype="text", subtype="calendar", filename="deadline.ics",
                           params={"method": method, "charset": "utf-8"})
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
    html_part.add_related(png, maintype="image", subtype="png", cid=cid, filename="board.png",
                          disposition="inline")
