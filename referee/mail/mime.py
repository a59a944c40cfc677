"""Taking a received mail apart the way a mail client shows it, in one pass.

The standard library's parser copies the whole mail several times over (lines,
joined payloads, decoded strings): a 2.85 MB mail with a photo peaked at 23 MB
only to be read.  Here the mail stays one ``bytes`` object; parts are
``(start, end)`` offsets into it, found with ``bytes.find`` on the boundary
lines (linear), and only a part's header section is parsed.  A part's body is
sliced and decoded only when it is text the referee reads (text/plain,
text/html, a YAML file) and within its cap; a photo is measured, never copied.

What the reader sees (``Body``):

* ``multipart/alternative``: the alternative that holds a document (plain
  first, then HTML), else the plain one if it is not blank, else the HTML one.
  Several clients send a blank plain part beside the HTML that holds the text.
* any other multipart (mixed, related, signed, ...): every inline text part in
  order, joined with a line break, as iPhone Mail sends text around a photo.
* a text part over ``MAX_TEXT_PART`` (a reply quoting a long history): its first
  ``MAX_TEXT_PART`` bytes are read, and the text before the first quoted line
  (``> ``, "On ... wrote:", "-----Original Message-----") is what the reader sees,
  if it holds an order document.  Without a quote in those bytes the text may go on
  past them (a document cut in two), and the mail is too large, as before.
* attachments: YAML files are kept (up to their cap); other attachments are
  left aside, and those over ``NOTED_ATTACHMENT`` bytes are named, so the
  reply can say what was not read.  ``message/*`` parts (a forwarded mail, a
  digest's items, a bounce's original) are old mail and not read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.message import Message
from email.parser import BytesHeaderParser

MAX_DEPTH = 8                 # nested multiparts taken apart
MAX_TEXT_PART = 256_000       # bytes of one text part read; a longer one makes the mail too large
MAX_PART_HEAD = 16_000       # bytes of one part's header section read
NOTED_ATTACHMENT = 100_000    # a non-text attachment this large is named in the reply
_HEAD_END = re.compile(rb"\r?\n\r?\n")
_DOCUMENT_LINE = re.compile(r"^[ \t]*(match|orders|player)[ \t]*:", re.I | re.M)
# where a reply's quote of the mail it answers begins: a "> " line, an attribution line
# ("On <date>, <who> wrote:", "Am <Datum> schrieb <wer>:"), or a client's separator
_ATTRIBUTION = ("wrote:", "schrieb:", "a écrit :", "a écrit:", "escribió:", "scritto:", "geschreven:")
_SEPARATORS = ("-----original message-----", "-------- original message --------",
               "-----ursprüngliche nachricht-----", "-------- ursprüngliche nachricht --------",
               "-------- forwarded message --------", "---------- forwarded message ---------")


@dataclass
class Body:
    texts: list[str] = field(default_factory=list)                    # what the reader sees, in order
    literal: list[str] = field(default_factory=list)                  # the same, HTML with its source's blanks
    attachments: list[tuple[str, str]] = field(default_factory=list)  # (name, text) of YAML files
    set_aside: list[tuple[str, int]] = field(default_factory=list)    # (name, bytes) of large other files
    cuts: list[tuple[int, int]] = field(default_factory=list)         # where their bodies are in the mail
    too_large: int = 0        # the limit (bytes) a part broke, 0 if none
    over: str = ""            # what broke it: "mail", "text", "yaml" or "head" (a part's header cut)


def split_head(raw: bytes, start: int, end: int, limit: int) -> tuple[bytes, int]:
    """(header section of raw[start:end] cut to ``limit`` bytes, offset where its body starts)."""
    if raw.startswith(b"\n", start) or raw.startswith(b"\r\n", start):   # no header fields at all
        return b"", start + (1 if raw[start:start + 1] == b"\n" else 2)
    m = _HEAD_END.search(raw, start, end)
    body = m.end() if m else end
    return raw[start:min(body, start + limit)], body


def boundaries(raw: bytes, start: int, end: int, boundary: bytes) -> list[tuple[int, int]]:
    """(start, end) of each part between ``--boundary`` lines in raw[start:end]."""
    delim = b"--" + boundary
    parts: list[tuple[int, int]] = []
    opened = None
    pos = start
    while pos < end:
        at = raw.find(delim, pos, end)
        if at < 0:
            break
        line_end = raw.find(b"\n", at, end)
        line_end = end if line_end < 0 else line_end + 1
        rest = raw[at + len(delim):line_end].strip()
        at_line_start = at == start or raw[at - 1:at] == b"\n"
        if at_line_start and rest in (b"", b"--"):
            if opened is not None:
                cut = at - 2 if raw[at - 2:at] == b"\r\n" else at - 1 if at > opened else at
                parts.append((opened, max(opened, cut)))
            if rest == b"--":
                return parts
            opened = line_end
        pos = line_end
    if opened is not None and opened < end:      # no closing delimiter: the last part runs to the end
        parts.append((opened, end))
    return parts


class Reader:
    def __init__(self, raw: bytes, parse_head, decode, html_readings, unflow,
                 max_attachment_bytes: int, is_yaml, filename) -> None:
        self.raw = raw
        self.parse_head, self.decode, self.html_readings, self.unflow = parse_head, decode, html_readings, unflow
        self.max_attachment_bytes = max_attachment_bytes
        self.is_yaml, self.filename = is_yaml, filename
        self.body = Body()

    def part(self, msg: Message, start: int, end: int, depth: int) -> list[tuple[str, str, str]]:
        """("plain"|"html", text, literal text) a reader sees in one part (its header already parsed
        as ``msg``); literal: an HTML part's text with the blanks of its source (``htmltext``)."""
        ctype = msg.get_content_type()
        if msg.get_content_maintype() == "multipart":
            boundary = msg.get_boundary()
            if not boundary or depth >= MAX_DEPTH:
                return []
            children = []
            for s, e in boundaries(self.raw, start, end, boundary.encode("utf-8", "surrogateescape")):
                head, body = split_head(self.raw, s, e, MAX_PART_HEAD)
                child = self.parse_head(head)
                if body - s > MAX_PART_HEAD or getattr(child, "cut", False):   # never read a part half
                    self._over(MAX_PART_HEAD, "head")
                    return []
                if ctype == "multipart/digest":
                    child.set_default_type("message/rfc822")   # a digest's items are mails
                children.append(self.part(child, body, e, depth + 1))
            if ctype == "multipart/alternative":
                return _alternative(children)
            return [t for texts in children for t in texts]
        if msg.get_content_maintype() == "message":
            return []
        size = end - start
        if self.is_yaml(msg):
            if size > 2 * self.max_attachment_bytes or len(self._decoded(msg, start, end)) > self.max_attachment_bytes:
                self._over(self.max_attachment_bytes, "yaml")
            else:
                text = self.decode(self._with_payload(msg, start, end)).replace("\r\n", "\n")
                self.body.attachments.append((self.filename(msg) or "orders.yaml", text))
            return []
        if _attached(msg, self.filename) or ctype not in ("text/plain", "text/html"):
            if size >= NOTED_ATTACHMENT:
                self.body.set_aside.append((self.filename(msg) or ctype, size))
                self.body.cuts.append((start, end))
            return []
        if size <= MAX_TEXT_PART:
            return [self._text(msg, ctype, start, end)]
        # a long reply: the part's first MAX_TEXT_PART bytes, in whole lines (a base64 or
        # quoted-printable line is decoded whole), and of those the text above the quote
        cut = self.raw.rfind(b"\n", start, start + MAX_TEXT_PART)
        if cut > start:
            kind, text, literal = self._text(msg, ctype, start, cut + 1)
            own, own_literal = before_quote(text), before_quote(literal)
            if own is not None and own_literal is not None and holds_document(own):
                return [(kind, own, own_literal)]
        self._over(MAX_TEXT_PART, "text")
        return []

    def _text(self, msg: Message, ctype: str, start: int, end: int) -> tuple[str, str, str]:
        text = self.decode(self._with_payload(msg, start, end))
        if ctype == "text/html":
            return ("html", *self.html_readings(text))
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if (msg.get_param("format") or "").lower() == "flowed":
            text = self.unflow(text, (msg.get_param("delsp") or "").lower() == "yes")
        return ("plain", text, text)

    def _over(self, limit: int, what: str) -> None:
        if not self.body.too_large:
            self.body.too_large, self.body.over = limit, what

    def _with_payload(self, msg: Message, start: int, end: int) -> Message:
        msg.set_payload(self.raw[start:end].decode("ascii", "surrogateescape"))
        return msg

    def _decoded(self, msg: Message, start: int, end: int) -> bytes:
        try:
            return self._with_payload(msg, start, end).get_payload(decode=True) or b""
        except Exception:
            return b""


def _attached(msg: Message, filename) -> bool:
    try:
        disposition = (msg.get_content_disposition() or "").lower()
    except Exception:
        disposition = ""
    return disposition == "attachment" or filename(msg) is not None


def before_quote(text: str) -> str | None:
    """The lines of ``text`` above the first line of a quote (one look at each line);
    None where no quote begins in it."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        bare = line.strip().lower()
        if bare.startswith(">") or bare in _SEPARATORS:
            return "\n".join(lines[:i]) + "\n"
        if bare.endswith(_ATTRIBUTION):
            # an attribution wrapped by the client: "On Mon, 2 Mar 2026, Referee <r@x>" / "wrote:"
            top = i - 1 if i and len(bare) < 20 and lines[i - 1].strip()[:3].lower() in ("on ", "am ") else i
            return "\n".join(lines[:top]) + "\n"
    return None


def holds_document(text: str) -> bool:
    return bool(_DOCUMENT_LINE.search(text))


def _alternative(children: list[list]) -> list:
    """One of a multipart/alternative's children, as a reader would pick it for orders."""
    kinds = [c for c in children if c]
    plain = [c for c in kinds if c[0][0] == "plain"]
    html = [c for c in kinds if c[0][0] != "plain"]
    for group in (plain, html):
        for texts in group:
            if any(holds_document(t) for _, t, _ in texts):
                return texts
    for texts in plain:
        if any(t.strip() for _, t, _ in texts):
            return texts
    return html[0] if html else (plain[0] if plain else [])


def header_parser(message_class, policy):
    parser = BytesHeaderParser(message_class, policy=policy)

    def parse(head: bytes) -> Message:
        try:
            return parser.parsebytes(head)
        except Exception:
            return message_class()
    return parse


def without(raw: bytes, cuts: list[tuple[int, int]]) -> bytes:
    """``raw`` with the bodies at ``cuts`` (in order, not overlapping) replaced by a note:
    what the archive keeps of a mail whose photos were not read."""
    pieces, pos = [], 0
    for start, end in cuts:
        pieces += [raw[pos:start], b"[%d bytes set aside]\r\n" % (end - start)]
        pos = end
    pieces.append(raw[pos:])
    return b"".join(pieces)
