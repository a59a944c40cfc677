"""Shared checks of a game's ``order_choices`` (issue 36): positions from random play, and each
offered value put alone at its path of an ``orders:`` mapping that the stage's schema accepts."""
from __future__ import annotations

from referee.game_api.contract import Rng


def positions(rules, seats, seed: int, turns: int, options=None):
    """(state, player, stage) of every awaited seat over ``turns`` turns of random play."""
    state, rng = rules.setup(seats, options or {}, Rng(seed)), Rng(seed + 1)
    for _ in range(turns):
        awaiting = rules.awaiting(state)
        if not awaiting:
            return
        for player, stage in awaiting.items():
            yield state, player, stage
        orders = {p: rules.order_schema(state, s).model_validate(rules.random_orders(state, p, rng))
                  for p, s in awaiting.items()}
        state = rules.resolve(state, orders, rng).state


def placed(path: str, value, around=None):
    """``value`` at ``path`` ("steps.*.buy.column"): a list of one item for each ``*``."""
    head, _, rest = path.partition(".")
    inner = value if not rest else placed(rest, value)
    return [inner] if head == "*" else {head: inner} if around is None else {**around, head: inner}


def check_offered(rules, state, player, stage, base=None) -> dict:
    """Every value validates alone at its path (merged into ``base``); labels are non-empty text
    in English and German, the same values in both. Returns the English choices."""
    en, de = rules.order_choices(state, player, "en"), rules.order_choices(state, player, "de")
    assert en.keys() == de.keys()
    schema = rules.order_schema(state, stage)
    for path, items in en.items():
        assert [c["value"] for c in items] == [c["value"] for c in de[path]], path
        for c in items + de[path]:
            assert isinstance(c["label"], str) and c["label"].strip(), (path, c)
        for c in items:
            doc = placed(path, c["value"], dict(base or {}))
            schema.model_validate(doc)
    return en
