"""``check_orders``: a player's ``orders:`` mapping against the game, located.

Two passes, as a player would want them: first the game's pydantic schema for
the stage (shape and allowed values; every error reported at once), then —
only if the shape is right — the game's ``validate`` (rules of play).  Each
problem points at its line and column in the mail as sent.
"""
from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, ValidationError

from referee.game_api import contract

from .document import Document
from .problems import LANGS, Located, by_place
from .schema_errors import phrase_error

ORDERS = "orders"


def _path(where: str) -> tuple:
    parts: list[Any] = []
    for part in (where or "").split("."):
        if part:
            parts.append(int(part) if part.isdigit() else part)
    return tuple(parts)


def _place(doc: Document, inner: tuple, code: str, severity: str, params: dict,
           text: dict[str, str], missing: bool = False, at_key: bool = False) -> Located:
    path = (ORDERS,) + inner
    line, column = doc.key_position(path) if at_key else doc.position(path)
    found = doc.resolve(path)
    if missing and inner and found[-1:] != inner[-1:]:
        found = found + inner[-1:]   # name the missing key, placed at its parent
    where = ".".join(str(p) for p in found)
    return Located(code, severity, line, column, where, params, text, doc.snippet(line))


def _allowed_names(schema, loc: tuple, text: dict[str, str]) -> dict[str, str]:
    """A key the orders may not hold, at the top of 'orders:': say which keys they
    may hold, and the near one if it looks like a slip ('auswal' for 'auswahl')."""
    fields = getattr(schema, "model_fields", None)
    if not fields or len(loc) != 1 or not isinstance(loc[0], str):
        return text
    names = [f.alias or name for name, f in fields.items()]
    close = difflib.get_close_matches(loc[0], names, n=1, cutoff=0.6)
    en = f" Did you mean '{close[0]}'?" if close else ""
    de = f" Meintest du '{close[0]}'?" if close else ""
    return {"en": f"{text['en']}{en} Allowed: {', '.join(names)}.",
            "de": f"{text['de']}{de} Erlaubt: {', '.join(names)}."}


def schema_problems(error: ValidationError, doc: Document, schema=None) -> list[Located]:
    out = []
    for item in error.errors(include_url=False):
        loc = tuple(p for p in item.get("loc", ()) if isinstance(p, (str, int)))
        text = phrase_error(item)
        if item.get("type") == "extra_forbidden":
            text = _allowed_names(schema, loc, text)
        params = {"type": item.get("type", ""), "loc": list(loc)}
        kind = str(item.get("type", "invalid"))
        out.append(_place(doc, loc, "orders." + kind, "error", params, text, missing=kind == "missing",
                          at_key=kind == "extra_forbidden"))
    return out


def game_problems(rules: contract.GameRules, problems: list[contract.Problem], doc: Document) -> list[Located]:
    out = []
    languages = tuple(dict.fromkeys(LANGS + tuple(getattr(rules, "languages", ()))))
    for p in problems:
        text = {lang: contract.phrase(rules, p, lang) for lang in languages}
        out.append(_place(doc, _path(p.where), p.code, p.severity, dict(p.params), text))
    return out


def check_orders(rules: contract.GameRules, state: Any, stage: str, player: str, orders: dict,
                 doc: Document) -> tuple[BaseModel | None, list[Located]]:
    """(the game's order model or None, every problem in reading order).

    The model is returned only when there is no error; warnings come with it."""
    schema = rules.order_schema(state, stage)
    try:
        model = schema.model_validate(orders if orders is not None else {})
    except ValidationError as error:
        return None, by_place(schema_problems(error, doc, schema))
    located = by_place(game_problems(rules, list(rules.validate(state, player, model)), doc))
    if any(p.is_error for p in located):
        return None, located
    return model, located
