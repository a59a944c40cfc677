"""The body of a message ``compose`` builds, learned once per shape and then
filled in without the ``email`` library.

A report mail has the same MIME frame every time: the same parts in the same
order, the same part headers (with the library's quirks: a ``MIME-Version``
line in the parts ``add_related`` and ``add_attachment`` made, parameters
folded at fixed places).  Only the boundaries, the Content-ID and the
payloads differ.  So ``compose`` itself writes the frame once for each shape
(which parts are there, the calendar's method), with sentinel values; the
sentinels are cut out as slots, and a message is its frame with the slots
filled: boundaries as ``compose._fixed_boundaries`` derives them, bodies in
the very encodings the library uses (``qp.body``, base64 in 57-byte lines).
Everything a value could change the shape of (a Content-ID too long for one
line, an empty part) is written by the library or sends the message to it.
"""
from __future__ import annotations

import base64
import functools
import re
from datetime import UTC, datetime
from email import policy

from . import qp
from .compose import boundary, compose

_P = policy.SMTP
_B64_CHARS = _P.max_line_length // 4 * 4  # a base64 line: 57 bytes (contentmanager's cut), 76 characters
_TOKEN = "frame0f3c9a"                    # no encoding changes it; no other frame text holds it
_DOMAIN = f"{_TOKEN}.invalid"
_MID = f"<mid{_TOKEN}@{_DOMAIN}>"
_CID = f"<cid{_TOKEN}@{_DOMAIN}>"
_TEXT, _HTML = f"text{_TOKEN}", f"html{_TOKEN}"
_PNG, _CAL, _PAGE = f"png{_TOKEN}".encode(), f"cal{_TOKEN}", f"page{_TOKEN}"
_SLOT = re.compile("\0([a-z0-9]+)\0")
_END_OF_TOP = "X-Auto-Response-Suppress: All\r\n"   # compose's last top-level header before the MIME ones


@functools.lru_cache(maxsize=32)
def base64_body(data: bytes) -> str:
    """``data`` as contentmanager's base64 payload (57 bytes, so 76 characters, a line),
    CRLF line ends.  Kept: every reader of a turn gets the same picture."""
    text = base64.b64encode(data).decode("ascii")
    return "".join(text[i:i + _B64_CHARS] + "\r\n" for i in range(0, len(text), _B64_CHARS))


def page_sentinel(length: int) -> str:
    """A stand-in for an order page's file name of ``length`` characters (at least 16, as
    ``render.order_page.page_name`` makes them): the library folds the name by its length alone."""
    return (f"pn{_TOKEN}" + "z" * length)[:length]


@functools.lru_cache(maxsize=32)
def frame(html: bool, picture: bool, calendar: str | None, page: int | None = None) -> tuple[str, ...]:
    """The MIME headers and body of a message of this shape, from the library:
    literal text at even places, slot names at odd places (``fill``).
    ``calendar``: None, or the method ("PUBLISH"/"CANCEL") compose will name;
    ``page``: None, or the length of the order page's file name."""
    cal = None
    if calendar is not None:
        cal = _CAL + ("\nMETHOD:CANCEL" if calendar == "CANCEL" else "")
    msg = compose("f@" + _DOMAIN, "t@" + _DOMAIN, "s", _TEXT, _HTML if html else None, auto="auto-generated",
                  domain=_DOMAIN, message_id=_MID, date=datetime(2026, 1, 1, tzinfo=UTC),
                  picture=_PNG if picture else None, picture_cid=_CID, calendar=cal,
                  page=None if page is None else (page_sentinel(page), _PAGE))
    raw = msg.as_bytes(policy=_P).decode("ascii")
    cut = raw.index(_END_OF_TOP) + len(_END_OF_TOP)
    assert raw.count(_END_OF_TOP) == 1
    body = raw[cut:]
    slots = {qp.body(_TEXT): "text"}
    if html:
        slots[qp.body(_HTML)] = "html"
    if picture:
        slots[base64_body(_PNG)] = "png"
        if html:   # a picture beside HTML is named by its Content-ID; alone it is an attachment
            slots[f"Content-ID: {_CID}\r\n"] = "cid"
    if cal is not None:
        slots[base64_body(cal.encode())] = "cal"
    if page is not None:
        slots[qp.body(_PAGE)] = "page"
        slots[f'filename="{page_sentinel(page)}"'] = "pname"
    for sentinel, name in slots.items():
        if body.count(sentinel) != 1:
            raise RuntimeError(f"the {name} slot is not where the frame expects it")
        body = body.replace(sentinel, f"\0{name}\0")
    for i, mark in enumerate(p.get_boundary() for p in msg.walk() if p.is_multipart()):
        body = body.replace(mark, f"\0b{i}\0")
    if _TOKEN in body:
        raise RuntimeError("the frame holds a sentinel no slot took")
    return tuple(_SLOT.split(body))


def boundaries(message_id: str, count: int) -> list[str]:
    """The multipart boundaries ``compose`` gives a message with this Message-ID (its
    header value as the library reads it back)."""
    return [boundary(message_id, i) for i in range(count)]


def fill(pieces: tuple[str, ...], values: dict[str, str]) -> str:
    out = list(pieces)
    out[1::2] = [values[name] for name in pieces[1::2]]
    return "".join(out)
