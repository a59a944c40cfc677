"""The match state: one JSON-safe dict plus the compiled edition beside it.

Per player: dice as ``[id, colour, face, spent]`` (face = index into the
edition's six faces, None before the first roll of the age), markers as
``{kind: [held, spent]}``, the development slots (None = the printed starting
development), advisor, wonder under construction, built wonders, colonies,
culture and VP, whether rolled / passed this age, and the plan (the steps left).
``clone`` is written out by hand: ``resolve`` copies the state every turn.
"""
from __future__ import annotations

from referee.game_api.contract import EditionState, json_copy

from .edition import COLOURS, MARKER_KINDS, Edition, edition_for

AGES = 4
LETTER = {"white": "w", "blue": "b", "orange": "o", "red": "r"}
COLOUR_OF = {v: k for k, v in LETTER.items()}
HALL_OF_FAME = ((50, "Trajan"), (40, "Ashoka"), (35, "Wu Zetian"), (30, "Saladin"), (25, "Victoria"),
                (20, "Charles V"), (15, "Cleopatra"), (10, "Dan Quayle"))


NState = EditionState   # the data and its edition, as setup/resolve hand them to the referee


def _clone_player(q: dict) -> dict:
    return {
        "dice": [list(x) for x in q["dice"]], "next": dict(q["next"]),
        "markers": {k: list(v) for k, v in q["markers"].items()},
        "devs": list(q["devs"]), "advisor": q["advisor"], "wonder": q["wonder"],
        "built": list(q["built"]), "colonies": list(q["colonies"]),
        "culture": q["culture"], "vp": q["vp"], "passed": q["passed"], "rolled": q["rolled"],
        "plan": list(q["plan"]), "food_trade": q["food_trade"],
    }


def clone(d: dict) -> dict:
    out = dict(d)   # scalars and never-changed lists (players, edition, stacks) shared
    out["order"] = list(d["order"])
    out["waiting"] = dict(d["waiting"])
    out["board"] = [list(c) for c in d["board"]]
    out["supply"] = {"dice": dict(d["supply"]["dice"]), "markers": dict(d["supply"]["markers"])}
    out["p"] = {p: _clone_player(q) for p, q in d["p"].items()}
    out["solo"] = None if d["solo"] is None else dict(d["solo"])
    out["history"] = list(d["history"])
    return out


deep = json_copy   # a full copy of JSON-like data


def load_state(data: dict) -> NState:
    return NState(edition_for(data.get("edition")), deep(dict(data)))


def new_player(ed: Edition) -> dict:
    return {"dice": [], "next": {c: 0 for c in COLOURS},
            "markers": {k: [0, 0] for k in MARKER_KINDS},
            "devs": [None] * ed.start_devs, "advisor": None, "wonder": None, "built": [],
            "colonies": [], "culture": 0, "vp": 0, "passed": False, "rolled": False,
            "plan": [], "food_trade": None}


def new_data(players: list[str], ed: Edition, raw: dict | None, variant: str, hard: bool) -> dict:
    return {
        "players": list(players), "edition": raw, "variant": variant, "hard": hard,
        "age": 0, "stage": "actions", "turn": 0, "order": list(players), "current": 0,
        "waiting": {}, "phase_at": 0, "board": [], "event": None, "stacks": {}, "event_stacks": {},
        "supply": {"dice": dict(ed.dice_count), "markers": dict(ed.marker_count)},
        "p": {p: new_player(ed) for p in players},
        "solo": {"culture": 1} if len(players) == 1 else None,
        "outcome": None, "history": [],
    }


# --- small readers used everywhere -------------------------------------------------

def face(ed: Edition, die: list) -> dict:
    return {} if die[2] is None else ed.faces[die[1]][die[2]]


def shows(ed: Edition, die: list, symbol: str) -> int:
    return 0 if die[2] is None else ed.faces[die[1]][die[2]].get(symbol, 0)


def free(pl: dict) -> list:
    """The player's available dice."""
    return [x for x in pl["dice"] if not x[3]]


def die_by_id(pl: dict, die_id: str) -> list | None:
    for x in pl["dice"]:
        if x[0] == die_id:
            return x
    return None


def markers_free(pl: dict, kind: str) -> int:
    held, spent = pl["markers"][kind]
    return held - spent


def available(ed: Edition, pl: dict, symbol: str) -> int:
    """Symbols of one kind on the player's available dice and markers."""
    return sum(shows(ed, x, symbol) for x in pl["dice"] if not x[3]) + markers_free(pl, symbol)


def tile_vp(ed: Edition, pl: dict) -> int:
    """VP of the tiles held now: developments, advisor, built wonders, colonies (R145–R148)."""
    held = [t for t in pl["devs"] if t] + pl["built"] + pl["colonies"]
    if pl["advisor"]:
        held.append(pl["advisor"])
    return sum(ed.tiles[t]["vp"] for t in held)


def columns(n_players: int) -> int:
    return 4 if n_players == 4 else 3


def hall_of_fame(score: int) -> str | None:
    return next((name for at, name in HALL_OF_FAME if score >= at), None)
