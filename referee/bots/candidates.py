"""The bot's candidate moves: legal ``orders:`` mappings drawn with the game's own
``random_orders`` on states the seat cannot tell from the real one, plus its
``default_orders``, without repeats (canonical JSON).

In a sequential game whose orders are a plan of steps (Nations, 1848) a candidate is a
plan of one step, and only a step the game's plan preview says would run now
(``plan.would_run``): the bot then chooses every action itself, and a step that
cannot run would only ask it again."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from referee.game_api.contract import GameRules, Rng, canonical_json
from referee.game_api.scripted import random_player

RUNS_NOW = "plan.would_run"
WONT_RUN = frozenset({"plan.would_run_out", "plan.would_ask"})


def as_mapping(model: BaseModel) -> dict[str, Any]:
    """An order model as the ``orders:`` mapping a player would send."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def checked(rules: GameRules, state: Any, seat: str, stage: str, raw: dict) -> BaseModel | None:
    """``raw`` as the stage's order model if the game accepts it in ``state`` (and, for a
    plan, it would run now); else None."""
    try:
        model = rules.order_schema(state, stage).model_validate(raw)
    except (ValidationError, ValueError, TypeError):
        return None
    problems = rules.validate(state, seat, model)
    if any(p.is_error for p in problems):
        return None
    codes = {p.code for p in problems}
    if codes & WONT_RUN:
        return None
    return model


def _one_step_plans(raw: dict) -> list[dict]:
    """Each step of a drawn plan as a plan of its own (no 'ask', no other keys)."""
    return [{"steps": [step]} for step in raw["steps"] if step != "ask"]


def candidates(rules: GameRules, dets: list[Any], seat: str, stage: str, rng: Rng,
               draws: int) -> list[tuple[dict, BaseModel]]:
    """Up to ``draws`` random legal orders and the default, each once, in the order found.
    ``dets`` are determinized states (never the real one): each draw uses the next."""
    draw = random_player(rules)
    found: dict[str, tuple[dict, BaseModel]] = {}

    def offer(raw: dict, state: Any) -> None:
        key = canonical_json(raw)
        if key not in found:
            model = checked(rules, state, seat, stage, raw)
            if model is not None:
                found[key] = (raw, model)

    first = dets[0]
    try:
        offer(as_mapping(rules.default_orders(first, seat)), first)
    except (ValidationError, ValueError, TypeError):
        pass
    for i in range(draws):
        state = dets[i % len(dets)]
        raw = draw(state, seat, rng)
        if isinstance(raw.get("steps"), list):
            for one in _one_step_plans(raw):
                offer(one, first)
        else:
            offer(raw, first)
    if not found:   # nothing runs now: let the game's default decide
        model = rules.default_orders(first, seat)
        found["default"] = (as_mapping(model), model)
    return list(found.values())


def with_standard_parts(rules: GameRules, state: Any, seat: str, stage: str,
                        moves: list[tuple[dict, BaseModel]], rng: Rng) -> list[tuple[dict, BaseModel]]:
    """Every second drawn candidate (the default, found first, kept) with one top-level part,
    drawn at random, left out, so the game's standard action decides it (the Ratsspiel: votes
    as a non-player councillor would cast them, with the drawn actions kept).  For a search
    too starved to tell many candidates apart: a random draw gets every part wrong at once,
    this keeps the game's own sensible choice for one part while the others vary."""
    out = moves[:1]
    seen = {canonical_json(raw) for raw, _ in moves}
    for i, (raw, model) in enumerate(moves[1:]):
        if i % 2 and len(raw) > 1:
            keys = sorted(raw)
            gone = keys[rng.below(len(keys))]
            part = {k: v for k, v in raw.items() if k != gone}
            key = canonical_json(part)
            checked_part = None if key in seen else checked(rules, state, seat, stage, part)
            if checked_part is not None:
                seen.add(key)
                out.append((part, checked_part))
                continue
        out.append((raw, model))
    return out
