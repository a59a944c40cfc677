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

``read`` and ``read_json`` read the archive back (``referee site``, ``replay``) within
limits (issue 32): an archive may come from a snapshot, a download or a hand that
changed it, so a file is never trusted to be the referee's own.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import yaml
from yaml import ScalarNode
from yaml.resolver import Resolver

from referee.intake import safe_yaml

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


# -- reading the archive back ------------------------------------------------------
# Far above what a match writes (an orders.yaml of 60 seats' full orders, a turn's table
# talk), far below what would cost the reader seconds or hundreds of MB: the node cap is
# counted on the parser's events, before a tree is built (composing 1,000,000 nodes of a
# 4 MB file costs ~500 MB).
MAX_BYTES = 4_000_000
MAX_NODES = 100_000
MAX_DEPTH = 64


class Broken(ValueError):
    """An archive file the referee did not write as it is: damaged, cut, or changed by hand."""

    def __init__(self, path: Path | str, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path, self.why = str(path), why


_SAID = {"yaml.alias": "anchors or aliases ('&', '*'), which the referee never writes",
         "yaml.too_deep": "values nested deeper than {limit} levels",
         "yaml.too_many_nodes": "more than {limit} values",
         "yaml.duplicate_key": "the key '{key}' twice",
         "yaml.tag": "a '!' tag, which the referee never writes",
         "yaml.syntax": "no valid YAML ({problem})"}


def _text(path: Path) -> str:
    size = os.stat(path).st_size
    if size > MAX_BYTES:
        raise Broken(path, f"{size:,} bytes, more than the {MAX_BYTES:,} an archive file may have")
    with open(path, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:   # grew since
        raise Broken(path, f"more than the {MAX_BYTES:,} bytes an archive file may have")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Broken(path, f"not UTF-8 text (byte {e.start})") from None


def _refused(path: Path, code: str, line: int | None, params: dict | None) -> Broken:
    why = _SAID.get(code, code).format_map({"limit": "", "key": "", "problem": "", **(params or {})})
    return Broken(path, why + (f", line {line + 1}" if line is not None else ""))


def _count_events(path: Path, text: str) -> None:
    """The node and depth caps and the refusal of anchors, on the parser's events (no tree)."""
    loader = safe_yaml.StrictLoader(text)
    nodes = depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue
            line = event.start_mark.line if event.start_mark else None
            if isinstance(event, yaml.AliasEvent) or event.anchor is not None:
                raise _refused(path, "yaml.alias", line, None)
            nodes += 1
            if nodes > MAX_NODES:
                raise _refused(path, "yaml.too_many_nodes", line, {"limit": MAX_NODES})
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _refused(path, "yaml.too_deep", line, {"limit": MAX_DEPTH})
    except yaml.YAMLError:
        pass   # the loader below says what is wrong, and where
    finally:
        loader.dispose()


def read(path: Path | str) -> Any:
    """An archive YAML file, read with the intake's strict loader within the limits above;
    ``Broken`` says what is wrong with it."""
    path = Path(path)
    text = _text(path)
    _count_events(path, text)
    try:
        return safe_yaml.load(text, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH, max_nodes=MAX_NODES)
    except safe_yaml.YamlRefused as e:
        raise _refused(path, e.code, e.line, e.params) from None


def read_match(match_dir: Path | str) -> dict:
    """A match folder's match.yaml (``read``), which must be a mapping."""
    meta = read(Path(match_dir) / "match.yaml")
    if not isinstance(meta, dict):
        raise Broken(Path(match_dir) / "match.yaml", "no mapping of a match's facts")
    return meta


def read_json(path: Path | str) -> Any:
    """An archive JSON file (turn.json) within the byte cap; ``Broken`` if it is none."""
    path = Path(path)
    try:
        return json.loads(_text(path))
    except json.JSONDecodeError as e:
        raise Broken(path, f"no valid JSON ({e.msg}, line {e.lineno})") from None
    except RecursionError:
        raise Broken(path, "values nested too deep") from None
