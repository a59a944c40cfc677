"""Turn raw received bytes into an ``InboundMail`` the intake can read.

Parsing uses ``policy.compat32`` plus the never-raising helpers in
``headers`` because received mail is untrusted: garbage must still become an
InboundMail (perhaps with an empty text) that is archived and answered, never
an exception that stalls the inbox.

Every step is linear in the mail and capped, whatever the mail holds: a mail
over ``max_bytes`` keeps only its header section (at most ``MAX_HEAD`` bytes),
which is also all that is archived of it; header values are cut as they are
parsed (``_CappedMessage``), so the standard library's parameter and RFC 2047
parsers, quadratic on some hostile values, only ever see short ones; a mail of
more than ``MAX_PARTS`` MIME parts is not taken apart and counts as too large.
A mail whose MIME headers would be cut (a header section over ``MAX_HEAD``, a
part's over ``mime.MAX_PART_HEAD``, a Content-* field cut or left out) counts
as too large too: read without them, it would be read as its sender never
meant.  Only the header section goes through the standard library's parser;
the body is taken apart by ``referee.mail.mime`` as offsets into ``raw`` (no
copies of photos), so reading a mail holds at most 4x its size plus a constant.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import Message

from referee.intake import checks

from . import headers, mime
from .flowed import unflow
from .htmltext import html_readings
from .loops import automatic_reason

MAX_BYTES = 4_000_000     # the raw-size cap (a phone photo fits): a larger mail is too large, only its header section is read and kept
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
    limit: int = 0                     # too_large: the limit in bytes that was broken ...
    over: str = ""                     # ... by "mail" (all of it), "text" (a text part), "yaml" (an attachment)
                                       # or "head" (header fields the parser would cut: what says how to read it)
    set_aside: tuple[tuple[str, int], ...] = ()   # (name, bytes) of large attachments not read
    auth: object = None                # the verdict on the sender (referee.mail.senderauth.Verdict), set by the intake
    literal: str = ""                  # text read with an HTML part's own blanks, where that differs from text


class _CappedMessage(Message):
    """A message (or part) that keeps its first ``MAX_FIELDS`` header fields, each
    cut to ``MAX_FIELD`` characters: the standard library re-slices a Content-Type
    once per ';' each time it reads a parameter (charset, filename, boundary), so
    those keep ``MAX_PARAMS``.  ``cut``: a MIME field (Content-*) was cut or left
    out, so the part cannot be read as its sender meant (``parse_inbound`` refuses it)."""
    cut = False

    def set_raw(self, name, value):
        mime_field = name.strip().lower().startswith("content-")
        if len(self) >= MAX_FIELDS:
            self.cut = self.cut or mime_field
            return
        if mime_field:   # raw UTF-8 (a file name without RFC 2231): text now, or the library shows U+FFFD
            value = headers._unescape_8bit(value)
        kept = value[:MAX_FIELD]
        if name.strip().lower() in _PARAMETRISED and kept.count(";") > MAX_PARAMS:
            kept = ";".join(kept.split(";", MAX_PARAMS + 1)[:MAX_PARAMS + 1])
        self.cut = self.cut or (mime_field and len(kept) < len(value))
        super().set_raw(name, kept)


CAPPED = policy.compat32


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


def _read_body(raw: bytes, msg: Message, body: int, max_attachment_bytes: int) -> mime.Body:
    """What a mail client shows of the body (see ``referee.mail.mime``), from offsets into ``raw``."""
    reader = mime.Reader(raw, mime.header_parser(_CappedMessage, CAPPED), decode_payload, html_readings, unflow,
                         max_attachment_bytes, _is_yaml, _filename)
    texts = reader.part(msg, body, len(raw), 0)
    reader.body.texts = [t for _, t, _ in texts]
    reader.body.literal = [t for _, _, t in texts]
    return reader.body


def _joined(texts: list[str]) -> str:
    """Text parts as one text, each on lines of its own (a form split by a photo stays whole)."""
    text = "".join(t if t.endswith("\n") or i == len(texts) - 1 else t + "\n" for i, t in enumerate(texts))
    return text.replace("\r\n", "\n").replace("\r", "\n")


_AUTHORED = (b"from", b"to", b"cc", b"date", b"subject", b"message-id", b"in-reply-to", b"references")


def _field_name(parts: list[bytes]) -> bytes:
    first = parts[0]
    return (first if b":" in first else b" ".join(parts)).split(b":", 1)[0].strip().lower()


def content_digest(raw: bytes) -> str:
    """sha256 of what the sender wrote: the authored headers and the body.

    Each delivery adds its own transport headers (Received, Return-Path,
    Delivered-To) and IMAP turns LF into CRLF, so a hash of the raw bytes
    would tell two deliveries of one mail apart; this one does not.  The body
    is hashed in slices (a copy of a large mail would double what reading it costs).
    """
    m = re.search(rb"\r?\n\r?\n", raw)
    head_end, body = (m.start(), m.end()) if m else (len(raw), len(raw))
    fields: list[list[bytes]] = []
    for line in raw[:head_end].replace(b"\r\n", b"\n").split(b"\n"):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line.strip())  # an unfolded continuation line
        else:
            fields.append([line])
    kept = sorted(b" ".join(parts) for parts in fields if _field_name(parts) in _AUTHORED)
    digest = hashlib.sha256(b"\n".join(kept) + b"\n\n")
    pos, step = body, 1 << 20
    while pos < len(raw):
        end = min(pos + step, len(raw))
        if raw[end - 1:end] == b"\r" and end < len(raw):
            end += 1    # never split a CRLF
        digest.update(raw[pos:end].replace(b"\r\n", b"\n"))
        pos = end
    return digest.hexdigest()


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
    over, limit = "", max_bytes
    if size > max_bytes or (body < len(raw) and _parts_too_many(raw, body)):
        over = "mail"
    elif body > MAX_HEAD:   # headers cut (a Content-Transfer-Encoding lost, say): never read half
        over, limit = "head", MAX_HEAD
    if over:
        raw = head
    digest = content_digest(raw)
    # the header section alone: reading headers never copies the body
    msg = mime.header_parser(_CappedMessage, CAPPED)(raw[:body])
    if msg.cut and not over:
        over, limit, raw = "head", MAX_HEAD, head
    too_large = bool(over)
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
    found = mime.Body(too_large=limit if too_large else 0, over=over)
    if not too_large:
        try:
            found = _read_body(raw, msg, body, max_attachment_bytes)
        except Exception:
            found = mime.Body()
    if found.too_large:
        raw = head             # as a mail over the size: only its header section is kept
    elif found.cuts:
        raw = mime.without(raw, found.cuts)
    own = frozenset(a.strip().lower() for a in own_addresses)
    text = _joined(found.texts)
    literal = text if found.literal == found.texts else _joined(found.literal)   # plain parts: the same objects
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
        attachments=tuple(found.attachments),
        automatic=automatic_reason(msg, sender, return_path, own),
        too_large=bool(found.too_large),
        received=received,
        size=size,
        limit=found.too_large,
        over=found.over,
        set_aside=tuple(found.set_aside),
        literal="" if literal is text or literal == text else literal,
    )
