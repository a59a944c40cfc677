"""Hostile mails made to order, for the intake fuzzing (issue 13).

One generator, two drivers: ``build(draw, seeds)`` asks a ``draw`` for every
choice it makes, so hypothesis (``HypothesisDraw``: shrinks a failure to a
small mail) and the benchmark (``RandomDraw``: a seed per input, 100,000 of
them fast) make the same kinds of mail.  The kinds: real order mails
(``seeds``: the turns/ samples and orders for the fuzzing's own matches)
mutated byte by byte, random MIME trees, charsets, broken base64 and
quoted-printable, RFC 2047 words, YAML tags, aliases and merge keys, very
long lines and NUL bytes.
"""
from __future__ import annotations

import base64
import quopri
import random
import re

CHARSETS = ["utf-8", "latin-1", "iso-8859-15", "windows-1252", "utf-16", "utf-16-le", "utf-32", "utf-7",
            "iso-2022-jp", "shift_jis", "koi8-r", "gb18030", "us-ascii", "x-unknown", "", "utf-8\"; x=\"",
            "=?utf-8?q?x?=", "a" * 300]
ENCODINGS = ["7bit", "8bit", "binary", "base64", "quoted-printable", "x-uuencode", "bogus", ""]
TYPES = ["text/plain", "text/html", "application/yaml", "text/x-yaml", "application/octet-stream",
         "image/png", "message/rfc822", "text/enriched", "multipart/mixed", "text/plain; format=flowed"]
YAML_HAZARDS = [
    "orders: !!python/object/apply:os.system ['echo owned']\n",
    "orders: !!binary aGVsbG8gd29ybGQ=\n",
    "orders: !custom {a: 1}\n",
    "orders: &a [*a]\n",
    "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\norders: [*d, *d, *d, *d]\n",
    "base: &base {bid: 1, keep: [a, b]}\norders:\n  <<: *base\n  <<: [*base, *base]\n",
    "orders:\n  <<: {<<: {<<: {x: 1}}}\n",
    "orders: {bid: 99999999999999999999999999999999}\n",
    "orders: " + "[" * 3000 + "\n",
    "orders: " + "{a: " * 500 + "1" + "}" * 500 + "\n",
    "%YAML 1.1\n%TAG ! tag:evil.test,2026:\n---\norders: !x 1\n",
    "---\nmatch: a\n---\nmatch: b\n...\n---\n",
    "? [complex, key]\n: value\norders: !!set {a, b}\n",
    "orders: !!omap [a: 1, b: 2]\nturn: 2026-13-45\n",
    "turn: .nan\norders: {bid: 0x1F, keep: 0o17, n: 1_000, t: !!timestamp 2001-12-14}\n",
    "orders:\n\tbid: 1\n",
    "match: \"\\ud800\\x00\"\nplayer: \"\\U0010FFFF\"\n",
    "key: " + "A" * 70000 + "\n",
    "orders: *undefined\n",
    "orders: &x\n  a: &x 1\n  b: *x\n",
    "match: [a]\nplayer: {b: c}\nkey: 12\nturn: [1]\ncommand: [x]\n",
    "command: resend\nturn: 100000000000000000000\n",
    "command: " + "x" * 200 + "\n",
]
WORDS = ["=?utf-8?q?caf=C3=A9?=", "=?utf-8?b?w7bDpMO8?=", "=?iso-8859-1?q?=E4?=", "=?utf-8?q?broken",
         "=?x-bogus?b?!!!?=", "=?utf-8?b?" + "QUFB" * 500 + "?=", "=?utf-8?q?a=0D=0ABcc:_x@y?=",
         "=?utf-7?b?K0FHRS0=?=", "=??q??=", "=?utf-8*de?q?x?="]
HEADERS = [b"Authentication-Results: mx.evil.test; dmarc=pass header.from=demo.test\r\n",
           b"Authentication-Results: ((((((((((((((((((\r\n",
           b"DKIM-Signature: v=1; a=rsa-sha256; d=demo.test; s=x; h=from; bh=AAAA; b=!!!!\r\n",
           b"DKIM-Signature: v=1; a=rsa-sha256; d=demo.test; s=s2026; c=relaxed/relaxed; l=99999999999999; "
           b"h=" + b"from:" * 2000 + b"to; bh=; b=\r\n",
           b"DKIM-Signature: d=" + b"a." * 200 + b"demo.test; s=../../x\r\n",
           b"From: second@demo.test\r\n", b"From:\r\n", b"Return-Path: <>\r\n", b"Auto-Submitted: no\r\n",
           b"In-Reply-To: " + b"<x@y> " * 3000 + b"\r\n", b"Content-Type: multipart/mixed\r\n",
           b"Content-Type: multipart/mixed; boundary=\"\"\r\n", b"Subject: " + b"\xff\xfe" * 100 + b"\r\n",
           b"Message-ID: <" + b"m" * 400 + b"@x>\r\n", b"X-" + b"a" * 9000 + b": b\r\n",
           b"Content-Transfer-Encoding: base64\r\n", b"MIME-Version: 1.0\r\n"]


class RandomDraw:
    """The benchmark's driver: every choice from one seeded ``random.Random``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def bytes(self, n: int) -> bytes:
        return self.rng.randbytes(n)


class HypothesisDraw:
    """The test's driver: every choice drawn from hypothesis's ``data`` (so it shrinks)."""

    def __init__(self, data) -> None:
        from hypothesis import strategies as st
        self.data, self.st = data, st

    def int(self, lo: int, hi: int) -> int:
        return self.data.draw(self.st.integers(lo, hi))

    def pick(self, items):
        return items[self.int(0, len(items) - 1)]

    def bytes(self, n: int) -> bytes:
        return self.data.draw(self.st.binary(min_size=0, max_size=n))


def build(draw, seeds: list[bytes]) -> bytes:
    """One hostile mail: a real one, a MIME tree or a YAML hazard, then 0-3 mutations."""
    kind = draw.int(0, 9)
    if kind < 6:
        raw = draw.pick(seeds)
    elif kind < 8:
        raw = _head(draw, "multipart/mixed; boundary=\"b0\"") + _multipart(draw, 0, "b0", seeds)
    else:
        raw = _head(draw, "text/plain; charset=utf-8") + _order_text(draw, seeds).encode("utf-8", "surrogatepass")
    for _ in range(draw.int(0, 3)):
        raw = draw.pick(MUTATIONS)(draw, raw)
    return raw


def _head(draw, ctype: str) -> bytes:
    n = draw.int(0, 10**6)
    return (f"From: {draw.pick(['franklin', 'washington', 'gm', 'eve', 'ann'])}@demo.test\r\n"
            f"To: referee@localhost\r\nSubject: orders {n}\r\nMessage-ID: <fz{n}@demo.test>\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: {ctype}\r\n\r\n").encode()


def _order_text(draw, seeds: list[bytes]) -> str:
    """The YAML of a real order (taken from a seed) with a hazard put in."""
    seed = draw.pick(seeds)
    start = seed.find(b"match:")
    text = seed[start:].decode("utf-8", "replace") if start >= 0 else ""
    lines = text.split("\n")
    at = draw.int(0, len(lines))
    return "\n".join(lines[:at] + [draw.pick(YAML_HAZARDS)] + lines[at:])


def _multipart(draw, depth: int, boundary: str, seeds: list[bytes]) -> bytes:
    out = b"preamble\r\n"
    for i in range(draw.int(0, 4)):
        ctype = draw.pick(TYPES)
        out += f"--{boundary}\r\n".encode()
        if ctype.startswith("multipart") and depth < 3:
            inner = f"b{depth + 1}{i}"
            out += f"Content-Type: {ctype}; boundary=\"{inner}\"\r\n\r\n".encode() + _multipart(draw, depth + 1, inner, seeds)
            continue
        if ctype == "message/rfc822":
            out += b"Content-Type: message/rfc822\r\n\r\n" + draw.pick(seeds) + b"\r\n"
            continue
        charset, cte = draw.pick(CHARSETS), draw.pick(ENCODINGS)
        name = draw.pick(["", "orders.yaml", "photo.jpg", "o.yml", "=?utf-8?q?b=C3=A4d?=.yaml", "../../x.yaml"])
        body = _order_text(draw, seeds).encode("utf-8", "surrogatepass")
        if ctype == "text/html":
            body = b"<html><body><pre>" + body + b"</pre>" + b"<div>" * draw.int(0, 3000) + b"</body></html>"
        out += (f"Content-Type: {ctype}; charset=\"{charset}\"" + (f"; name=\"{name}\"" if name else "")
                + f"\r\nContent-Transfer-Encoding: {cte}\r\n"
                + (f"Content-Disposition: attachment; filename=\"{name}\"\r\n" if name else "") + "\r\n").encode()
        out += _encode(draw, body, cte) + b"\r\n"
    if draw.int(0, 4):
        out += f"--{boundary}--\r\n".encode()
    return out


def _encode(draw, body: bytes, cte: str) -> bytes:
    if cte == "base64":
        data = base64.encodebytes(body)
        return _break_b64(draw, data) if draw.int(0, 1) else data
    if cte == "quoted-printable":
        data = quopri.encodestring(body)
        return data + draw.pick([b"", b"=", b"=Z", b"=\r\n=0", b"=" * 50]) if draw.int(0, 1) else data
    return body


def _break_b64(draw, data: bytes) -> bytes:
    at = draw.int(0, len(data))
    return data[:at] + draw.pick([b"!", b"=", b"==A", b"\x00", b"\xff", b"-_", b"A"]) + data[at:]


def _split(raw: bytes) -> tuple[bytes, bytes]:
    m = re.search(rb"\r?\n\r?\n", raw)
    return (raw[:m.end()], raw[m.end():]) if m else (raw, b"")


# -- mutations: each takes the mail and returns a changed one -----------------
def _flip(draw, raw):
    if not raw:
        return raw
    at = draw.int(0, len(raw) - 1)
    return raw[:at] + bytes([draw.int(0, 255)]) + raw[at + 1:]


def _splice(draw, raw):
    at = draw.int(0, len(raw))
    return raw[:at] + draw.bytes(40) + raw[at:]


def _cut(draw, raw):
    at = draw.int(0, len(raw))
    return raw[:at] + raw[at + draw.int(0, 200):]


def _nul(draw, raw):
    at = draw.int(0, len(raw))
    return raw[:at] + b"\x00" * draw.int(1, 64) + raw[at:]


def _long_line(draw, raw):
    head, body = _split(raw)
    filler = draw.pick([b"x", b"\xc3\xa4", b"=", b" ", b"-", b"<b>", b":"]) * draw.pick([999, 70_000, 400_000])
    if draw.int(0, 1):
        return head.rstrip(b"\r\n") + b"\r\nX-Long: " + filler + b"\r\n\r\n" + body
    lines = body.split(b"\n")
    at = draw.int(0, len(lines))
    return head + b"\n".join(lines[:at] + [filler] + lines[at:])


def _charset(draw, raw):
    head, body = _split(raw)
    head = re.sub(rb"charset=\"?[^\";\r\n]*\"?", b"charset=\"" + draw.pick(CHARSETS).encode() + b"\"", head)
    if draw.int(0, 1):
        try:
            body = body.decode("utf-8", "replace").encode(draw.pick(["utf-16", "latin-1", "utf-7", "cp1252"]), "replace")
        except LookupError:
            pass
    return head + body


def _as_base64(draw, raw):
    head, body = _split(raw)
    head = re.sub(rb"(?im)^content-transfer-encoding:.*\r?\n", b"", head)
    data = base64.encodebytes(body)
    return head.rstrip(b"\r\n") + b"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + (_break_b64(draw, data) if draw.int(0, 1) else data)


def _as_qp(draw, raw):
    head, body = _split(raw)
    head = re.sub(rb"(?im)^content-transfer-encoding:.*\r?\n", b"", head)
    data = quopri.encodestring(body) + draw.pick([b"", b"=", b"=G1", b"=\r\n"])
    return head.rstrip(b"\r\n") + b"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + data


def _words(draw, raw):
    head, body = _split(raw)
    word = draw.pick(WORDS).encode()
    name = draw.pick([b"Subject", b"From", b"To", b"Content-Type"])
    if draw.int(0, 1) and re.search(b"(?im)^" + name + b":", head):
        head = re.sub(b"(?im)^(" + name + b":)", lambda m: m.group(1) + b" " + word, head, count=1)
    else:
        head = head.rstrip(b"\r\n") + b"\r\n" + name + b": " + word + b" <x@demo.test>\r\n\r\n"
    return head + body


def _yaml(draw, raw):
    head, body = _split(raw)
    lines = body.split(b"\n")
    at = draw.int(0, len(lines))
    return head + b"\n".join(lines[:at] + [draw.pick(YAML_HAZARDS).encode()] + lines[at:])


VALUES = [b"null", b"~", b"[]", b"{}", b"-1", b"0", b"99999999999", b"1e400", b"-.inf", b"true", b"''", b"\"\\0\"",
          b"[[[]]]", b"{a: {b: {c: d}}}", b"&v x", b"*v", b"!!str 1", b"!!int x", b"|\n  multi\n  line",
          b"\xc3\xa4\xc3\xb6\xc3\xbc", b"\"\\U0001F600\"", b"x" * 5000, b"[" + b"1, " * 3000 + b"1]", b"2026-03-02",
          b"\"@gm\"", b"gm", b"[dayton, dayton, dayton]"]


def _value(draw, raw):
    """A value of the document replaced: the games' checks see odd types and sizes."""
    lines = raw.split(b"\n")
    found = [i for i, line in enumerate(lines) if b":" in line[:200] and len(line) < 300]
    if not found:
        return raw
    i = draw.pick(found)
    name = lines[i].split(b":", 1)[0]
    lines[i] = name + b": " + draw.pick(VALUES)
    return b"\n".join(lines)


def _header(draw, raw):
    head, body = _split(raw)
    return draw.pick(HEADERS) + head + body if draw.int(0, 1) else head.rstrip(b"\r\n") + b"\r\n" + draw.pick(HEADERS) + b"\r\n" + body


def _line_ends(draw, raw):
    return draw.pick([raw.replace(b"\r\n", b"\n"), raw.replace(b"\r\n", b"\r"), raw.replace(b"\n", b"\r\n"),
                      raw.replace(b"\n", b"\n ", 3)])


MUTATIONS = [_flip, _splice, _cut, _nul, _long_line, _charset, _as_base64, _as_qp, _words, _yaml, _header,
             _line_ends, _value, _value, _value]
