"""``view``: what one viewer may see, built as an allow-list.

Public: the board with costs, the event, every player's dice (faces once
rolled, R46), markers, tiles, culture and VP (a roll is public once rolled).
Private: the viewer's own plan (the steps left) and, in the accelerated
variant, his food trade until all have passed (R154).  The GM sees all plans,
food trades and the tile stacks (decision R40: leftovers hidden from players).
"""
from __future__ import annotations

from referee.game_api.contract import GM

from .edition import MARKER_KINDS, cost_currency
from .state import face, tile_vp
from .validate import describe


def tile_info(ed, tid: str | None) -> dict | None:
    if tid is None:
        return None
    t = ed.tiles[tid]
    return {"id": tid, "name": dict(t["name"]), "type": t["type"], "age": t["age"], "vp": t["vp"],
            "dice": dict(t["dice"]), "markers": dict(t["markers"]), "rerolls": t["rerolls"], "stone": t["stone"]}


def _player(d: dict, ed, p: str) -> dict:
    q = d["p"][p]
    devs = []
    for i, t in enumerate(q["devs"]):
        devs.append({"slot": i + 1, "tile": tile_info(ed, t), "dice": dict(ed.start_dev_dice) if t is None
                     else dict(ed.tiles[t]["dice"])})
    return {
        "id": p, "place": d["order"].index(p) + 1, "culture": q["culture"], "vp": q["vp"],
        "tile_vp": tile_vp(ed, q), "passed": q["passed"], "rolled": q["rolled"],
        "dice": [{"id": x[0], "colour": x[1], "face": face(ed, x) if q["rolled"] else None, "spent": x[3]}
                 for x in q["dice"]],
        "markers": {k: {"available": v[0] - v[1], "held": v[0]} for k, v in q["markers"].items() if v[0]},
        "developments": devs, "advisor": tile_info(ed, q["advisor"]), "wonder": tile_info(ed, q["wonder"]),
        "built": [tile_info(ed, t) for t in q["built"]], "colonies": [tile_info(ed, t) for t in q["colonies"]],
    }


def public_view(state) -> dict:
    d, ed = state.d, state.ed
    ev = ed.events[d["event"]] if d["event"] else None
    board = []
    for c, column in enumerate(d["board"]):
        rows = []
        for r, tid in enumerate(column):
            rows.append({"row": r + 1, "cost": r + 1,
                         "currency": cost_currency(ed.tiles[tid]) if tid else None,
                         "tile": tile_info(ed, tid)})
        board.append({"column": c + 1, "rows": rows})
    waiting = d["waiting"]
    return {
        "age": d["age"], "stage": d["stage"], "variant": d["variant"], "solo": d["solo"] is not None,
        "hard": d["hard"], "opponent_culture": None if d["solo"] is None else d["solo"]["culture"],
        "event": None if ev is None else {"id": d["event"], "name": dict(ev["name"]), "food": ev["food"],
                                           "strength": ev["strength"], "vp": d["age"]},
        "board": board, "order": list(d["order"]), "seats": list(d["players"]),
        "awaiting": dict(waiting),
        "players": [_player(d, ed, p) for p in d["order"]],
        "supply": {"dice": dict(d["supply"]["dice"]),
                   "markers": {k: d["supply"]["markers"][k] for k in MARKER_KINDS}},
        "culture_vp": 2 if len(d["players"]) <= 2 else 1,
        "outcome": d["outcome"],
        "names": ed.names,
    }


def _private(d: dict, p: str) -> dict:
    q = d["p"][p]
    out = {"plan": [f"{i + 1}: {describe(s)}" for i, s in enumerate(q["plan"])]}
    if d["variant"] == "accelerated" and q["food_trade"] is not None and d["stage"] == "actions":
        out["food_trade"] = [list(x) for x in q["food_trade"]]
    return out


def build_view(state, viewer) -> dict:
    d = state.d
    pub = public_view(state)
    if viewer == GM:
        return {"public": pub, "private": {
            "players": {p: _private(d, p) for p in d["players"]},
            "stacks": {a: list(v) for a, v in d["stacks"].items()},
            "events": {a: list(v) for a, v in d["event_stacks"].items()}}}
    if viewer in d["p"]:
        return {"public": pub, "private": _private(d, viewer)}
    return {"public": pub, "private": {}}
