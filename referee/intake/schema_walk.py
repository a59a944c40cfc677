"""Reading a game's order schema beside the player's data, for the intake.

Pydantic reports a failed ``Union`` once a member ("literal['pass','ask']",
"function-after[_one(), Step]") with that member's tag inside ``loc``; a
player wrote one shape, so only the member of that shape is worth telling
(``{spielen: PE34}`` is a mapping: its key is wrong, not "not one of pass,
ask").  ``fold`` writes a value or key the player wrote in another letter
case as the schema spells it, where exactly one choice fits.
"""
from __future__ import annotations

import enum
import re
import types
import typing
from typing import Any, Literal, Union

from pydantic import BaseModel

_NONE = type(None)
MAX_DEPTH = 40   # orders are shallow; the loader caps nesting at 32 already


def bare(tp: Any) -> Any:
    """``tp`` without ``Optional``/``Annotated``: a Union of one real member is that member."""
    for _ in range(8):
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (Union, types.UnionType):
            members = [a for a in typing.get_args(tp) if a is not _NONE]
            if len(members) != 1:
                return tp
            tp = members[0]
        else:
            return tp
    return tp


def is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (Union, types.UnionType)


def members(tp: Any) -> list:
    return [bare(a) for a in typing.get_args(tp) if a is not _NONE]


def is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def choices(tp: Any) -> list[str] | None:
    """The words a Literal or Enum type allows, else None."""
    tp = bare(tp)
    if typing.get_origin(tp) is Literal:
        return [str(a) for a in typing.get_args(tp)]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return [str(m.value) for m in tp]
    return None


def field_names(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


def field_type(model: type[BaseModel], key: Any) -> Any:
    for name, f in model.model_fields.items():
        if key in (name, f.alias):
            return f.annotation
    return None


def _item_type(tp: Any, key: Any) -> Any:
    """The type of ``tp``'s part ``key`` (a field, a list index, a dict value), or None."""
    tp = bare(tp)
    if is_model(tp):
        return field_type(tp, key)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (list, tuple, set, frozenset) and isinstance(key, int) and args:
        return args[0]
    if origin is dict and len(args) == 2:
        return args[1]
    return None


def _member_for_tag(union: Any, tag: str) -> Any:
    for m in members(union):
        if is_model(m) and re.search(rf"(^|[\s,\[]){re.escape(m.__name__)}\]?$", tag):
            return m
        if typing.get_origin(m) is Literal and tag.startswith("literal["):
            return m
    for m in members(union):
        name = getattr(m, "__name__", str(m)).lower()
        if tag.lower().startswith(name):
            return m
    return None


def split_loc(schema: type[BaseModel], loc: tuple) -> tuple[tuple, list[tuple[tuple, Any, Any]], Any]:
    """(the path the player wrote, [(path of each union met, the member taken, the union)],
    the type at the end)."""
    path: list = []
    unions: list[tuple[tuple, Any, Any]] = []
    tp: Any = schema
    for part in loc:
        if tp is not None and is_union(bare(tp)) and isinstance(part, str):
            member = _member_for_tag(bare(tp), part)
            unions.append((tuple(path), member, bare(tp)))
            tp = member
            continue
        path.append(part)
        tp = _item_type(tp, part) if tp is not None else None
    return tuple(path), unions, tp


def type_at(schema: type[BaseModel], path: tuple) -> Any:
    tp: Any = schema
    for part in path:
        if tp is None:
            return None
        tp = _item_type(tp, part)
    return tp


def value_at(data: Any, path: tuple) -> Any:
    for part in path:
        in_list = isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)
        if not (in_list or (isinstance(data, dict) and part in data)):
            return None
        data = data[part]
    return data


def _fold_word(word: str, allowed: list[str]) -> str:
    if word in allowed:
        return word
    hits = [a for a in allowed if a.casefold() == word.strip().casefold()]
    return hits[0] if len(hits) == 1 else word


def fold(tp: Any, value: Any, depth: int = 0) -> Any:
    """``value`` with every word a Literal/Enum allows written as the schema spells it,
    where the player's spelling differs only in letter case and exactly one fits (keys
    stay as written: the reply places problems by them)."""
    if depth > MAX_DEPTH:
        return value
    tp = bare(tp)
    if is_union(tp):
        if isinstance(value, str):
            words = [w for m in members(tp) for w in (choices(m) or [])]
            return _fold_word(value, words) if words else value
        shaped = [m for m in members(tp) if is_model(m)] if isinstance(value, dict) else []
        return fold(shaped[0], value, depth + 1) if len(shaped) == 1 else value
    words = choices(tp)
    if words is not None:
        return _fold_word(value, words) if isinstance(value, str) else value
    if is_model(tp) and isinstance(value, dict):
        return {key: fold(field_type(tp, key), item, depth + 1) for key, item in value.items()}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (list, tuple, set, frozenset) and isinstance(value, list) and args:
        return [fold(args[0], v, depth + 1) for v in value]
    if origin is dict and len(args) == 2 and isinstance(value, dict):
        return {k: fold(args[1], v, depth + 1) for k, v in value.items()}
    return value
