"""Paying a cost: whole die faces and markers, trades of two dice for one unit.

R58–R62: one or more available dice and/or markers with at least the cost;
whole faces, surplus lost; a payment with a die, marker or trade that could be
left out is refused (decision R62).  R98–R109: two available dice (never
markers) for one gold, stone or food, only inside a payment that needs it.
``pay: auto`` picks the least surplus, markers before dice where equal.
"""
from __future__ import annotations

from referee.game_api.contract import Problem

from .state import die_by_id, markers_free, shows

TRADEABLE = ("gold", "stone", "food")
MARKERS = ("reroll", "gold", "stone", "book", "food", "strength")
# auto trades give away dice showing these first (R128: never strength if avoidable)
TRADE_RANK = {"gold": ("stone", "food", "book", "gold", "strength"),
              "stone": ("gold", "food", "book", "stone", "strength"),
              "food": ("gold", "stone", "book", "food", "strength")}


WORDS = {"en": {"gold": "gold", "stone": "stone", "food": "food", "strength": "strength", "book": "book",
                "reroll": "reroll"},
         "de": {"gold": "Gold", "stone": "Stein", "food": "Nahrung", "strength": "Stärke", "book": "Buch",
                "reroll": "Neuwurf"}}


def _err(code: str, where: str, **params) -> Problem:
    """``what`` (a currency) and ``item`` (a marker kind) are worded in each language."""
    for k in ("what", "item"):
        if params.get(k) in WORDS["en"]:
            params[k] = {lang: WORDS[lang][params[k]] for lang in WORDS}
    return Problem(code, where, "error", params)


def auto_items(ed, pl: dict, currency: str, cost: int, exclude=()) -> tuple[list, int]:
    """(items, total) with least surplus; items are die ids and marker kinds."""
    items = [(1, False, currency)] * markers_free(pl, currency)
    items += [(shows(ed, x, currency), True, x[0]) for x in pl["dice"]
              if not x[3] and x[0] not in exclude and shows(ed, x, currency)]
    best: dict[int, tuple] = {0: (0, 0, ())}
    cap = cost + 6
    for value, is_die, ident in items:
        for s, (nd, ni, chosen) in list(best.items()):
            if s >= cost:
                continue
            ns = min(s + value, cap)
            cand = (nd + is_die, ni + 1, chosen + (ident,))
            if ns not in best or cand[:2] < best[ns][:2]:
                best[ns] = cand
    done = [(s - cost, v[0], v[1], s, v[2]) for s, v in best.items() if s >= cost]
    if done:
        _, _, _, s, chosen = min(done)
        return list(chosen), s
    total = sum(v for v, _, _ in items)
    return [i for _, _, i in items], total


def _auto_trades(ed, pl: dict, currency: str, missing: int, used: set) -> list[list[str]]:
    rank = TRADE_RANK[currency]

    def worth(x):
        f = ed.faces[x[1]][x[2]] if x[2] is not None else {}
        kinds = [rank.index(k) for k in f] or [0]
        return (max(kinds), sum(f.values()), x[0])
    pool = sorted((x for x in pl["dice"] if not x[3] and x[0] not in used), key=worth)
    return [[pool[2 * i][0], pool[2 * i + 1][0]] for i in range(min(missing, len(pool) // 2))]


def pair_problems(pl: dict, pairs, where: str) -> tuple[list[Problem], set]:
    """Trades: pairs of two different available dice, never markers, no die twice (R98, R102)."""
    probs: list[Problem] = []
    traded: set = set()
    for i, pair in enumerate(pairs):
        if len(pair) != 2 or len(set(pair)) != 2:
            probs.append(_err("trade.pair", f"{where}.{i}"))
            continue
        for item in pair:
            die = die_by_id(pl, item)
            if item in MARKERS:
                probs.append(_err("trade.marker", f"{where}.{i}", item=item))
            elif item in traded:
                probs.append(_err("trade.twice", f"{where}.{i}", die=item))
            elif die is None or die[3]:
                probs.append(_err("die.not_available", f"{where}.{i}", die=item))
            traded.add(item)
    return probs, traded


def payment(ed, pl: dict, currency: str, cost: int, pay, trade, where: str):
    """Check (or choose) a payment; return (problems, plan or None)."""
    probs: list[Problem] = []
    if currency not in TRADEABLE and trade not in ("none", "auto", [], None):
        probs.append(_err("trade.strength" if currency == "strength" else "trade.books",
                          f"{where}.trade"))
    pairs = trade if isinstance(trade, list) else []
    more, traded = pair_problems(pl, pairs, f"{where}.trade")
    probs += more
    if probs:
        return probs, None
    if pay == "auto" or pay is None:
        if len(pairs) > cost:
            return [_err("pay.surplus", where, need=cost, have=len(pairs), what=currency)], None
        need = cost - len(pairs)
        items, total = auto_items(ed, pl, currency, need, traded) if need else ([], 0)
        if total < need and trade == "auto" and currency in TRADEABLE:
            used = traded | {i for i in items if die_by_id(pl, i)}
            pairs = pairs + _auto_trades(ed, pl, currency, need - total, used)
        total += len(pairs)
        if total < cost:
            return [_err("pay.short", where, need=cost, have=total, what=currency)], None
        return [], {"items": items, "trades": [list(x) for x in pairs], "total": total}
    # an explicit list of dice and markers
    count: dict[str, int] = {}
    total = 0
    values = []
    for i, item in enumerate(pay):
        if item in MARKERS:
            if item != currency:
                probs.append(_err("pay.wrong_marker", f"{where}.pay.{i}", item=item, what=currency))
                continue
            count[item] = count.get(item, 0) + 1
            if count[item] > markers_free(pl, item):
                probs.append(_err("pay.no_marker", f"{where}.pay.{i}", item=item))
                continue
            values.append(1)
            total += 1
            continue
        die = die_by_id(pl, item)
        if item in count or item in traded:
            probs.append(_err("pay.twice", f"{where}.pay.{i}", die=item))
        elif die is None or die[3]:
            probs.append(_err("die.not_available", f"{where}.pay.{i}", die=item))
        elif not shows(ed, die, currency):
            probs.append(_err("pay.useless", f"{where}.pay.{i}", die=item, what=currency))
        else:
            values.append(shows(ed, die, currency))
            total += values[-1]
        count[item] = 1
    if probs:
        return probs, None
    if trade == "auto" and currency in TRADEABLE and total + len(pairs) < cost:
        used = traded | set(pay)
        pairs = pairs + _auto_trades(ed, pl, currency, cost - total - len(pairs), used)
    total += len(pairs)
    if total < cost:
        return [_err("pay.short", where, need=cost, have=total, what=currency)], None
    if (values and total - min(values) >= cost) or (pairs and total - 1 >= cost):
        return [_err("pay.surplus", where, need=cost, have=total, what=currency)], None
    return [], {"items": list(pay), "trades": [list(x) for x in pairs], "total": total}


def apply_payment(pl: dict, currency: str, plan: dict) -> list[str]:
    """Move the paid dice and markers to the spent area; return the dice ids spent."""
    spent = []
    for item in plan["items"]:
        if item == currency and die_by_id(pl, item) is None:
            pl["markers"][currency][1] += 1
        else:
            die_by_id(pl, item)[3] = True
            spent.append(item)
    for a, b in plan["trades"]:
        die_by_id(pl, a)[3] = True
        die_by_id(pl, b)[3] = True
        spent += [a, b]
    return spent
