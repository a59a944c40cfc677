"""Checked at the door: one validator per kind of value that enters from outside.

A value from a mail, a match file, a GM command or the configuration that can
become a mail header, an address, a file name or a moment the clock must hold
is checked once, where it enters, by one of these; later code uses only the
checked value.  Each raises ``Invalid`` (a ``ValueError`` whose ``kind`` names
the check) with an English reason; the callers phrase it for their readers.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta

LANGUAGES = ("de", "en")                     # every text the referee writes exists in these
MAX_AHEAD = timedelta(days=366)              # no deadline, extension or period reaches further
MAX_ADDRESS = 254                            # RFC 5321 path limit
MAX_TITLE = 120
MAX_NAME = 80
MAX_ECHO = 60                                # a value the sender chose, shown back to anyone
MAX_TURN = 100_000

# ASCII dot-atom addresses only: the referee writes no SMTPUTF8 mail, so a
# non-ASCII or quoted address could never be answered; it is not taken at all.
# '?' is left out of RFC 5322's atext: with '=' it starts an encoded word that
# a header writer would decode (into a CR LF, say).
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=^_`{|}~-]+"
_ADDRESS = re.compile(rf"{_ATEXT}(?:\.{_ATEXT})*@[A-Za-z0-9](?:[A-Za-z0-9-]{{0,61}}[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
_MESSAGE_ID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,244}>")   # printable ASCII, no '<' or '>' inside
# Characters a header or a line of a reply must never carry: C0/C1 controls
# (CR, LF, NUL ...), DEL, and the Unicode line and paragraph separators.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
ENCODED_WORD = "=?"                          # how an RFC 2047 encoded word starts
RESERVED_SEATS = ("gm",)                     # "gm" and "@..." address the game master


class Invalid(ValueError):
    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind


def email(value, what: str = "address") -> str:
    """A mail address the referee can write to (lower-cased), else ``Invalid``."""
    if not isinstance(value, str):
        raise Invalid("email", f"{what}: not a mail address")
    text = value.strip()
    local, _, domain = text.rpartition("@")
    if len(text) > MAX_ADDRESS or len(local) > 64 or not _ADDRESS.fullmatch(text):
        raise Invalid("email", f"{what}: {echo(text)!r} is not a plain mail address (ASCII, user@domain)")
    return text.lower()


def mail_sender(value: str) -> str:
    """The sender of a received mail if a reply to it can be built, else ""."""
    try:
        return email(value)
    except Invalid:
        return ""


def header_text(value, what: str = "text", limit: int = MAX_TITLE) -> str:
    """One line of text that may go into a header (a title, a name): no control
    characters or line breaks, no ``=?`` (RFC 2047 encoded-word syntax), at most
    ``limit`` characters."""
    if not isinstance(value, str):
        raise Invalid("text", f"{what}: must be text")
    text = value.strip()
    if _CONTROL.search(text):
        raise Invalid("text", f"{what}: holds a control character or a line break")
    if ENCODED_WORD in text:   # a header writer or a reader would decode it: into a CR LF, say
        raise Invalid("text", f"{what}: holds '=?', which mail programs read as the start of encoded text")
    if not text or len(text) > limit:
        raise Invalid("text", f"{what}: must be 1 to {limit} characters long")
    return text


def echo(value, limit: int = MAX_ECHO) -> str:
    """A value someone else chose, made safe to show back: one line, controls
    dropped, at most ``limit`` characters (never raises)."""
    text = " ".join(_CONTROL.sub(" ", str(value)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def language(value, what: str = "lang") -> str:
    """A language code the referee writes in (also a part of archive file names)."""
    if value not in LANGUAGES:
        raise Invalid("language", f"{what}: {echo(value)!r} is not one of {', '.join(LANGUAGES)}")
    return value


def identifier(value, what: str = "id") -> str:
    """A match or seat id: lower-case letters, digits, '-' and '_' (safe as a file name)."""
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise Invalid("id", f"{what}: lower-case letters, digits, '-' or '_' (at most 63)")
    return value


def seat(value, what: str = "player id") -> str:
    """A seat's id; ``gm`` and ids with '@' are the GM's and reserved."""
    value = identifier(value, what)
    if value in RESERVED_SEATS:
        raise Invalid("id", f"{what}: {value!r} is reserved for the game master")
    return value


def path_part(value: str) -> str:
    """A name that becomes one component of an archive path (never a separator,
    a dot name, a NUL or a control character)."""
    if not isinstance(value, str) or not value or value in (".", "..") or "/" in value or "\\" in value \
            or _CONTROL.search(value) or len(value) > 128:
        raise Invalid("path", f"{echo(value)!r} cannot be part of an archive path")
    return value


def moment(value: datetime, now: datetime, what: str = "time", ahead: timedelta = MAX_AHEAD) -> datetime:
    """An aware moment no further than ``ahead`` from ``now`` (so that adding a
    period, a grace or a reminder to it can never leave the calendar)."""
    if value.tzinfo is None:
        raise Invalid("time", f"{what}: needs a time zone")
    if value - now > ahead:
        raise Invalid("time", f"{what}: more than {ahead.days} days ahead")
    return value


def duration(value: timedelta, what: str = "duration", longest: timedelta = MAX_AHEAD) -> timedelta:
    if value > longest:
        raise Invalid("duration", f"{what}: longer than {longest.days} days")
    return value


def integer(value, low: int, high: int, what: str = "number") -> int:
    """A whole number in [low, high], given as a number or as digits (never a
    thousand-digit string the interpreter must convert first)."""
    if isinstance(value, bool):
        raise Invalid("integer", f"{what}: not a whole number")
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("+-").isdigit() or len(text) > 12:
            raise Invalid("integer", f"{what}: not a whole number from {low} to {high}")
        value = int(text)
    if not isinstance(value, int) or not low <= value <= high:
        raise Invalid("integer", f"{what}: not a whole number from {low} to {high}")
    return value


def message_id(value) -> bool:
    """Whether a Message-ID from a received mail may go into a reply's headers (never
    one holding ``=?``: an encoded word there decodes to whatever it likes).  An id
    on the reserved ``.invalid`` domain is one the intake made up for a mail whose own
    id was missing or unusable: nothing to thread on."""
    return isinstance(value, str) and bool(_MESSAGE_ID.fullmatch(value)) and ENCODED_WORD not in value \
        and not value.endswith(".invalid>")
