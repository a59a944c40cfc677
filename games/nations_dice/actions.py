"""The three actions and the pass (R44–R97): checking a plan step against the
position, and carrying it out.

A step is a plain dict (see ``orders.normalise``): ``{"do": "buy", ...}``,
``{"do": "reroll", "dice": "all" | [ids]}``, ``{"do": "build", ...}``,
``{"do": "pass", "food_trade": ...}``; ``"ask"`` stops the plan.
"""
from __future__ import annotations

from referee.game_api.contract import Problem

from .edition import cost_currency
from .famine import choose_food_trade, food_trade_problems
from .pay import apply_payment, payment
from .pieces import gain_markers, give_back_dice, receive_tile_yield, return_markers, roll, take_dice
from .state import die_by_id, face, markers_free

COLOUR_WORDS = {"en": {"white": "white", "blue": "blue", "orange": "orange", "red": "red"},
                "de": {"white": "weiß", "blue": "blau", "orange": "orange", "red": "rot"}}


def _err(code: str, where: str = "", **params) -> Problem:
    return Problem(code, where, "error", params)


def _key(word: str) -> str:
    return "_".join(str(word).replace("-", " ").split()).casefold()


def tile_id(ed, tile: str | None) -> str | None:
    """The tile a buy names by id or by its name in either language, in any letter case
    (``Sun Tzu``, ``sun_tzu``, ``Kornspeicher``); unknown words come back as written."""
    if tile is None or tile in ed.tiles:
        return tile
    word = _key(tile)
    found = {t for t, x in ed.tiles.items() if word in (_key(t), *(_key(n) for n in x["name"].values()))}
    return found.pop() if len(found) == 1 else tile


def canonical(ed, step):
    """A normalised step with the tile it names by its id (what the state keeps and the
    reply echoes)."""
    if isinstance(step, dict) and step.get("do") == "buy" and step.get("tile"):
        return dict(step, tile=tile_id(ed, step["tile"]))
    return step


def locate(d: dict, step: dict, ed) -> tuple[list[Problem], tuple | None]:
    """The board slot a buy names: (column, row) counted from 1."""
    board = d["board"]
    tile = tile_id(ed, step.get("tile"))
    col, row = step.get("column"), step.get("row")
    if col is not None or row is not None:
        if col is None or row is None or not 1 <= col <= len(board) or not 1 <= row <= 3:
            return [_err("buy.no_slot", "", column=col, row=row, columns=len(board))], None
        here = board[col - 1][row - 1]
        if here is None:
            return [_err("buy.empty_slot", "", column=col, row=row)], None
        if tile is not None and tile != here:
            return [_err("buy.mismatch", "", tile=tile, column=col, row=row)], None
        return [], (col, row)
    if tile is None:
        return [_err("buy.which", "")], None
    for c, column in enumerate(board):
        for r, t in enumerate(column):
            if t == tile:
                return [], (c + 1, r + 1)
    return [_err("buy.not_on_board", "", tile=tile)], None


def check_step(d: dict, ed, p: str, step, where: str = "") -> list[Problem]:
    """What keeps ``step`` from running now (no errors = it runs)."""
    pl = d["p"][p]
    kind = step["do"]
    if kind == "pass":
        if d["variant"] == "accelerated":
            return food_trade_problems(d, ed, p, step.get("food_trade"), f"{where}.pass.food_trade")
        return []
    if kind == "reroll":
        probs = []
        if markers_free(pl, "reroll") < 1:
            probs.append(_err("reroll.no_marker", f"{where}.reroll"))
        dice = step["dice"]
        if dice == "all":
            if not any(not x[3] for x in pl["dice"]):
                probs.append(_err("reroll.no_dice", f"{where}.reroll"))
        elif not dice:
            probs.append(_err("reroll.empty", f"{where}.reroll"))
        elif len(set(dice)) != len(dice):
            probs.append(_err("pay.twice", f"{where}.reroll", die=next(x for x in dice if dice.count(x) > 1)))
        else:
            for i, die_id in enumerate(dice):
                die = die_by_id(pl, die_id)
                if die is None or die[3]:
                    probs.append(_err("die.not_available", f"{where}.reroll.{i}", die=die_id))
        return probs
    if kind == "build":
        if pl["wonder"] is None:
            return [_err("build.no_wonder", f"{where}.build")]
        cost = ed.tiles[pl["wonder"]]["stone"]
        return payment(ed, pl, "stone", cost, step.get("pay"), step.get("trade"), f"{where}.build")[0]
    # buy
    probs, slot = locate(d, step, ed)
    if slot is None:
        return [Problem(x.code, f"{where}.buy", "error", x.params) for x in probs]
    tile = ed.tiles[d["board"][slot[0] - 1][slot[1] - 1]]
    if tile["type"] in ("building", "military"):
        rep = step.get("replace")
        if rep is not None and not 1 <= rep <= len(pl["devs"]):
            return [_err("buy.replace_slot", f"{where}.buy.replace", slot=rep, slots=len(pl["devs"]))]
        probs = give_back_problems(ed, pl, pl["devs"][(rep or default_slot(ed, pl)) - 1], step.get("give_back") or [],
                                   f"{where}.buy.give_back")
        if probs:
            return probs
    elif step.get("give_back"):
        return [_err("give_back.not_development", f"{where}.buy.give_back")]
    return payment(ed, pl, cost_currency(tile), slot[1], step.get("pay"), step.get("trade"), f"{where}.buy")[0]


def give_back_problems(ed, pl: dict, old, chosen: list, where: str) -> list[Problem]:
    """R66: the player chooses which of his dice of the replaced development's colours go
    back; a die he does not have, of another colour, named twice or beyond the number
    shown is refused (never quietly replaced by the default choice)."""
    shown = dev_dice(ed, old)
    probs, counted = [], {}
    colours = {lang: ", ".join(f"{n} × {COLOUR_WORDS[lang][c]}" for c, n in shown.items()) or "-"
               for lang in ("en", "de")}
    for i, die_id in enumerate(chosen):
        die = die_by_id(pl, die_id)
        at = f"{where}.{i}"
        if die is None:
            probs.append(_err("give_back.unknown", at, die=die_id))
        elif die_id in chosen[:i]:
            probs.append(_err("pay.twice", at, die=die_id))
        elif die[1] not in shown:
            probs.append(_err("give_back.colour", at, die=die_id, shown=colours,
                              colour={lang: COLOUR_WORDS[lang][die[1]] for lang in ("en", "de")}))
        else:
            counted[die[1]] = counted.get(die[1], 0) + 1
            if counted[die[1]] > shown[die[1]]:
                probs.append(_err("give_back.extra", at, die=die_id, shown=colours))
    return probs


def default_slot(ed, pl: dict) -> int:
    """The development replaced when the order names none: a printed starting
    development first, else the one worth least (decision R70)."""
    for i, t in enumerate(pl["devs"]):
        if t is None:
            return i + 1
    return min(range(len(pl["devs"])), key=lambda i: (ed.tiles[pl["devs"][i]]["vp"], i)) + 1


def dev_dice(ed, tile_id) -> dict:
    return dict(ed.start_dev_dice) if tile_id is None else ed.tiles[tile_id]["dice"]


def faces(ed, pl: dict, ids) -> list:
    out = []
    for i in ids:
        die = die_by_id(pl, i)
        if die is not None:
            out.append([die[0], die[1], face(ed, die)])
    return out


def do_step(d: dict, ed, p: str, step, rng, log: list) -> None:
    pl = d["p"][p]
    kind = step["do"]
    if kind == "pass":
        pl["passed"] = True
        pl["plan"] = []
        if d["variant"] == "accelerated":
            pl["food_trade"] = choose_food_trade(d, ed, p, step.get("food_trade"))
            log.append(("food_trade_hidden", {"player": p, "pairs": pl["food_trade"]}, (p,)))
        log.append(("passed", {"player": p}, None))
        return
    if kind == "reroll":
        pl["markers"]["reroll"][1] += 1
        ids = [x[0] for x in pl["dice"] if not x[3]] if step["dice"] == "all" else list(step["dice"])
        for i in ids:
            roll(die_by_id(pl, i), rng)
        log.append(("rerolled", {"player": p, "dice": faces(ed, pl, ids)}, None))
        return
    if kind == "build":
        wid = pl["wonder"]
        _, plan = payment(ed, pl, "stone", ed.tiles[wid]["stone"], step.get("pay"), step.get("trade"), "")
        spent = apply_payment(pl, "stone", plan)
        pl["wonder"] = None
        pl["built"].append(wid)
        receive_tile_yield(d, ed, p, wid, rng, log)
        log.append(("wonder_built", {"player": p, "tile": wid, "paid": plan["items"], "dice": spent,
                                     "trades": plan["trades"], "cost": ed.tiles[wid]["stone"],
                                     "total": plan["total"]}, None))
        return
    _, (col, row) = locate(d, step, ed)
    tid = d["board"][col - 1][row - 1]
    t = ed.tiles[tid]
    cur = cost_currency(t)
    _, plan = payment(ed, pl, cur, row, step.get("pay"), step.get("trade"), "")
    spent = apply_payment(pl, cur, plan)
    d["board"][col - 1][row - 1] = None
    log.append(("bought", {"player": p, "tile": tid, "column": col, "row": row, "cost": row, "currency": cur,
                           "paid": plan["items"], "trades": plan["trades"], "total": plan["total"]}, None))
    if t["type"] in ("building", "military"):
        slot = step.get("replace") or default_slot(ed, pl)
        old = pl["devs"][slot - 1]
        returned = []
        for colour, n in dev_dice(ed, old).items():                  # R65–R66
            returned += give_back_dice(d, p, colour, n, step.get("give_back") or [])
        pl["devs"][slot - 1] = tid
        new = []
        for colour, n in t["dice"].items():                           # R67
            new += take_dice(d, p, colour, n, rng, log)
        log.append(("development", {"player": p, "tile": tid, "slot": slot, "replaced": old,
                                    "returned": returned, "new": faces(ed, pl, new)}, None))
    elif t["type"] == "advisor":
        old = pl["advisor"]
        if old:
            return_markers(d, p, "reroll", ed.tiles[old]["rerolls"])   # R74, R77
        pl["advisor"] = tid
        got = gain_markers(d, p, "reroll", t["rerolls"], log)
        log.append(("advisor", {"player": p, "tile": tid, "replaced": old, "rerolls": got}, None))
    elif t["type"] == "colony":
        pl["colonies"].append(tid)                                     # R78
        for k, n in t["markers"].items():
            gain_markers(d, p, k, n, log)
        log.append(("colony", {"player": p, "tile": tid, "markers": dict(t["markers"])}, None))
    else:
        old = pl["wonder"]
        pl["wonder"] = tid
        log.append(("wonder_started", {"player": p, "tile": tid, "replaced": old}, None))
