"""How the store's rows become dicts and values become JSON columns: times in UTC,
a match's spec decoded once per distinct text, a turn's big columns (state,
result) decoded on first use."""
from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from referee.game_api import fastjson
from referee.store import spec_cache

_JSON = {"spec", "state", "awaiting", "result", "orders", "standings"}


def _iso(t: datetime | None) -> str | None:
    """Times are stored in UTC, so that stored texts compare in time order."""
    if t is None:
        return None
    return (t.astimezone(UTC) if t.tzinfo else t).isoformat()


def _row(row) -> dict | None:
    if row is None:
        return None
    out = {}
    for k in row.keys():
        v = row[k]
        if k == "spec":
            v = spec_cache.decode(v)   # a match's spec: decoded once per distinct text
        elif k in _JSON and isinstance(v, str):
            v = fastjson.loads(v)
        out[k] = v
    return out


_LAZY = ("state", "result", "standings")


class _TurnRow(dict):
    """A turn's row; its big JSON columns (state, result) and the standings are decoded on first use."""

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        if key in _LAZY and isinstance(value, str):
            value = fastjson.loads(value)
            self[key] = value
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def raw(self, key: str) -> str | None:
        """A big JSON column's text as stored, None once decoded (lets a cache
        check that the state it holds is the one in the row)."""
        value = dict.get(self, key)
        return value if isinstance(value, str) else None


def _turn(row) -> dict | None:
    if row is None:
        return None
    out = _TurnRow(zip(row.keys(), tuple(row)))
    out["seed"] = int(out["seed"])
    out["awaiting"] = fastjson.loads(out["awaiting"])
    return out


def _dumps(v: Any) -> str:
    """A JSON column's text, which ``fastjson.loads`` reads back as the value (orjson; a state
    or a result is 100 kB and more)."""
    return fastjson.dumps_sorted(v)


def encoded_parts(value: dict) -> dict[str, str]:
    """Each entry's JSON text (``_dumps``) of a dict with str keys: the parts a close
    both stores (``joined``) and reads back for its record, encoded once."""
    return {k: _dumps(v) for k, v in value.items()}


def joined(parts: dict[str, str]) -> str:
    """The dict's JSON text from its entries' (``encoded_parts``), keys sorted: what
    ``_dumps`` of the whole dict reads back as."""
    return "{" + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{parts[k]}" for k in sorted(parts)) + "}"
