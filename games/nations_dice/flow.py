"""Carrying the game forward as far as it goes without a new decision.

Each player's stored plan is followed when his action comes up (the shared
``follow_plan`` walk); his dice are rolled when his first action of the age
comes up (R46); the books, famine, turn-order and war phases run by themselves
unless a player has a real choice (R122–R128).  ``advance`` stops when some
player owes orders and names him in ``d["waiting"]``.
"""
from __future__ import annotations

from referee.game_api.contract import follow_plan

from .actions import check_step, do_step, faces
from .famine import auto_trade, must_decide
from .messages import say
from .phases import books_phase, famine_phase, finish_age
from .pieces import roll
from .validate import describe

MAX_STEPS = 10_000   # a guard only: every loop below consumes a plan step or a phase


def _solo_d4(d: dict, rng, log: list) -> None:
    """After each action: 1–3 removes the cheapest tile of that column, 4 nothing
    (R168–R169); hard mode rolls a 4 again (R173, decision R174b)."""
    rolls = [rng.randint(1, 4)]
    while d["hard"] and rolls[-1] == 4:
        rolls.append(rng.randint(1, 4))
    r = rolls[-1]
    removed = None
    if r <= len(d["board"]):
        column = d["board"][r - 1]
        for row, t in enumerate(column):
            if t is not None:
                removed, column[row] = t, None
                break
    log.append(("solo_d4", {"rolls": rolls, "column": r if r <= 3 else None, "removed": removed}, None))


def _action(d: dict, ed, rng, log: list) -> bool:
    """One player's action; False when he must be asked."""
    order = d["order"]
    while d["p"][order[d["current"]]]["passed"]:
        d["current"] = (d["current"] + 1) % len(order)
    p = order[d["current"]]
    pl = d["p"][p]
    if not pl["rolled"]:
        for x in pl["dice"]:
            roll(x, rng)
        pl["rolled"] = True
        log.append(("rolled", {"player": p, "dice": faces(ed, pl, [x[0] for x in pl["dice"]])}, None))
    choice = follow_plan(pl["plan"], lambda s: check_step(d, ed, p, s))
    for i, probs in choice.failed:
        err = next(x for x in probs if x.is_error)
        log.append(("step_failed", {"player": p, "what": describe(pl["plan"][i]), "code": err.code,
                                    "why": {lang: say(err, lang) for lang in ("en", "de")}}, (p,)))
    if choice.index is None:
        pl["plan"] = []
        d["waiting"] = {p: "plan"}
        log.append(("asked", {"player": p, "why": "ask" if choice.asked else "plan"}, None))
        return False
    step = pl["plan"][choice.index]
    pl["plan"] = list(choice.rest)
    do_step(d, ed, p, step, rng, log)
    if d["solo"] is not None and step["do"] != "pass":
        _solo_d4(d, rng, log)
    d["current"] = (d["current"] + 1) % len(order)
    return True


def advance(d: dict, ed, rng, log: list) -> None:
    d["waiting"] = {}
    for _ in range(MAX_STEPS):
        stage = d["stage"]
        if stage == "over":
            return
        if stage == "actions":
            if all(q["passed"] for q in d["p"].values()):
                d["stage"], d["phase_at"] = "books", 0
                if d["variant"] == "accelerated":
                    log.append(("food_trades_revealed", {"trades": {p: q["food_trade"] or []
                                                                   for p, q in d["p"].items()}}, None))
                continue
            if not _action(d, ed, rng, log):
                return
        elif stage == "books":
            who = books_phase(d, ed, log, must_decide)
            if who:
                d["waiting"] = {who: "books"}
                return
        elif stage == "famine":
            who = famine_phase(d, ed, log, must_decide, auto_trade)
            if who:
                d["waiting"] = {who: "famine"}
                return
            finish_age(d, ed, rng, log)
    raise RuntimeError("advance did not settle")
