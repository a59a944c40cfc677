"""The archive's YAML (orders.yaml, match.yaml, …) written without PyYAML's
representer and emitter where that is sure to give the same bytes (issue 8: a
close writes one orders.yaml, and PyYAML builds a node per value in Python and
resolves every scalar's tag even with libyaml's emitter).

Only what is plain to write: dicts with str keys, lists, bool, None, int and
str of "word" characters (ASCII letters, digits, ``_ . -``, starting with a
letter, digit or ``_``; no blanks, so never folded), in block style with
PyYAML's layout (``default_flow_style=False``, indent 2, lists not indented
under their key).  A word that YAML would read as something else (``on``,
``3``, ``null``, ``2026-03-02``) is single-quoted, as PyYAML quotes it; its
resolver decides.  ``block`` returns None for anything else (floats, other
strings, other types, a value met twice, which PyYAML writes as an alias), and
the caller writes it with PyYAML as before.
"""
from __future__ import annotations

import re
from typing import Any

from yaml import ScalarNode
from yaml.resolver import Resolver

_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*\Z").match
_STR = "tag:yaml.org,2002:str"
_KEY_MAX = 100   # PyYAML writes a key of 128 characters or more as a complex key ("? ...")
_resolve = Resolver().resolve
_words: dict[str, str | None] = {}   # word -> how it is written, None: not a word this writes


def _word(s: str) -> str | None:
    out = _words.get(s)
    if out is None and s not in _words:
        if _WORD(s) is None or len(s) > _KEY_MAX:
            out = None
        elif _resolve(ScalarNode, s, (True, False)) == _STR:
            out = s
        else:   # read back as another type: PyYAML single-quotes it
            out = f"'{s}'"
        if len(_words) < 50_000:
            _words[s] = out
    return out


class _Other(Exception):
    """A value this does not write: PyYAML writes the whole document."""


def _scalar(x: Any, seen: set[int]) -> str:
    t = type(x)
    if t is str:
        out = _word(x)
        if out is None:
            raise _Other
        return out
    if t is bool:
        return "true" if x else "false"
    if x is None:
        return "null"
    if t is int:
        return str(x)
    if (t is dict or t is list) and not x:
        _once(x, seen)
        return "{}" if t is dict else "[]"
    raise _Other


def block(data: Any) -> bytes | None:
    """``yaml.dump(data, Dumper=CSafeDumper, allow_unicode=True, sort_keys=False,
    default_flow_style=False)`` in UTF-8 for a non-empty dict of plain values, or None."""
    if type(data) is not dict or not data:
        return None
    out: list[str] = []
    seen: set[int] = set()
    try:
        _mapping(data, 0, "", out, seen)
    except (_Other, RecursionError):
        return None
    out.append("")
    return "\n".join(out).encode("ascii")


def _once(x: Any, seen: set[int]) -> None:
    """PyYAML writes a collection met twice as an anchor and an alias."""
    if id(x) in seen:
        raise _Other
    seen.add(id(x))


def _mapping(d: dict, indent: int, lead: str, out: list[str], seen: set[int]) -> None:
    _once(d, seen)
    pad = " " * indent
    for k, v in d.items():
        if type(k) is not str:
            raise _Other
        key = _word(k)
        if key is None:
            raise _Other
        t = type(v)
        if t is dict and v:
            out.append(f"{lead}{key}:")
            _mapping(v, indent + 2, " " * (indent + 2), out, seen)
        elif t is list and v:
            out.append(f"{lead}{key}:")
            _sequence(v, indent, pad, out, seen)   # a list is not indented under its key
        else:
            out.append(f"{lead}{key}: {_scalar(v, seen)}")
        lead = pad


def _sequence(items: list, indent: int, lead: str, out: list[str], seen: set[int]) -> None:
    _once(items, seen)
    pad = " " * indent
    for v in items:
        t = type(v)
        if t is dict and v:
            _mapping(v, indent + 2, lead + "- ", out, seen)
        elif t is list and v:
            _sequence(v, indent + 2, lead + "- ", out, seen)
        else:
            out.append(f"{lead}- {_scalar(v, seen)}")
        lead = pad
