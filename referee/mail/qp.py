"""A text body as ``email.contentmanager`` writes it with ``cte="quoted-printable"``,
in CRLF wire form, several times faster.

The library encodes ``text.encode(charset)`` with ``quoprimime.body_encode``:
every character goes through ``str.translate`` with a 256-entry table of
strings, then every line through a Python loop; on a 100 kB report that is
milliseconds.  Here ``=`` and each distinct unsafe byte are replaced in one
C-speed pass each, and only lines that need it (longer than 78 columns, or
ending in blank space) are broken, by the library's own rule (``_wrap``).
The tests compare both on many inputs.  A broken line up to 1 kB is kept (``_kept``,
2,048 of them, a few MB at most): the lines the style sheet inlines (``<td style=3D"...">``)
recur in every reader's report; in a close's mails nine in ten long lines were broken before.
"""
from __future__ import annotations

import functools

MAX_LINE = 78   # policy.SMTP.max_line_length, which the library passes as maxlinelen
# Bytes the library writes as they are: printable ASCII and TAB ('=' is replaced
# first, so it counts as safe after that; CR and LF never reach the encoder:
# lines were split and joined with LF).
_SAFE = bytes(range(0x20, 0x7F)) + b"\t\n"


def _wrap(line: str) -> str:
    """One encoded line broken as ``quoprimime.body_encode`` breaks it (CRLF between pieces)."""
    out = []
    start = 0
    last_start = len(line) - 1 - MAX_LINE
    while start <= last_start:
        stop = start + MAX_LINE - 1
        if line[stop - 2] == "=":       # never split an =XX: the '=' ends this piece and starts the next
            out.append(line[start:stop - 1])
            start = stop - 2
        elif line[stop - 1] == "=":
            out.append(line[start:stop])
            start = stop - 1
        else:
            out.append(line[start:stop] + "=")
            start = stop
    if line and line[-1] in " \t":       # blank space at a line's end is quoted
        room = start - last_start
        quoted = f"={ord(line[-1]):02X}"
        if room >= 3:
            tail = quoted
        elif room == 2:
            tail = line[-1] + "=\r\n"
        else:
            tail = "=\r\n" + quoted
        out.append(line[start:-1] + tail)
    else:
        out.append(line[start:])
    return "\r\n".join(out)


_kept = functools.lru_cache(maxsize=2048)(_wrap)
_KEPT_LINE = 1024   # longer lines (an order page's data, a pasted paragraph) are broken anew


def body(text: str) -> str:
    """The quoted-printable payload of ``text`` (UTF-8) with CRLF line ends, as the
    generator writes it for a part made by ``set_content(text, cte="quoted-printable")``."""
    # contentmanager: text.encode().splitlines() joined with LF plus a final LF
    # (bytes.splitlines breaks at CR, LF and CRLF only)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    data = text.encode("utf-8").replace(b"=", b"=3D")
    # one pass per distinct unsafe byte (a report has a few dozen at most);
    # what a pass writes (=XX) is safe, so no pass undoes another
    for byte in set(data.translate(None, _SAFE)):
        data = data.replace(bytes((byte,)), b"=%02X" % byte)
    # one list made at once, not a line at a time: 13% of this function's time on a close's mails
    return "\r\n".join([line if len(line) <= MAX_LINE and line[-1:] not in (" ", "\t")
                        else _kept(line) if len(line) <= _KEPT_LINE else _wrap(line)
                        for line in data.decode("ascii").split("\n")])
