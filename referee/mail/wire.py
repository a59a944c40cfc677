"""The referee's plain-text mail straight to wire bytes, without EmailMessage.

``compose(...).as_bytes(policy=SMTP)`` spends about a millisecond per message
in the ``email`` header machinery, most of it on headers that need no work at
all (a plain address, a Message-ID, a short ASCII line).  ``compose_bytes``
writes those directly and leaves every other header to the library, one
header at a time, so the bytes are exactly what ``compose`` would give (the
tests compare both on many inputs).  A message with HTML, Cc, a picture or a
calendar part is left to ``compose`` whole.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from email import policy, quoprimime
from email.utils import format_datetime, getaddresses, parseaddr

from .compose import AUTO_VALUES, compose, new_message_id

_P = policy.SMTP
_CRLF = "\r\n"
_LINES = re.compile(r"\r\n|\r|\n")
# Values the library would write back unchanged on one line (kept strict: anything
# else, e.g. display names, quotes, encoded words or 8-bit text, goes to the library).
_ADDR = re.compile(r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
_MSGID = re.compile(r"<[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>")
_WORDS = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*")
_SHORT = 76  # a header line this long or shorter is never folded (SMTP policy: 78)
_TEXT_TAIL = ("Content-Type: text/plain; charset=\"utf-8\"\r\n"
              "Content-Transfer-Encoding: quoted-printable\r\n"
              "MIME-Version: 1.0\r\n\r\n")


@functools.lru_cache(maxsize=1024)
def _library(name: str, value: str) -> str:
    """One header exactly as EmailMessage with the SMTP policy writes it (a pure
    function of its arguments, so kept: a burst's confirmations share subjects)."""
    return _P.fold_binary(*_P.header_store_parse(name, value)).decode("ascii", "surrogateescape")


def _header(name: str, value: str, simple: re.Pattern) -> str:
    line = f"{name}: {value}"
    if len(line) <= _SHORT and simple.fullmatch(value) and "=?" not in value:
        return line + _CRLF
    return _library(name, value)


def _date(t: datetime) -> str:
    value = format_datetime(t)
    if t.utcoffset() is not None and not t.utcoffset():  # UTC: the library reads it back unchanged
        return f"Date: {value}\r\n"
    return _library("Date", value)


def compose_bytes(from_addr: str, to: str | Sequence[str], subject: str, text: str,
                  html: str | None = None, *, in_reply_to: str | None = None,
                  references: Iterable[str] = (), auto: str = "auto-replied",
                  domain: str, message_id: str | None = None, cc: str | Sequence[str] = (),
                  date: datetime | None = None, picture: bytes | None = None, picture_cid: str | None = None,
                  calendar: str | None = None) -> bytes:
    """The bytes of ``compose(...)`` with the same arguments, as sent over SMTP."""
    if html is not None or cc or picture is not None or calendar is not None:
        return compose(from_addr, to, subject, text, html, in_reply_to=in_reply_to, references=references,
                       auto=auto, domain=domain, message_id=message_id, cc=cc, date=date,
                       picture=picture, picture_cid=picture_cid, calendar=calendar).as_bytes(policy=_P)
    if auto not in AUTO_VALUES:
        raise ValueError(f"auto must be one of {AUTO_VALUES}, not {auto!r}")
    out = [_header("From", from_addr, _ADDR),
           _header("To", to if isinstance(to, str) else ", ".join(to), _ADDR),
           _header("Subject", subject, _WORDS),
           _date(date or datetime.now(UTC)),
           _header("Message-ID", message_id or new_message_id(domain), _MSGID)]
    refs = [r for r in references if r]
    if in_reply_to:
        out.append(_header("In-Reply-To", in_reply_to, _WORDS))
        if in_reply_to not in refs:
            refs.append(in_reply_to)
    if refs:
        seen = list(dict.fromkeys(refs))  # order kept, repeats dropped, as compose does
        if len(seen) > 20:
            seen = seen[:1] + seen[-19:]
        out.append(_header("References", " ".join(seen), _WORDS))
    out.append(f"Auto-Submitted: {auto}\r\nX-Auto-Response-Suppress: All\r\n")
    out.append(_TEXT_TAIL)
    # The body as email.contentmanager encodes it (quoted-printable, 78 columns),
    # written with CRLF as the generator does.
    lines = text.encode("utf-8").splitlines()
    payload = quoprimime.body_encode((b"\n".join(lines) + b"\n").decode("latin-1"), _P.max_line_length)
    parts = _LINES.split(payload)
    body = _CRLF.join(parts[:-1]) + _CRLF if len(parts) > 1 else ""
    out.append(body + parts[-1])
    return "".join(out).encode("ascii", "surrogateescape")  # as the generator writes 8-bit it was given


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
