"""``determinize``: a Nations state the player cannot tell from the real one (issue 35:
the bots search over such states, never the real hidden one).

Hidden from a player: the order of the tile and event stacks (decision R40), the other
players' plans (the steps left) and, in the accelerated variant, the food trades they
fixed on passing.  The stacks are shuffled anew from their sorted contents, other plans
dropped (the player is asked when his action comes) and a fixed food trade becomes the
automatic one; the rest of the state is kept."""
from __future__ import annotations

from referee.game_api.contract import Rng

from .famine import choose_food_trade
from .state import NState, clone


def _shuffled(cards: list, rng: Rng) -> list:
    out = sorted(cards)
    rng.shuffle(out)
    return out


def determinize(state: NState, player: str, rng: Rng) -> NState:
    ed = state.ed
    d = clone(state.d)
    d["stacks"] = {age: _shuffled(v, rng) for age, v in sorted(d["stacks"].items())}
    d["event_stacks"] = {age: _shuffled(v, rng) for age, v in sorted(d["event_stacks"].items())}
    for p in sorted(d["p"]):
        if p == player:
            continue
        q = d["p"][p]
        q["plan"] = []
        if q["food_trade"] is not None:
            q["food_trade"] = choose_food_trade(d, ed, p, "auto")
    return NState(ed, d)
