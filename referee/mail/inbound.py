"""Turn raw received bytes into an ``InboundMail`` the intake can read.

Parsing uses ``policy.compat32`` plus the never-raising helpers in
``headers`` because received mail is untrusted: garbage must still become an
InboundMail (perhaps with an empty text) that is archived and answered, never
an exception that stalls the inbox.
"""
from __future__ import annotations

import email
import hashlib
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

YAML_TYPES = {"application/x-yaml", "application/yaml", "text/yaml", "text/x-yaml"}
YAML_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class InboundMail:
    raw: bytes                 # exactly as received
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


def content_digest(raw: bytes) -> str:
    """sha256 of what the sender wrote: the authored headers and the body.

    Each delivery adds its own transport headers (Received, Return-Path,
    Delivered-To) and IMAP turns LF into CRLF, so a hash of the raw bytes
    would tell two deliveries of one mail apart; this one does not.
    """
    data = raw.replace(b"\r\n", b"\n")
    head, _, body = data.partition(b"\n\n")
    lines: list[bytes] = []
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t") and lines:
            lines[-1] += b" " + line.strip()  # an unfolded continuation line
        else:
            lines.append(line)
    kept = sorted(ln for ln in lines if ln.split(b":", 1)[0].strip().lower() in _AUTHORED)
    return hashlib.sha256(b"\n".join(kept) + b"\n\n" + body).hexdigest()


def parse_inbound(raw: bytes, *, own_addresses: Iterable[str] = (), max_bytes: int = 256_000,
                  max_attachment_bytes: int = 64_000) -> InboundMail:
    """Read ``raw`` (bytes as received).  Never raises on malformed mail.

    A mail over ``max_bytes`` has only its headers read (``too_large``, empty
    text); a YAML attachment over ``max_attachment_bytes`` is left out and
    also sets ``too_large``.
    """
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    raw = bytes(raw)
    digest = content_digest(raw)
    too_large = len(raw) > max_bytes
    try:
        if too_large:
            msg = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
        else:
            msg = email.message_from_bytes(raw, policy=policy.compat32)
    except Exception:
        msg = Message()
    ids = headers.message_ids(headers.raw(msg, "Message-ID"))
    message_id = ids[0] if ids else f"<{digest[:40]}@content-hash.invalid>"
    sender_name, sender = headers.address(msg, "From")
    sender, sender_name = checks.mail_sender(sender), checks.echo(sender_name)  # "": no reply can be built
    rp = headers.raw(msg, "Return-Path")
    return_path = None if rp is None else headers.address(msg, "Return-Path")[1]
    refs = headers.message_ids(headers.raw(msg, "References")) or \
        headers.message_ids(headers.raw(msg, "In-Reply-To"))
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
    )
