"""Random legal orders (for the conformance test, ``referee demo`` and the
benchmark): short plans of plays, pushes, conditions and passes, every choice
drawn from the ``Rng`` given, in sorted order."""
from __future__ import annotations

from .actions import never_problems, step_problems
from .edition import PARTIES


def _step(d, ed, p, card, rng) -> dict:
    step = {"play": card}
    z = ed.zusatz.get(card)
    if z is None:
        return step
    if z.is_army:
        if rng.below(3) == 0:
            step["to"] = rng.choice(d["players"])
        return step
    kind = z.effect["do"]
    if kind == "party_value":
        step["player"] = rng.choice(d["players"])
        if z.effect.get("party") is None:
            step["party"] = rng.choice(PARTIES)
    elif kind != "none":
        table = sorted(c for q in d["players"] for c in d["trick"]["persons"][q])
        runnable = [c for c in table if not step_problems(d, ed, p, {"play": card, "on": c})]
        pool = runnable or table
        if pool:
            step["on"] = rng.choice(pool)
    return step


def random_orders(state, player: str, rng) -> dict:
    d, ed = state.d, state.ed
    if d["stage"] == "draw":
        return {"draw": rng.choice(["person", "zusatz"])}
    hand = sorted(d["hands"][player])
    steps: list = []
    for _ in range(1 + rng.below(3)):
        roll = rng.random()
        if roll < 0.7 and hand:
            card = rng.choice(hand)
            step = _step(d, ed, player, card, rng)
            if never_problems(d, ed, player, step):   # refused at submission: a player would not send it
                continue
            if rng.below(5) == 0:
                step["if"] = rng.choice([{"answered": rng.choice(list(PARTIES) + ["army"])},
                                         {"winning": bool(rng.below(2))}])
            steps.append(step)
        elif roll < 0.78 and hand:
            steps.append({"push": rng.choice(hand)})
        else:
            steps.append("pass")
            break
    if rng.below(4) == 0:
        steps.append("ask")
    out: dict = {"steps": steps}
    if rng.below(3) == 0:
        out["draw"] = rng.choice(["person", "zusatz"])
    return out
