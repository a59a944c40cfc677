"""Decoded match specs, kept by their stored text.

Every mail asks for its match, and decoding the spec's JSON was a fixed cost of
each (~40 µs for a 20-seat match).  The row is still read every time, so what
the store holds now is what is seen; only the decoding is skipped when the
text is one decoded before.  The key is the text itself, so a cached entry can
never stand for other contents (a spec written anew is a new key).  Callers
get their own copy (``marshal`` of the decoded value: half the cost of
``json.loads``), so one caller changing its dict cannot change another's.
"""
from __future__ import annotations

import json
import marshal
from typing import Any

_LIMIT = 4096      # distinct spec texts kept (a few MB at most); then it starts afresh
_kept: dict[str, bytes] = {}


def decode(text: Any) -> Any:
    """``json.loads(text)`` for a spec column (a value not a ``str`` passes as it is)."""
    if not isinstance(text, str):
        return text
    packed = _kept.get(text)
    if packed is None:
        value = json.loads(text)
        try:
            packed = marshal.dumps(value)
        except ValueError:   # not plain JSON data (cannot happen for json.loads output): not kept
            return value
        if len(_kept) >= _LIMIT:
            _kept.clear()
        _kept[text] = packed
        return value
    return marshal.loads(packed)
