"""JSON written by orjson (several times faster than ``json``), with exactly what
``json.dumps`` would give where it matters.

orjson and ``json`` agree on dicts with str keys, lists, tuples, str, int and
bool and None; they differ on floats (``1e-05`` against ``0.00001``, NaN as
``null``), on non-str keys, on ints beyond 64 bits and on types ``json``
refuses (datetimes, dataclasses, subclasses).  So orjson writes only data of
the plain kinds (``plain``, one pass over it), anything else is left to
``json``, which writes or refuses it as before.
"""
from __future__ import annotations

import json
import math
from typing import Any

import orjson

_REFUSE_OTHERS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def plain(data: Any, floats: bool) -> bool:
    """True if ``data`` holds only dicts, lists, tuples, str, int, bool and None (and,
    with ``floats``, finite floats): what orjson writes as ``json`` does (keys
    orjson refuses itself)."""
    stack = [data]
    pop, push = stack.pop, stack.append
    while stack:
        x = pop()
        t = type(x)
        if t is dict:
            x = x.values()
        elif not (t is list or t is tuple):   # the top only: a container's leaves are seen below
            return t is str or t is int or t is bool or x is None or (floats and t is float and math.isfinite(x))
        for v in x:   # leaves looked at here, never pushed (most of a state is leaves)
            t = type(v)
            if t is str or t is int or t is bool or v is None:
                continue
            if t is dict or t is list or t is tuple:
                push(v)
            elif not (floats and t is float and math.isfinite(v)):
                return False
    return True


# orjson reads an integer beyond 64 bits as a float, ``json`` as an int: a text with a run of
# 19 digits (every such integer has one) is left to ``json``.  Found at C speed: every digit
# becomes "9", every other byte a blank, and the run is looked for.
_DIGITS = bytes(57 if chr(b).isdigit() and b < 128 else 32 for b in range(256))
_LONG_RUN = b"9" * 19


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``, through orjson where that gives the same value (about
    twice as fast): not for integers beyond 64 bits, and what orjson refuses (NaN,
    Infinity, a lone surrogate, an exponent beyond a float) goes to ``json``, which
    reads or refuses it as before."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if _LONG_RUN not in raw.translate(_DIGITS):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def dumps_sorted(data: Any) -> str:
    """A value that ``json.loads`` reads back as ``json.loads(json.dumps(data,
    sort_keys=True, ensure_ascii=False))`` does (the text may differ: no blanks)."""
    if plain(data, floats=True):
        try:
            return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | _REFUSE_OTHERS).decode("utf-8")
        except (TypeError, orjson.JSONEncodeError):   # a non-str key, an int beyond 64 bits, a surrogate
            pass
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def canonical_or_none(data: Any) -> bytes | None:
    """The UTF-8 bytes of ``json.dumps(data, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)`` (``contract.canonical_json``) through orjson, byte for byte, or None where orjson would differ or
    refuse: no floats (its forms differ, e.g. ``0.00001`` against ``1e-05``), no non-str keys,
    no ints beyond 64 bits, no lone surrogates, no subclasses."""
    if plain(data, floats=False):
        try:
            return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | _REFUSE_OTHERS)
        except (TypeError, orjson.JSONEncodeError):
            pass
    return None


def dumps_indent1(data: Any) -> bytes:
    """The UTF-8 bytes of ``json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True)``
    (which runs the pure-Python encoder: ``json`` has no C path for indented output)."""
    if plain(data, floats=False):
        try:
            return _indent1(data)
        except (TypeError, orjson.JSONEncodeError):
            pass
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True).encode("utf-8")


def _indent1(data: Any) -> bytes:
    """orjson's text of ``data`` indented by one blank a level.  orjson writes no blank of its
    own in its compact text, and in its indented text only its indentation (two a level,
    after a line break) and the one after a key's colon; so where no string holds two blanks
    in a row (its compact text has none), every pair of blanks is indentation, halved by one
    replace; any other text is left to ``_halve_indent``'s pass a depth.  (The compact text is
    the cheapest sure test: a search of the indented text for two blanks not after a line
    break cannot use a fast substring search.)"""
    option = orjson.OPT_SORT_KEYS | _REFUSE_OTHERS
    indented = orjson.dumps(data, option=option | orjson.OPT_INDENT_2)
    if b"  " not in orjson.dumps(data, option=option):
        return indented.replace(b"  ", b" ")
    return _halve_indent(indented)


def _halve_indent(text: bytes) -> bytes:
    """orjson's two-space indentation as one space.  A line break in orjson's output is
    always structure (strings escape theirs), so every run of blanks after one is
    indentation; the deepest level is rewritten first, through a byte JSON never holds
    unescaped (\\x01), so a shallower pass cannot take part of a deeper line."""
    depth = 1
    while b"\n" + b"  " * depth in text:
        depth += 1
    for level in range(depth - 1, 0, -1):
        text = text.replace(b"\n" + b"  " * level, b"\n" + b"\x01" * level)
    return text.replace(b"\x01", b" ")
