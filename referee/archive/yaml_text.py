"""The archive's YAML (orders.yaml, match.yaml, …): written by PyYAML, read back within limits.

``write`` is PyYAML's safe dumper in block style (libyaml's emitter where PyYAML was built
with it, ~10x faster than the pure-Python one; the same bytes either way).

``read`` and ``read_json`` read the archive back (``referee site``, ``replay``) within
limits (issue 32): an archive may come from a snapshot, a download or a hand that
changed it, so a file is never trusted to be the referee's own.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import yaml

from referee.intake import safe_yaml


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):   # type: ignore[misc]
    """A value met twice is written twice: the archive's reader refuses anchors and
    aliases (``read``: an alias bomb costs nothing then)."""

    def ignore_aliases(self, data) -> bool:
        return True


def write(data: Any) -> bytes:
    """``data`` as the archive's YAML, in UTF-8: block style, keys in their order."""
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                     default_flow_style=False).encode("utf-8")


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
