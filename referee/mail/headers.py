"""Header decoding that never raises, for mail parsed with ``policy.compat32``.

compat32 keeps header values as the raw text; these helpers decode RFC 2047
encoded words and stray 8-bit bytes (UTF-8 first, then Latin-1) themselves,
so a malformed header yields its best-effort text instead of an exception.

Every value is cut to ``MAX_VALUE`` characters before it is decoded: the
standard library's RFC 2047 and address parsers take time quadratic in the
length of some hostile values (unclosed encoded words, thousands of encoded
words, ``(`` and ``"`` runs), and no header the referee reads needs more.
"""
from __future__ import annotations

from datetime import UTC, datetime
from email.header import Header, decode_header, make_header
from email.message import Message
from email.utils import getaddresses, parseaddr, parsedate_to_datetime

MAX_VALUE = 4_000        # characters of one header value that are read
MAX_FIELDS = 8           # headers of one name read by ``addresses``
MAX_ID = 250             # a longer "<...>" is not taken for a Message-ID
MAX_REFERENCES = 20      # ids kept to thread on: the first (the thread's root) and the last ones


def _unescape_8bit(value: str) -> str:
    # The bytes parser keeps non-ASCII header bytes as surrogate escapes.
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        data = value.encode("utf-8", "surrogateescape")
    for charset in ("utf-8", "latin-1"):
        try:
            return data.decode(charset)
        except UnicodeDecodeError:
            continue
    return data.decode("utf-8", "replace")


def _raw(msg: Message, name: str, limit: int = MAX_VALUE) -> str | None:
    try:
        value = msg.get(name)
    except Exception:
        return None
    if value is None:
        return None
    return _value(value, limit)


def _value(value, limit: int = MAX_VALUE) -> str:
    if isinstance(value, Header):  # compat32 wraps raw 8-bit header bytes in a Header
        try:
            value = "".join(_chunk(data, charset) for data, charset in decode_header(value))
        except Exception:
            value = str(value)
    return _unescape_8bit(str(value)[:limit])


def _chunk(data: bytes | str, charset: str | None) -> str:
    if isinstance(data, str):
        return data
    if charset and charset != "unknown-8bit":
        try:
            return data.decode(charset)
        except (LookupError, UnicodeDecodeError):
            pass
    for candidate in ("utf-8", "latin-1"):
        try:
            return data.decode(candidate)
        except UnicodeDecodeError:
            continue
    return data.decode("utf-8", "replace")


def text(msg: Message, name: str) -> str | None:
    """The decoded value of header ``name`` (None if absent)."""
    value = _raw(msg, name)
    if value is None:
        return None
    try:
        decoded = str(make_header(decode_header(value)))
    except Exception:
        decoded = value
    return " ".join(decoded.split())


def raw(msg: Message, name: str, limit: int = MAX_VALUE) -> str | None:
    """The undecoded value of header ``name`` (its first ``limit`` characters), whitespace unfolded."""
    value = _raw(msg, name, limit)
    return None if value is None else " ".join(value.split())


def address(msg: Message, name: str) -> tuple[str, str]:
    """(display name, lower-cased addr-spec) of the first address in ``name``."""
    value = _raw(msg, name)
    if not value:
        return "", ""
    try:
        display, addr = parseaddr(value)
    except Exception:
        return "", ""
    try:
        display = str(make_header(decode_header(display))) if display else ""
    except Exception:
        pass
    return " ".join(display.split()), addr.strip().lower()


def addresses(msg: Message, name: str) -> tuple[str, ...]:
    """Every lower-cased addr-spec in all ``name`` headers."""
    try:
        values = [_value(v) for v in (msg.get_all(name) or [])[:MAX_FIELDS]]
        return tuple(a.strip().lower() for _, a in getaddresses(values) if a.strip())
    except Exception:
        return ()


def date(msg: Message) -> datetime | None:
    value = _raw(msg, "Date")
    if not value:
        return None
    try:
        when = parsedate_to_datetime(value)
    except Exception:
        return None
    if when is None:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def message_ids(value: str | None, keep: int = MAX_REFERENCES) -> tuple[str, ...]:
    """The distinct ``<...>`` ids in a Message-ID / References / In-Reply-To value:
    the first and the last ``keep - 1`` of them (one pass, however many there are)."""
    if not value:
        return ()
    ids: dict[str, None] = {}
    for part in value.replace(">", "> ").split():
        part = part.strip(",")
        if part.startswith("<") and part.endswith(">") and 2 < len(part) <= MAX_ID and "@" in part:
            ids[part] = None
    found = list(ids)
    return tuple(found if len(found) <= keep else found[:1] + found[len(found) - keep + 1:])
