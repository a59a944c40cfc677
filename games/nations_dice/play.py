"""Random legal orders (for the conformance test, ``referee demo`` and the
benchmark).  Every choice is drawn from the ``Rng`` given."""
from __future__ import annotations

from .actions import check_step
from .orders import PlanOrders, normalise
from .state import shows


def _candidates(d: dict, pl: dict, bought: bool, rng) -> list:
    out = []
    for c, column in enumerate(d["board"]):
        for r, t in enumerate(column):
            if t is not None:
                buy = {"column": c + 1, "row": r + 1}
                if rng.below(3) == 0:
                    buy["trade"] = "auto"
                out.append({"buy": buy})
    if pl["markers"]["reroll"][0] > pl["markers"]["reroll"][1]:
        free = [x[0] for x in pl["dice"] if not x[3]]
        if free:
            out.append({"reroll": "all" if rng.below(2) else rng.sample(free, 1 + rng.below(len(free)))})
    if pl["wonder"] or bought:
        out.append({"build": {"trade": "auto"}})
    return out


def random_plan(d: dict, ed, player: str, rng) -> dict:
    pl = d["p"][player]
    steps: list = []
    bought = False
    for k in range(1 + rng.below(4)):
        cands = _candidates(d, pl, bought, rng)
        if k == 0 and rng.below(5):
            parsed = PlanOrders.model_validate({"steps": cands}).steps
            cands = [c for c, s in zip(cands, parsed) if not check_step(d, ed, player, normalise(s))]
        if not cands:
            break
        step = rng.choice(cands)
        bought |= "buy" in step
        steps.append(step)
    end = rng.below(10)
    if end < 4 or not steps:
        if d["variant"] == "accelerated":
            steps.append({"pass": {"food_trade": rng.choice(["auto", "none"])}})
        else:
            steps.append("pass")
    elif end < 5:
        steps.append("ask")
    return {"steps": steps}


def random_orders(state, player: str, rng) -> dict:
    d, ed = state.d, state.ed
    stage = d["waiting"].get(player)
    if stage == "books":
        books = [x[0] for x in d["p"][player]["dice"] if not x[3] and shows(ed, x, "book")]
        return {"hold": rng.sample(books, rng.below(len(books) + 1))}
    if stage == "famine":
        return {"trade": rng.choice(["auto", "none"])}
    return random_plan(d, ed, player, rng)
