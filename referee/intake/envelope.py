"""``read_envelope``: the fixed top level of every order or command document.

```yaml
match: ff-winter        # required; compared case-insensitively (stored lower case)
player: madison         # required; likewise
key: 4F7Q-K2XD-9MRA     # the player's secret (checked by the core, never echoed)
turn: 12                # "12" is taken as 12
orders: {...}           # either orders ...
command: status         # ... or a command; its other top-level keys become ``args``
```

Top-level keys are read case-insensitively.  Problems never quote the key.
A German player may write the envelope in German (``ALIASES``): ``partie:``,
``spieler:``, ``schluessel:``/``schlüssel:``, ``zug:``, ``befehle:``,
``kommando:``, ``nachricht:``/``presse:`` mean the same as the English keys.
"""
from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .document import Document
from .problems import Located

FIELDS = ("match", "player", "key", "turn", "orders", "command", "press")
REQUIRED = ("match", "player")
# the envelope's keys in German (lower case): read exactly like the English ones
ALIASES = {"partie": "match", "spieler": "player", "spielerin": "player", "schluessel": "key",
           "schlüssel": "key", "zug": "turn", "befehle": "orders", "befehl": "orders", "kommando": "command",
           "nachricht": "press", "presse": "press"}
GERMAN = {field: name for name, field in reversed(ALIASES.items())}   # the first German word of each field
_KNOWN = FIELDS + tuple(GERMAN[f] for f in FIELDS)   # what a misspelt key may be near


def canonical(name: str) -> str:
    """The English field a top-level key means (``Partie`` -> ``match``), else the key lower-cased."""
    low = name.strip().lower()
    return ALIASES.get(low, low)

_EXPECTED = {
    "text": ("a single word or text", "ein einzelnes Wort oder ein Text"),
    "number": ("a whole number such as 12", "eine ganze Zahl wie 12"),
    "mapping": ("indented 'name: value' lines", "eine Folge eingerückter Zeilen 'Name: Wert'"),
}


class Envelope(BaseModel):
    model_config = ConfigDict(frozen=True)

    match: str
    player: str
    key: str | None = None
    turn: int | None = None
    orders: dict | None = None
    command: str | None = None
    args: dict = Field(default_factory=dict)


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return None
    return str(value).strip()


def _turn(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _wrong_type(doc: Document, name: str, real: str, kind: str) -> Located:
    en, de = _EXPECTED[kind]
    return doc.problem("envelope.wrong_type", (real,), field=name, expected=en, expected_de=de)


def _unknown(doc: Document, real: str, allowed: tuple[str, ...]) -> Located:
    close = difflib.get_close_matches(real.lower(), _KNOWN, n=1, cutoff=0.6)
    return doc.problem(
        "envelope.unknown_key", (real,), at_key=True, field=real, allowed=", ".join(allowed),
        allowed_de=", ".join(f"{GERMAN[f]} ({f})" for f in allowed),
        suggestion_en=f" (did you mean '{close[0]}'?)" if close else "",
        suggestion_de=f" (meintest du '{close[0]}'?)" if close else "")


def _misspelt_body(values: dict[str, Any]) -> bool:
    """An unknown key that reads like 'orders' or 'command' ('oders:'): its own
    problem says so at its line, so "neither orders nor command" would only add noise."""
    for name in values:
        if name not in FIELDS:
            close = difflib.get_close_matches(name, _KNOWN, n=1, cutoff=0.6)
            if close and canonical(close[0]) in ("orders", "command"):
                return True
    return False


def read_envelope(doc: Document) -> Envelope | list[Located]:
    """The envelope of a document, or every problem with it (located)."""
    problems: list[Located] = []
    spelled: dict[str, str] = {}   # lower-case name -> key as written
    values: dict[str, Any] = {}
    for real, value in doc.data.items():
        name = canonical(str(real))
        if name in values:  # "Match" and "match", or "match" and "partie": two keys for one field
            problems.append(doc.problem("yaml.duplicate_key", (real,), key=str(real)))
            continue
        spelled[name], values[name] = real, value

    # "press:" is table talk (issue 18): the command "press", its mapping (to:, text:) or text its arguments
    has_orders, has_command = "orders" in values, "command" in values or "press" in values
    if has_orders and has_command:
        problems.append(doc.problem("envelope.both", (spelled.get("command") or spelled["press"],)))
    elif not has_orders and not has_command and not _misspelt_body(values):
        problems.append(doc.problem("envelope.neither"))
    for name in REQUIRED:
        if name not in values or _text(values[name]) in (None, ""):
            if name in values and values[name] is not None:
                problems.append(_wrong_type(doc, name, spelled[name], "text"))
            else:
                problems.append(doc.problem("envelope.missing", (spelled.get(name, name),), field=name))

    out: dict[str, Any] = {"args": {}}
    for name, value in values.items():
        real = spelled[name]
        if name in ("match", "player"):
            text = _text(value)
            if text:
                out[name] = text.lower()
        elif name == "key":
            if value is not None:
                text = _text(value)
                if text is None:
                    problems.append(_wrong_type(doc, name, real, "text"))
                else:
                    out["key"] = text
        elif name == "turn":
            if value is not None:
                number = _turn(value)
                if number is None:
                    problems.append(_wrong_type(doc, name, real, "number"))
                else:
                    out["turn"] = number
        elif name == "orders":
            if value is None:  # "orders:" with nothing under it: empty orders
                out["orders"] = {}
            elif not isinstance(value, dict):
                problems.append(_wrong_type(doc, name, real, "mapping"))
            else:
                out["orders"] = value
        elif name == "command":
            text = _text(value)
            if not text:
                problems.append(_wrong_type(doc, name, real, "text"))
            else:
                out["command"] = text.lower()
        elif name == "press":
            out.setdefault("command", "press")
            if isinstance(value, dict):
                out["args"].update({str(k).strip().lower(): v for k, v in list(value.items())[:len(FIELDS) + 8]})
            elif value is not None:
                out["args"].setdefault("text", value)
        elif has_command and not has_orders:
            out["args"][name] = value
        else:
            problems.append(_unknown(doc, str(real), FIELDS))
    if problems:
        return problems
    return Envelope(**out)
