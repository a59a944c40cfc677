"""The referee's outgoing mail straight to wire bytes, without EmailMessage.

``compose(...).as_bytes(policy=SMTP)`` spends about a millisecond per message
in the ``email`` header machinery, most of it on headers that need no work at
all (a plain address, a Message-ID, a short ASCII line), and a report with
HTML, a picture and a calendar part 10-30 ms more building and flattening
its parts.  ``compose_bytes`` writes the simple headers directly and leaves
every other header to the library, one header at a time; the MIME parts are
the frame ``compose`` itself writes for that shape, filled in (``frame``),
with bodies encoded as the library encodes them (``qp``).  So the bytes are
exactly what ``compose`` would give: the tests compare both on many inputs.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from email import policy
from email.utils import format_datetime, getaddresses, parseaddr

from . import frame, qp
from .compose import AUTO_VALUES, compose, new_message_id

_P = policy.SMTP
_CRLF = "\r\n"
# Values the library would write back unchanged on one line (kept strict: anything
# else, e.g. display names, quotes, encoded words or 8-bit text, goes to the library).
_ADDR = re.compile(r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
_MSGID = re.compile(r"<[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>")
_WORDS = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*")
_SHORT = 76  # a header line this long or shorter is never folded (SMTP policy: 78)


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
    if picture == b"" or calendar == "":   # an empty part is framed differently: the library writes it
        return compose(from_addr, to, subject, text, html, in_reply_to=in_reply_to, references=references,
                       auto=auto, domain=domain, message_id=message_id, cc=cc, date=date,
                       picture=picture, picture_cid=picture_cid, calendar=calendar).as_bytes(policy=_P)
    if auto not in AUTO_VALUES:
        raise ValueError(f"auto must be one of {AUTO_VALUES}, not {auto!r}")
    message_id = message_id or new_message_id(domain)
    cc_list = [cc] if isinstance(cc, str) else list(cc)
    out = [_header("From", from_addr, _ADDR),
           _header("To", to if isinstance(to, str) else ", ".join(to), _ADDR)]
    if cc_list:
        out.append(_header("Cc", ", ".join(cc_list), _ADDR))
    out += [_header("Subject", subject, _WORDS),
            _date(date or datetime.now(UTC)),
            _header("Message-ID", message_id, _MSGID)]
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
    method = None if calendar is None else "CANCEL" if "\nMETHOD:CANCEL" in calendar else "PUBLISH"
    pieces = frame.frame(html is not None, picture is not None, method)
    values = {"text": qp.body(text)}
    if html is not None:
        values["html"] = qp.body(html)
    if picture is not None:
        values["png"] = frame.base64_body(picture)
        if html is not None:
            values["cid"] = _header("Content-ID", picture_cid or new_message_id(domain), _MSGID)
    if calendar is not None:
        values["cal"] = frame.base64_body(calendar.encode("utf-8"))
    values.update(zip((f"b{i}" for i in range(3)), frame.boundaries(_seed(message_id), 3)))
    out.append(frame.fill(pieces, values))
    return "".join(out).encode("ascii", "surrogateescape")  # as the generator writes 8-bit it was given


def _seed(message_id: str) -> str:
    """The Message-ID as ``compose._fixed_boundaries`` reads it back from the message."""
    if _MSGID.fullmatch(message_id):
        return message_id
    return str(_P.header_store_parse("Message-ID", message_id)[1])


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
