"""Turn raw received bytes into an ``InboundMail`` the intake can read.

Parsing uses ``policy.compat32`` plus the never-raising helpers in
``headers`` because received mail is untrusted: garbage must still become an
InboundMail (perhaps with an empty text) that is archived and answered, never
an exception that stalls the inbox.

Every step is linear in the mail and capped, whatever the mail holds: a mail
over ``max_bytes`` keeps only its header section (at most ``MAX_HEAD`` bytes),
which is also all that is archived of it; header values are cut as they are
parsed (``_Capped``), so the standard library's parameter and RFC 2047 parsers,
quadratic on some hostile values, only ever see short ones; a mail of more than
``MAX_PARTS`` MIME parts is not taken apart (the parser checks every line
against every open boundary) and counts as too large.
"""
from __future__ import annotations

import email
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser
from typing import Iterable

from referee import checks

from . import headers
from .flowed import unflow
from .htmltext import html_to_text
from .loops import automatic_reason

MAX_BYTES = 256_000       # a larger mail is too large: only its header section is read and kept
MAX_HEAD = 64_000         # bytes of header section read, of any mail
MAX_FIELD = 8_000         # characters of one header field kept by the parser
MAX_PARAMS = 64           # ';'-parameters of one Content-Type / Content-Disposition kept
MAX_PARTS = 100           # MIME parts of one mail that are taken apart
MAX_FIELDS = 500          # header fields kept per part (each lookup scans them all)
_PARAMETRISED = ("content-type", "content-disposition")
_PART_HEAD = re.compile(rb"^content-type[ \t]*:", re.I | re.M)

YAML_TYPES = {"application/x-yaml", "application/yaml", "text/yaml", "text/x-yaml"}
YAML_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class InboundMail:
    raw: bytes                 # exactly as received (a too-large mail: its header section only)
    message_id: str            # "<...>" (synthesised from the content hash if missing)
    content_hash: str          # sha256 hex of what the sender wrote (see content_digest)
    sender: str                # addr-spec of From, lower-cased ("" if none)
    sender_name: str
    return_path: str | None    # None if header absent; "" for "<>" (bounce)
    to: tuple[str, ...]
    subject: str
    date: datetime | None
    references: tuple[str, ...]   # Message-IDs to thread a reply on (References + Message-ID)
    text: str                  # text/plain body decoded to str; HTML-only mail: its text
    attachments: tuple[tuple[str, str], ...]   # (filename, decoded text) of YAML attachments
    automatic: str | None      # why no reply may be sent (RFC 3834), else None
    too_large: bool
    received: datetime | None = None   # when the mail server took the mail in (not the Date: header)
    size: int = 0                      # bytes as the server holds it (raw may be only its head)


class _Capped(policy.Compat32):
    """compat32 that cuts every header field as it is parsed, in every MIME part:
    the standard library re-slices a Content-Type once per ';' each time it reads
    a parameter (charset, filename, boundary), so those keep ``MAX_PARAMS``."""

    def header_source_parse(self, sourcelines):
        name, value = super().header_source_parse(sourcelines)
        value = value[:MAX_FIELD]
        if name.strip().lower() in _PARAMETRISED and value.count(";") > MAX_PARAMS:
            value = ";".join(value.split(";", MAX_PARAMS + 1)[:MAX_PARAMS + 1])
        return name, value


CAPPED = _Capped()


class _CappedMessage(Message):
    """A message (or part) that keeps its first ``MAX_FIELDS`` header fields."""

    def set_raw(self, name, value):
        if len(self) < MAX_FIELDS:
            super().set_raw(name, value)


def header_section(raw: bytes, limit: int = MAX_HEAD) -> tuple[bytes, int]:
    """(the header section of ``raw`` with the blank line that ends it, cut to at
    most ``limit`` bytes, even inside a line; where the body starts)."""
    ends = [i + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (i := raw.find(sep)) >= 0]
    body = min(ends) if ends else len(raw)
    head = raw[:min(body, limit)]
    if not head.endswith((b"\n\n", b"\r\n\r\n")):
        head = head.rstrip(b"\r\n") + b"\r\n\r\n"
    return head, body


def decode_payload(part: Message, default_charset: str = "utf-8") -> str:
    """A leaf part's content as text, honouring its charset; never raises."""
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if data is None:
        payload = part.get_payload()
        return payload if isinstance(payload, str) else ""
    charset = None
    try:
        charset = part.get_content_charset()
    except Exception:
        pass
    return decode_bytes(data, charset or default_charset)


def decode_bytes(data: bytes, charset: str) -> str:
    # A declared charset wins; undeclared or wrong ones fall back to UTF-8,
    # then Latin-1, which cannot fail (so umlauts survive either way).
    if charset.lower() in ("us-ascii", "ascii"):
        charset = "utf-8"
    for candidate in (charset, "utf-8", "latin-1"):
        try:
            text = data.decode(candidate)
        except (LookupError, UnicodeDecodeError):
            continue
        return text.lstrip("\ufeff")
    return data.decode("utf-8", "replace")


def _is_attachment(part: Message) -> bool:
    try:
        disposition = (part.get_content_disposition() or "").lower()
    except Exception:
        disposition = ""
    return disposition == "attachment" or _filename(part) is not None


def _filename(part: Message) -> str | None:
    try:
        name = part.get_filename()
    except Exception:
        return None
    if name is None:
        return None
    return headers._unescape_8bit(str(name)).strip() or None


def _is_yaml(part: Message) -> bool:
    name = (_filename(part) or "").lower()
    return name.endswith(YAML_SUFFIXES) or part.get_content_type() in YAML_TYPES


def _leaves(msg: Message) -> list[Message]:
    try:
        return [p for p in msg.walk() if not p.is_multipart()]
    except Exception:
        return [msg]


def _body_and_attachments(msg: Message, max_attachment_bytes: int
                          ) -> tuple[str, tuple[tuple[str, str], ...], bool]:
    plain = html = None
    attachments: list[tuple[str, str]] = []
    too_large = False
    for part in _leaves(msg):
        ctype = part.get_content_type()
        if _is_yaml(part):
            raw_len = len(part.get_payload(decode=True) or b"")
            if raw_len > max_attachment_bytes:
                too_large = True
                continue
            name = _filename(part) or "orders.yaml"
            attachments.append((name, decode_payload(part).replace("\r\n", "\n")))
        elif _is_attachment(part):
            continue
        elif ctype == "text/plain" and plain is None:
            plain = decode_payload(part)
            if (part.get_param("format") or "").lower() == "flowed":
                text = plain.replace("\r\n", "\n").replace("\r", "\n")
                plain = unflow(text, (part.get_param("delsp") or "").lower() == "yes")
        elif ctype == "text/html" and html is None:
            html = decode_payload(part)
    if plain is not None:
        text = plain
    elif html is not None:
        text = html_to_text(html)
    else:
        text = ""
    return text.replace("\r\n", "\n").replace("\r", "\n"), tuple(attachments), too_large


_AUTHORED = (b"from", b"to", b"cc", b"date", b"subject", b"message-id", b"in-reply-to", b"references")


def _field_name(parts: list[bytes]) -> bytes:
    first = parts[0]
    return (first if b":" in first else b" ".join(parts)).split(b":", 1)[0].strip().lower()


def content_digest(raw: bytes) -> str:
    """sha256 of what the sender wrote: the authored headers and the body.

    Each delivery adds its own transport headers (Received, Return-Path,
    Delivered-To) and IMAP turns LF into CRLF, so a hash of the raw bytes
    would tell two deliveries of one mail apart; this one does not.
    """
    data = raw.replace(b"\r\n", b"\n")
    head, _, body = data.partition(b"\n\n")
    fields: list[list[bytes]] = []
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line.strip())  # an unfolded continuation line
        else:
            fields.append([line])
    kept = sorted(b" ".join(parts) for parts in fields if _field_name(parts) in _AUTHORED)
    return hashlib.sha256(b"\n".join(kept) + b"\n\n" + body).hexdigest()


def _single_part(raw: bytes, body: int) -> Message | None:
    """A mail of one part, parsed as the parser would but without its line-by-line
    walk over the body (Python code per line: 250,000 short lines took 0.2 s):
    the header section alone, then the body as its payload.  None for anything
    else (multipart, message/*, a header section that does not end in a blank line)."""
    head = raw[:body]
    if not head.endswith((b"\n\n", b"\r\n\r\n")):
        return None
    msg = email.message_from_bytes(head, _CappedMessage, policy=CAPPED)
    if msg.get_content_maintype() in ("multipart", "message") or msg.get_payload() or msg.defects:
        return None
    msg.set_payload(raw[body:].decode("ascii", "surrogateescape"))
    return msg


def _parts_too_many(raw: bytes, body: int) -> bool:
    """More MIME part headers than ``MAX_PARTS``, or more delimiter-like lines
    ("--...") than a multipart mail of that many parts has (parts need no header)."""
    if len(_PART_HEAD.findall(raw)) > MAX_PARTS:
        return True
    return raw.count(b"\n--", body) > 2 * MAX_PARTS and b"multipart" in raw[:body].lower()


def parse_inbound(raw: bytes, *, own_addresses: Iterable[str] = (), max_bytes: int = MAX_BYTES,
                  max_attachment_bytes: int = 64_000, size: int | None = None,
                  received: datetime | None = None) -> InboundMail:
    """Read ``raw`` (bytes as received).  Never raises on malformed mail.

    A mail over ``max_bytes`` (``size``: its size on the server, when ``raw``
    is only its head) has only its header section read and kept in ``raw``
    (``too_large``, empty text); so has one of more than ``MAX_PARTS`` parts.
    A YAML attachment over ``max_attachment_bytes`` is left out and also sets
    ``too_large``.  ``received``: when the server took the mail in.
    """
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    raw = bytes(raw)
    size = max(size or 0, len(raw))
    head, body = header_section(raw)
    too_large = size > max_bytes or (body < len(raw) and _parts_too_many(raw, body))
    if too_large:
        raw = head
    elif body > len(head):   # a header section beyond the cap: its head, then the body
        raw, body = head + raw[body:], len(head)
    digest = content_digest(raw)
    try:
        if too_large:
            msg = BytesHeaderParser(_CappedMessage, policy=CAPPED).parsebytes(raw)
        else:
            msg = _single_part(raw, body) or email.message_from_bytes(raw, _CappedMessage, policy=CAPPED)
    except Exception:
        msg = Message()
    ids = headers.message_ids(headers.raw(msg, "Message-ID"))
    message_id = ids[0] if ids else f"<{digest[:40]}@content-hash.invalid>"
    sender_name, sender = headers.address(msg, "From")
    sender, sender_name = checks.mail_sender(sender), checks.echo(sender_name)  # "": no reply can be built
    rp = headers.raw(msg, "Return-Path")
    return_path = None if rp is None else headers.address(msg, "Return-Path")[1]
    keep = headers.MAX_REFERENCES - 1
    refs = headers.message_ids(headers.raw(msg, "References", MAX_HEAD), keep) or \
        headers.message_ids(headers.raw(msg, "In-Reply-To", MAX_HEAD), keep)
    references = tuple(r for r in refs if r != message_id) + (message_id,)
    text, attachments = "", ()
    if not too_large:
        try:
            text, attachments, big_part = _body_and_attachments(msg, max_attachment_bytes)
            too_large = too_large or big_part
        except Exception:
            text, attachments = "", ()
    own = frozenset(a.strip().lower() for a in own_addresses)
    return InboundMail(
        raw=raw,
        message_id=message_id,
        content_hash=digest,
        sender=sender,
        sender_name=sender_name,
        return_path=return_path,
        to=headers.addresses(msg, "To"),
        subject=headers.text(msg, "Subject") or "",
        date=headers.date(msg),
        references=references,
        text=text,
        attachments=attachments,
        automatic=automatic_reason(msg, sender, return_path, own),
        too_large=too_large,
        received=received,
        size=size,
    )
