"""``check_orders``: a player's ``orders:`` mapping against the game, located.

Two passes, as a player would want them: first the game's pydantic schema for
the stage (shape and allowed values; every error reported at once), then the
game's ``validate`` (rules of play) — on the parts whose shape is right when
another part's is not, so one mail learns every problem.  Words in another
letter case are read as the schema spells them (``Zusatz`` for ``zusatz``).
Each problem points at its line and column in the mail as sent.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import BaseModel, ValidationError

from referee.game_api import contract

from . import schema_walk, shapes
from .document import Document
from .problems import LANGS, Located, by_place

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


def schema_problems(entries: list[shapes.Entry], doc: Document, schema) -> list[Located]:
    out = []
    for e in entries:
        kind = str(e.item.get("type", "invalid"))
        params = {"type": kind, "loc": list(e.path)}
        out.append(_place(doc, e.path, "orders." + kind, "error", params, shapes.phrase(schema, e),
                          missing=kind == "missing", at_key=kind == "extra_forbidden"))
    return out


def _cuts(entries: list[shapes.Entry]) -> set[tuple]:
    """Where to cut each faulty part away: its list item, else its key at the top."""
    cuts = set()
    for e in entries:
        at = next((i for i, part in enumerate(e.path) if isinstance(part, int)), None)
        cuts.add(e.path[:at + 1] if at is not None else e.path[:1])
    return cuts


def _without(data: Any, cuts: set[tuple], here: tuple = ()) -> tuple[Any, dict[tuple, list[int]]]:
    """``data`` with the cut parts left out, and for each list that lost items the
    original index of every item kept (to place the game's problems where written)."""
    kept: dict[tuple, list[int]] = {}
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            if here + (k,) not in cuts:
                out[k], inner = _without(v, cuts, here + (k,))
                kept.update(inner)
        return out, kept
    if isinstance(data, list):
        idx = [i for i in range(len(data)) if here + (i,) not in cuts]
        items = []
        for i in idx:
            item, inner = _without(data[i], cuts, here + (i,))
            items.append(item)
            kept.update(inner)
        if len(idx) != len(data):
            kept[here] = idx
        return items, kept
    return data, kept


def _written(where: str, kept: dict[tuple, list[int]]) -> str:
    path = list(_path(where))
    for i in range(len(path)):
        idx = kept.get(tuple(path[:i]))
        if idx is not None and isinstance(path[i], int) and path[i] < len(idx):
            path[i] = idx[path[i]]
    return ".".join(str(p) for p in path)


def other_parts(rules, state, stage, player, schema, data, entries, doc) -> list[Located]:
    """The game's errors in the parts of the orders whose shape is right, checked as if
    the faulty parts were not there: a mail learns every problem at once."""
    cuts = _cuts(entries)
    if not isinstance(data, dict) or not cuts or () in cuts:
        return []
    rest, kept = _without(data, cuts)
    try:
        model = schema.model_validate(rest)
        problems = [p for p in rules.validate(state, player, model) if p.is_error]
    except Exception:   # a part that needs the faulty one: its shape problem is answer enough
        return []
    moved = [dataclasses.replace(p, where=_written(p.where, kept)) for p in problems]
    # only what is placed apart from every cut: a problem inside a faulty part, or about a
    # whole that lost a part (a list one item short), may be the cut's doing, not the player's
    return [p for p in game_problems(rules, moved, doc, data) if _apart(_path(p.where)[1:], cuts)]


def _apart(path: tuple, cuts: set[tuple]) -> bool:
    return bool(path) and not any(path[:len(c)] == c or c[:len(path)] == path for c in cuts)


def game_problems(rules: contract.GameRules, problems: list[contract.Problem], doc: Document,
                  orders: Any = None) -> list[Located]:
    out = []
    languages = tuple(dict.fromkeys(LANGS + tuple(getattr(rules, "languages", ()))))
    for p in problems:
        text = {lang: contract.phrase(rules, p, lang) for lang in languages}
        text = _near_choice(text, p, orders)
        out.append(_place(doc, _path(p.where), p.code, p.severity, dict(p.params), text))
    return out


def _near_choice(text: dict[str, str], problem: contract.Problem, orders: Any) -> dict[str, str]:
    """A game's refusal that lists the ``choices`` (``hamliton`` among madison, hamilton, …)
    also names the one a slip most likely meant, as the schema's refusals do."""
    choices = problem.params.get("choices")
    if isinstance(choices, str):
        choices = [c.strip() for c in choices.replace("|", ",").split(",")]
    written = schema_walk.value_at(orders, _path(problem.where))
    guess = shapes.near(written, [str(c) for c in choices]) if isinstance(choices, (list, tuple)) else None
    if guess is None or guess == written:
        return text
    said = {"en": f" Did you mean '{guess}'?", "de": f" Meintest du '{guess}'?"}
    return {lang: t + said.get(lang, said["en"]) for lang, t in text.items()}


def check_orders(rules: contract.GameRules, state: Any, stage: str, player: str, orders: dict,
                 doc: Document) -> tuple[BaseModel | None, list[Located]]:
    """(the game's order model or None, every problem in reading order).

    The model is returned only when there is no error; warnings come with it."""
    schema = rules.order_schema(state, stage)
    data = schema_walk.fold(schema, orders if orders is not None else {})
    try:
        model = schema.model_validate(data)
    except ValidationError as error:
        entries = shapes.pick(schema, data, error.errors(include_url=False))
        found = schema_problems(entries, doc, schema)
        return None, by_place(found + other_parts(rules, state, stage, player, schema, data, entries, doc))
    located = by_place(game_problems(rules, list(rules.validate(state, player, model)), doc, data))
    if any(p.is_error for p in located):
        return None, located
    return model, located
