"""The header lines of the referee's own mail, written by the referee itself.

The ``email`` library decodes RFC 2047 encoded words in any value it is given
before it folds it again, and CPython releases without the CVE-2024-6923 fix
then write a decoded CR LF raw: a name such as ``=?utf-8?q?Eve=0D=0AReply-To:...?=``
in a subject became a header line of its own.  So no value of a top-level header
goes through the library: each is checked and written here, non-ASCII and
anything that looks like an encoded word encoded here (RFC 2047, Q, UTF-8), and
folded here; ``EmailMessage`` gets the finished lines as header objects
(``Written``).  A value holding a line break is refused (``HeaderFault``), and
``check_head`` refuses a generated header section with a line the referee did
not write: the outbox sets such a mail aside as a fault, it never sends it.
"""
from __future__ import annotations

import re

from referee.intake import checks

LINE = 78                 # a folded line's length at most (RFC 5322's advice; the SMTP policy's max_line_length)
_EW_TEXT = 55             # encoded characters in one encoded word: "Subject: =?utf-8?q?" + 55 + "?=" fits a line
_LONG_WORD = 66           # a longer plain word is encoded, so that it can be split across lines
_CRLF = "\r\n"
_PLAIN_WORD = re.compile(r"[\x21-\x7e]+")
_ID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,996}>")
_Q_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!*+-/")
_FIELD = re.compile(r"([\x21-\x39\x3b-\x7e]+):")


class HeaderFault(ValueError):
    """A header the referee will not write: the mail is held as a fault, never sent."""


def _no_break(name: str, value: str) -> str:
    if not isinstance(value, str):
        raise HeaderFault(f"{name}: not text")
    if len(value.splitlines()) > 1 or "\r" in value or "\n" in value:
        raise HeaderFault(f"{name}: a header value may not hold a line break (linefeed or carriage return)")
    return value


def _q(char: str) -> str:
    if char in _Q_SAFE:
        return char
    if char == " ":
        return "_"
    return "".join(f"={b:02X}" for b in char.encode("utf-8", "replace"))


def _encoded(text: str) -> list[str]:
    """``text`` as RFC 2047 encoded words (Q, UTF-8), each whole characters and short enough for a line."""
    words, current = [], ""
    for char in text:
        piece = _q(char)
        if current and len(current) + len(piece) > _EW_TEXT:
            words.append(current)
            current = ""
        current += piece
    if current:
        words.append(current)
    return [f"=?utf-8?q?{w}?=" for w in words]


def _plain(word: str) -> bool:
    """A word written as it is: printable ASCII that no reader could take for an encoded word."""
    return len(word) <= _LONG_WORD and bool(_PLAIN_WORD.fullmatch(word)) and "=?" not in word and "?=" not in word


def _fold(name: str, tokens: list[tuple[str, str]]) -> str:
    """``name: `` and the tokens (each with the blanks before it), folded before a blank where a line
    is full (also before the first: a long id goes on a line of its own, as the library puts it)."""
    lines, line = [], name + ":"
    for blank, token in tokens:
        if len(line) + len(blank) + len(token) > LINE:
            lines.append(line)
            line = blank + token
        else:
            line += blank + token
    lines.append(line)
    return _CRLF.join(lines) + _CRLF


def text_line(name: str, value: str) -> str:
    """An unstructured header (Subject): plain words as they are, runs of other words encoded."""
    value = _no_break(name, value).strip(" ")
    if not value:
        return f"{name}: {_CRLF}"
    pieces = re.findall(r"[^ ]+| +", value)       # words and the blanks between them
    tokens: list[tuple[str, str]] = []
    blank, run = " ", ""                          # run: words (with their blanks) still to encode
    for piece in pieces:
        if piece.startswith(" "):
            if run:
                run += piece
            else:
                blank = piece
        elif _plain(piece):
            if run:   # the blanks that ended the run stay plain, between its last word and this one
                words = run.rstrip(" ")
                tokens += [(blank if i == 0 else " ", w) for i, w in enumerate(_encoded(words))]
                blank, run = run[len(words):], ""
            tokens.append((blank, piece))
            blank = ""
        else:
            run += piece
    if run:
        tokens += [(blank if i == 0 else " ", w) for i, w in enumerate(_encoded(run.rstrip(" ")))]
    return _fold(name, tokens)


def address_line(name: str, value: str) -> str:
    """From, To, Cc: plain ASCII addresses (user@domain), comma-separated; nothing else is written."""
    addresses = [a.strip() for a in _no_break(name, value).split(",")]
    for address in addresses:
        try:
            checks.email(address)
        except checks.Invalid:
            raise HeaderFault(f"{name}: {checks.echo(address)!r} is not a plain mail address") from None
    return _fold(name, [(" ", a + ("," if i < len(addresses) - 1 else "")) for i, a in enumerate(addresses)])


def ids_line(name: str, value: str) -> str:
    """Message-ID, In-Reply-To, References, Content-ID: ``<...>`` ids of printable ASCII, as they are
    (none with ``=?``: a reader that decodes encoded words where RFC 2047 allows none must find none)."""
    ids = _no_break(name, value).split()
    if not ids or not all(_ID.fullmatch(i) and "=?" not in i for i in ids):
        raise HeaderFault(f"{name}: {checks.echo(value)!r} is not a list of message ids")
    return _fold(name, [(" ", i) for i in ids])


def plain_line(name: str, value: str) -> str:
    """A value of the referee's own that is plain ASCII already (Date, Auto-Submitted)."""
    if not _PLAIN_WORD.fullmatch(_no_break(name, value).replace(" ", "x")):
        raise HeaderFault(f"{name}: {checks.echo(value)!r} is not plain ASCII")
    return _fold(name, [(" ", w) for w in value.split(" ")])


class Written(str):
    """A header line written here, handed to ``EmailMessage`` as a header object: the
    policy returns an object with a ``name`` as it is and folds it by calling its
    ``fold``, so the library neither parses nor decodes it.  As text it is the value."""

    def __new__(cls, name: str, value: str, line: str) -> Written:
        obj = super().__new__(cls, value)
        obj.name, obj.line = name, line
        return obj

    def __getnewargs__(self):   # copy.deepcopy (the SMTP sink drops a Bcc from a copy)
        return self.name, str(self), self.line

    def fold(self, *, policy) -> str:
        return self.line.replace(_CRLF, policy.linesep)


def check_head(raw: bytes, names: list[str]) -> bytes:
    """``raw`` if its top-level header section is exactly the fields ``names`` (in order)
    and the MIME fields after them, every line ended by CR LF; else ``HeaderFault``."""
    end = raw.find(b"\r\n\r\n")
    head = raw[:end + 2 if end >= 0 else len(raw)].decode("ascii", "replace")
    if head.replace(_CRLF, "").count("\r") or head.replace(_CRLF, "").count("\n") or not head.endswith(_CRLF):
        raise HeaderFault("the header section holds a bare CR or LF")
    fields = [m.group(1) if (m := _FIELD.match(line)) else line[:20]
              for line in head.split(_CRLF)[:-1] if not line.startswith((" ", "\t"))]
    ours, mime = fields[:len(names)], fields[len(names):]
    if ours != names or not all(f.lower().startswith("content-") or f.lower() == "mime-version" for f in mime):
        raise HeaderFault(f"the header section holds a line the referee did not write: {checks.echo(fields)}")
    return raw
