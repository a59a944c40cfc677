"""Dice and markers moving between a player and the supply (R13, R65–R67, R74–R80).

The supply is limited to the box (decision R13): pieces go back before new
ones are taken; a short supply gives what is left and the log says so.
"""
from __future__ import annotations

from .edition import Edition
from .state import LETTER


def roll(die: list, rng) -> None:
    die[2] = rng.below(6)


def take_dice(d: dict, p: str, colour: str, n: int, rng, log: list) -> list[str]:
    """Take ``n`` dice of ``colour`` from the supply and roll them at once."""
    pl = d["p"][p]
    have = d["supply"]["dice"][colour]
    got = min(n, have)
    if got < n:
        log.append(("supply_short", {"player": p, "what": colour, "wanted": n, "got": got}, None))
    d["supply"]["dice"][colour] = have - got
    ids = []
    for _ in range(got):
        pl["next"][colour] += 1
        die = [f"{LETTER[colour]}{pl['next'][colour]}", colour, None, False]
        roll(die, rng)
        pl["dice"].append(die)
        ids.append(die[0])
    return ids


def give_back_dice(d: dict, p: str, colour: str, n: int, chosen: list[str]) -> list[str]:
    """Return ``n`` dice of ``colour``: the chosen ones first, then spent ones, then
    available ones (R66; all of that colour if fewer are held, R72)."""
    pl = d["p"][p]
    mine = [x for x in pl["dice"] if x[1] == colour]
    picked = [x for x in mine if x[0] in chosen][:n]
    for group in ([x for x in mine if x[3]], [x for x in mine if not x[3]]):
        for x in group:
            if len(picked) < n and x not in picked:
                picked.append(x)
    for x in picked:
        pl["dice"].remove(x)
    d["supply"]["dice"][colour] += len(picked)
    return [x[0] for x in picked]


def gain_markers(d: dict, p: str, kind: str, n: int, log: list) -> int:
    have = d["supply"]["markers"][kind]
    got = min(n, have)
    if got < n:
        log.append(("supply_short", {"player": p, "what": kind, "wanted": n, "got": got}, None))
    d["supply"]["markers"][kind] = have - got
    d["p"][p]["markers"][kind][0] += got
    return got


def return_markers(d: dict, p: str, kind: str, n: int) -> None:
    """Give back ``n`` markers, spent ones first (decision R77: never worse for the player)."""
    held, spent = d["p"][p]["markers"][kind]
    n = min(n, held)
    from_spent = min(n, spent)
    d["p"][p]["markers"][kind] = [held - n, spent - from_spent]
    d["supply"]["markers"][kind] += n


def spend_markers(pl: dict, kind: str, n: int) -> None:
    pl["markers"][kind][1] += n


def refresh(pl: dict) -> None:
    """Round start: everything spent comes back beside the board (R41)."""
    for x in pl["dice"]:
        x[3] = False
    for v in pl["markers"].values():
        v[1] = 0


def receive_tile_yield(d: dict, ed: Edition, p: str, tile_id: str, rng, log: list) -> None:
    t = ed.tiles[tile_id]
    for kind, n in t["markers"].items():
        gain_markers(d, p, kind, n, log)
    for colour, n in t["dice"].items():
        if t["type"] == "wonder":
            take_dice(d, p, colour, n, rng, log)
