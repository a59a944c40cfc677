"""Schema errors as a player reads them: one shape per value, words near a slip.

A value that may take several shapes (a word such as ``pass`` or a mapping
such as ``{play: PE09}``) fails once per shape in pydantic's report; the
player wrote one shape, so only the errors of that shape are kept (the
fewest, if several mappings would do).  A key or word the schema does not
know is answered with the one it most likely meant, at any depth.
"""
from __future__ import annotations

import difflib
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from referee.game_api.schema_words import flow, phrase_error

from . import schema_walk as sw


@dataclass
class Entry:
    path: tuple                 # where in the orders, as the player wrote them
    unions: list                # [(path, member, union)] met on the way
    end: Any                    # the schema's type at ``path`` (None when unknown)
    item: dict                  # pydantic's error, or a made-up "shape" one
    raw_loc: tuple = ()


def _fits(member: Any, value: Any) -> bool:
    origin = typing.get_origin(member)
    if isinstance(value, dict):
        return sw.is_model(member) or origin is dict
    if isinstance(value, list):
        return origin in (list, tuple, set, frozenset)
    return not (sw.is_model(member) or origin in (list, tuple, set, frozenset, dict))


def pick(schema: type[BaseModel], data: Any, items: list[dict]) -> list[Entry]:
    """The errors of the shape the player wrote, outermost union first."""
    entries = []
    for item in items:
        loc = tuple(p for p in item.get("loc", ()) if isinstance(p, (str, int)))
        path, unions, end = sw.split_loc(schema, loc)
        entries.append(Entry(path, unions, end, item, loc))
    points = sorted({u[0] for e in entries for u in e.unions}, key=len)
    for point in points:
        group = [e for e in entries if any(u[0] == point for u in e.unions)]
        if not group:
            continue
        value = sw.value_at(data, point)
        member = {id(e): next(u[1] for u in e.unions if u[0] == point) for e in group}
        union = next(u[2] for u in group[0].unions if u[0] == point)
        fitting = [e for e in group if _fits(member[id(e)], value)]
        if fitting:
            shapes: dict[int, list[Entry]] = {}
            for e in fitting:
                shapes.setdefault(id(member[id(e)]), []).append(e)
            keep = min(shapes.values(), key=len)
        else:
            keep = [Entry(point, [], union, {"type": "shape", "loc": point, "input": value})]
        entries = [e for e in entries if all(e is not g for g in group)] + keep
    return _slips_once(schema, entries)


def _slips_once(schema: type[BaseModel], entries: list[Entry]) -> list[Entry]:
    """``colum: 2`` makes 'colum' not allowed and 'column' missing; the first says it all."""
    meant = set()
    for e in entries:
        if e.item.get("type") == "extra_forbidden" and e.path:
            parent = sw.bare(sw.split_loc(schema, e.raw_loc[:-1])[2])
            guess = near(e.path[-1], sw.field_names(parent)) if sw.is_model(parent) else None
            if guess is not None:
                meant.add(e.path[:-1] + (guess,))
    return [e for e in entries if not (e.item.get("type") == "missing" and e.path in meant)]


def near(word: Any, allowed: list[str]) -> str | None:
    """The allowed word a slip most likely meant (letter case aside), else None."""
    if not isinstance(word, str) or not allowed:
        return None
    folded = {a.casefold(): a for a in allowed}
    hit = difflib.get_close_matches(word.strip().casefold(), list(folded), n=1, cutoff=0.6)
    return folded[hit[0]] if hit else None


def _mean(text: dict[str, str], guess: str | None) -> dict[str, str]:
    if guess is None:
        return text
    return {"en": f"{text['en']} Did you mean '{guess}'?", "de": f"{text['de']} Meintest du '{guess}'?"}


def _or(words: list[str], lang: str) -> str:
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + (" or " if lang == "en" else " oder ") + words[-1]


def _shapes(union: Any) -> dict[str, list[str]]:
    """The shapes a union allows, in words: {lang: [alternative, ...]}."""
    out: dict[str, list[str]] = {"en": [], "de": []}
    for m in sw.members(union):
        words = sw.choices(m)
        if words is not None:
            out["en"] += words
            out["de"] += words
        elif sw.is_model(m):
            keys = ", ".join(sw.field_names(m))
            out["en"].append(f"indented 'name: value' lines ({keys})")
            out["de"].append(f"eingerückte Zeilen 'Name: Wert' ({keys})")
        elif typing.get_origin(m) in (list, tuple, set, frozenset):
            out["en"].append("a list such as [a, b]")
            out["de"].append("eine Liste wie [a, b]")
    return out


def phrase(schema: type[BaseModel], e: Entry) -> dict[str, str]:
    """The entry's text in English and German, with the near word where there is one."""
    kind = e.item.get("type", "")
    value = e.item.get("input")
    if kind == "shape":
        alts = _shapes(e.end)
        field = str(e.path[-1]) if e.path else "orders"
        return _mean({"en": f"'{flow(value)}' does not fit '{field}': write {_or(alts['en'], 'en')}.",
                      "de": f"'{flow(value)}' passt nicht zu '{field}': schreibe {_or(alts['de'], 'de')}."},
                     near(value, [w for m in sw.members(e.end) for w in (sw.choices(m) or [])]))
    if kind == "extra_forbidden":
        parent = sw.bare(sw.split_loc(schema, e.raw_loc[:-1])[2])
        text = phrase_error(e.item)
        if not sw.is_model(parent):
            return text
        names = sw.field_names(parent)
        text = _mean(text, near(e.path[-1] if e.path else None, names))
        return {"en": f"{text['en']} Allowed: {', '.join(names)}.", "de": f"{text['de']} Erlaubt: {', '.join(names)}."}
    if kind in ("literal_error", "enum"):
        words = sw.choices(e.end) or []
        union = e.unions[-1][2] if e.unions else None
        alts = _shapes(union) if union is not None else {"en": words, "de": words}
        return _mean({"en": f"'{flow(value)}' is not one of the allowed values: {_or(alts['en'], 'en')}.",
                      "de": f"'{flow(value)}' ist keiner der erlaubten Werte: {_or(alts['de'], 'de')}."},
                     near(value, words))
    if kind == "union_tag_invalid":
        ctx = e.item.get("ctx") or {}
        tags = [t.strip().strip("'\"") for t in str(ctx.get("expected_tags", "")).split(",") if t.strip()]
        tag = ctx.get("tag", value)
        return _mean({"en": f"'{flow(tag)}' is not one of the allowed kinds: {_or(tags, 'en')}.",
                      "de": f"'{flow(tag)}' ist keine der erlaubten Arten: {_or(tags, 'de')}."}, near(tag, tags))
    return phrase_error(dict(e.item, loc=e.path))
