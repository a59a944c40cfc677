"""What the security tests share: a referee on SQLite with the toy game and an
injected clock, its outbox sent into a Maildir (or a real SMTP server), the
keys the welcome mails gave, and hostile raw mails written byte by byte (the
way an attacker writes them, not the way a library would)."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import referee_kit as _kit  # tests/kits, on sys.path (tests/conftest.py)

from referee.mail.inbound import parse_inbound

Clock, Outbox, REFEREE, text_of, to = _kit.Clock, _kit.Outbox, _kit.REFEREE, _kit.text_of, _kit.to
CREATOR = _kit.BOSS           # may create matches by mail (gm_keys)
KEY = re.compile(r"(?:Your key|Dein Schlüssel|Your GM key|Dein Spielleitungs-Schlüssel): (\S+)")
SPEC = {k: v for k, v in _kit.SPEC.items() if k != "observers"} | {"options": {"rounds": 3}}
make_referee = _kit.make_referee


# the authority tests' fixtures: the toy game registered, the clock, the referee, its outbox
toy_registered, clock, ref, outbox = _kit.toy_registered, _kit.clock, _kit.ref, _kit.outbox


def keys_of(msgs) -> dict[str, str]:
    """Address local part -> key, from welcome mails."""
    found = {}
    for m in msgs:
        hit = KEY.search(text_of(m))
        if hit:
            found[str(m["To"]).split("@")[0]] = hit.group(1)
    return found


def hostile(from_header: str, body: str, *, subject: str = "orders", message_id: str = "<h1@evil.test>",
            extra: str = "") -> bytes:
    """A raw mail with the headers exactly as given (CRLF line ends)."""
    head = f"From: {from_header}\r\nTo: {REFEREE}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n{extra}"
    return (head + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")).encode("utf-8")


def mail(raw: bytes):
    return parse_inbound(raw, own_addresses=[REFEREE])


def order(player: str, key: str, bid: int = 2, turn: int = 1, match: str = "toy1") -> str:
    return f"match: {match}\nplayer: {player}\nkey: {key}\nturn: {turn}\norders:\n  bid: {bid}\n"
