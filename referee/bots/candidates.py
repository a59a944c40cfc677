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


def one_part_each(rules: GameRules, state: Any, seat: str, stage: str,
                  moves: list[tuple[dict, BaseModel]]) -> list[tuple[dict, BaseModel]]:
    """The default (found first) and then every top-level part of every drawn candidate as
    an order of its own, each once: the game's standard action decides the parts left out
    (the Ratsspiel: votes as a non-player councillor would cast them, the action points to
    administration).  For a search too starved to tell whole random orders apart: a random
    draw gets every part wrong at once, while one part changed from the standard shows
    what that part is worth (in the Ratsspiel: all action points to campaigning)."""
    out = moves[:1]
    seen = {canonical_json(raw) for raw, _ in out}
    for raw, _ in moves[1:]:
        for key in sorted(raw):
            part = {key: raw[key]}
            text = canonical_json(part)
            if text in seen:
                continue
            seen.add(text)
            model = checked(rules, state, seat, stage, part)
            if model is not None:
                out.append((part, model))
    return out
