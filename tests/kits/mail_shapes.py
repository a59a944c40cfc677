"""Mails of a given size in the shapes that cost most to read (for the memory test and bench)."""
from __future__ import annotations

import base64
import random

ORDER = "match: toy1\r\nplayer: ann\r\nkey: 7KQ2-MX4P-9WTR\r\nturn: 1\r\norders:\r\n  bid: 3\r\n"
HEAD = ("From: Ann <ann@example.org>\r\nTo: referee@example.org\r\nSubject: orders\r\n"
        "Message-ID: <{name}.{size}@example.org>\r\nMIME-Version: 1.0\r\n")


def _base64(n: int, seed: str) -> str:
    """About ``n`` characters of base64 lines (CRLF), at most ``n``."""
    text = base64.encodebytes(random.Random(seed).randbytes(n * 3 // 4)).decode().replace("\n", "\r\n")
    return text[:text.rfind("\r\n", 0, n) + 2]


def photo(size: int) -> bytes:
    """A small order beside one photo that fills the rest."""
    head = HEAD.format(name="photo", size=size) + 'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n'
    text = "--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + ORDER + "\r\n"
    pic = "--b1\r\nContent-Type: image/jpeg\r\nContent-Disposition: attachment; filename=IMG.jpg\r\n" \
          "Content-Transfer-Encoding: base64\r\n\r\n"
    rest = size - len(head) - len(text) - len(pic) - 12
    return (head + text + pic + _base64(rest, "photo") + "\r\n--b1--\r\n").encode()


def photos(size: int, count: int = 8) -> bytes:
    """An iPhone mail: text, photo, text, photo ... (alternating parts)."""
    head = HEAD.format(name="photos", size=size) + 'Content-Type: multipart/mixed; boundary="b2"\r\n\r\n'
    each = (size - len(head)) // count - 200
    parts = []
    for i in range(count):
        parts.append("--b2\r\nContent-Type: text/plain\r\n\r\n" + (ORDER if i == 0 else "more\r\n"))
        parts.append(f"--b2\r\nContent-Type: image/jpeg\r\nContent-Disposition: inline; filename=I{i}.jpg\r\n"
                     "Content-Transfer-Encoding: base64\r\n\r\n" + _base64(each, f"p{i}"))
    return (head + "".join(parts) + "--b2--\r\n").encode()


def plain(size: int) -> bytes:
    """One plain text part of short lines (over the text cap: refused, yet read linearly)."""
    head = HEAD.format(name="plain", size=size) + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + ORDER
    return (head + "x\r\n" * ((size - len(head)) // 3)).encode()


def html_alternative(size: int) -> bytes:
    """A blank plain part beside an HTML part beside a large inline picture (Apple Mail)."""
    head = HEAD.format(name="html", size=size) + 'Content-Type: multipart/related; boundary="b3"\r\n\r\n'
    alt = ('--b3\r\nContent-Type: multipart/alternative; boundary="b4"\r\n\r\n'
           "--b4\r\nContent-Type: text/plain\r\n\r\n \r\n--b4\r\nContent-Type: text/html\r\n\r\n"
           + "".join(f"<div>{ln}</div>" for ln in ORDER.splitlines()) + "\r\n--b4--\r\n")
    pic = "--b3\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n"
    rest = size - len(head) - len(alt) - len(pic) - 12
    return (head + alt + pic + _base64(rest, "html") + "\r\n--b3--\r\n").encode()


SHAPES = {"photo": photo, "photos": photos, "plain": plain, "html_alternative": html_alternative}
