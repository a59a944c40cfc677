"""The store's JSON columns: written and read by orjson, with ``json`` for what orjson refuses.

orjson writes what it can write exactly (its floats read back as the same floats; NaN and
infinities, which JSON has not, it writes as null); a value it refuses (an int beyond 64 bits,
a non-str key, a subclass, a datetime) is written by ``json`` after one blank, which both read
past.  The reader sends such a text to ``json`` again: orjson would read an int beyond 64 bits
as a float.
"""
from __future__ import annotations

import json
import math
from typing import Any

import orjson

_SORTED = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME
           | orjson.OPT_PASSTHROUGH_DATACLASS)


def dumps_sorted(data: Any) -> str:
    """``data`` as JSON text with sorted keys, which ``loads`` reads back as the same value."""
    try:
        return orjson.dumps(data, option=_SORTED).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return " " + json.dumps(_finite(data), sort_keys=True, ensure_ascii=False)


def _finite(data: Any) -> Any:
    """``data`` with NaN and infinities as None, as orjson writes them (``json`` would write
    ``NaN``/``Infinity``, which is not JSON)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_finite(v) for v in data]
    return data


def loads(text: str | bytes) -> Any:
    """A JSON column's value (orjson; ``json`` for a text ``dumps_sorted`` left to it, or one orjson refuses)."""
    if text[:1] in (" ", b" "):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
