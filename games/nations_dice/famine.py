"""Food for the famine: when a player has a real choice, and what is automatic.

R122–R128 (Yucata's rules for when a player becomes active) and the
accelerated variant's hidden food trade decided with the pass (R153–R159).
"""
from __future__ import annotations

from referee.game_api.contract import Problem

from .pay import pair_problems
from .state import die_by_id, markers_free, shows


def food_have(ed, pl: dict, skip=()) -> int:
    return markers_free(pl, "food") + sum(shows(ed, x, "food") for x in pl["dice"]
                                          if not x[3] and x[0] not in skip)


def _rest(ed, pl: dict, skip=()) -> list:
    """Available dice that show no food (food dice are spent as food, never traded)."""
    return [x for x in pl["dice"] if not x[3] and x[0] not in skip and not shows(ed, x, "food")]


def _spare(ed, pl, skip=(), keep=("strength",)) -> list:
    return [x for x in _rest(ed, pl, skip) if not any(shows(ed, x, k) for k in keep)]


def must_decide(d: dict, ed, p: str, phase: str) -> bool:
    """Yucata's four conditions (R123 books, R126 famine)."""
    pl = d["p"][p]
    need = ed.events[d["event"]]["food"]
    have = food_have(ed, pl)
    if have >= need:
        return False
    key = "book" if phase == "books" else "strength"
    if not any(shows(ed, x, key) for x in pl["dice"] if not x[3]):
        return False
    if have + len(_rest(ed, pl)) // 2 < need:
        return False
    avoid = ("book", "strength") if phase == "books" else ("strength",)
    return have + len(_spare(ed, pl, keep=avoid)) // 2 < need


def auto_trade(d: dict, ed, p: str, skip=(), strength: bool = False) -> list[list[str]]:
    """The automatic trade (decision R128): only if it reaches the demand, never a
    strength die; gold and stone dice first, then book dice.  ``strength``: the player
    asked for it at the famine stage (``trade: auto``), where he was asked because only
    strength dice reach the demand (R126): then the dice showing least strength go too."""
    pl = d["p"][p]
    need = ed.events[d["event"]]["food"]
    have = food_have(ed, pl, skip)
    if have >= need:
        return []
    pool = _rest(ed, pl, skip) if strength else _spare(ed, pl, skip)
    pool.sort(key=lambda x: (shows(ed, x, "strength"), bool(shows(ed, x, "book")), x[0]))
    missing = need - have
    if len(pool) < 2 * missing:
        return []
    return [[pool[2 * i][0], pool[2 * i + 1][0]] for i in range(missing)]


def food_pair_problems(d: dict, ed, p: str, pairs, where: str) -> list[Problem]:
    """Trades into food: valid pairs (``pay.pair_problems``), none wasted."""
    pl = d["p"][p]
    probs, seen = pair_problems(pl, pairs, where)
    if probs:
        return probs
    need = ed.events[d["event"]]["food"]
    have = food_have(ed, pl, seen)
    if pairs and have + len(pairs) < need:
        probs.append(Problem("famine.short", where, params={"need": need, "have": have + len(pairs)}))
    elif pairs and have + len(pairs) - 1 >= need:
        probs.append(Problem("famine.surplus", where, params={"need": need, "have": have + len(pairs)}))
    return probs


def food_trade_problems(d: dict, ed, p: str, food_trade, where: str) -> list[Problem]:
    if food_trade in (None, "auto", "none"):
        return []
    return food_pair_problems(d, ed, p, food_trade, where)


def choose_food_trade(d: dict, ed, p: str, food_trade) -> list:
    if food_trade in (None, "auto"):
        return auto_trade(d, ed, p)
    if food_trade == "none":
        return []
    return [list(x) for x in food_trade]


def feed(d: dict, ed, p: str, pairs, log: list, reveal: bool = False) -> None:
    """Spend all food markers and food dice plus the traded pairs; score the famine
    (R129–R133: VP = age if the demand is met, nothing for less, no more for more)."""
    pl = d["p"][p]
    need = ed.events[d["event"]]["food"]
    traded = {i for pair in pairs for i in pair}
    food = markers_free(pl, "food")
    pl["markers"]["food"][1] += food
    used = []
    for x in pl["dice"]:
        if not x[3] and x[0] not in traded and shows(ed, x, "food"):
            food += shows(ed, x, "food")
            x[3] = True
            used.append(x[0])
    for i in traded:
        die_by_id(pl, i)[3] = True
    food += len(pairs)
    vp = d["age"] if food >= need else 0
    pl["vp"] += vp
    log.append(("famine", {"player": p, "food": food, "need": need, "dice": used, "trades": pairs,
                           "vp": vp, "revealed": reveal}, None))
