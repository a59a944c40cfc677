"""The match state: one JSON-safe dict plus the compiled edition beside it.

Stacks are lists whose last element is the top card; "unter den Stapel
schieben" inserts at index 0.  ``clone`` is written out by hand because
``resolve`` copies the state every turn and the benchmark plays many games.
"""
from __future__ import annotations

import json
from typing import Any

from referee.game_api.contract import EditionState

from .edition import PARTIES, edition_for

HAND_MAX = 6          # seed: "bis er maximal 6 Handkarten hält"
DRAW_MAX = 2          # seed: "maximal 2 Personenkarten und 2 Zusatzkarten"
PATT_LIMIT = 4        # RULES A7: the fourth Patt in a row sets the Ablaufkarte aside
TO_WIN = {2: 6, 3: 5, 4: 4}   # seed: "Bei „vier“ ist Schluß"


State = EditionState   # the data and its edition, as setup/resolve hand them to the referee


def new_trick(opener: int, players: list[str]) -> dict:
    return {"opener": opener, "actor": opener, "passed": [], "first_passed": None,
            "persons": {p: [] for p in players}, "zusatz": [], "armies": [], "pushed": [],
            "plays": [], "seen": {p: 0 for p in players}}


def new_data(players: list[str], edition_raw: dict | None) -> dict:
    return {
        "players": list(players), "edition": edition_raw, "stage": "trick", "turn": 0,
        "persons_deck": [], "zusatz_deck": [], "ablauf": [], "set_aside": [], "out": [],
        "hands": {p: [] for p in players}, "won": {p: [] for p in players},
        "tally": {p: {q: 0 for q in PARTIES} for p in players},
        "trick": new_trick(0, players), "tricks": 0, "patts": 0,
        "plans": {p: None for p in players}, "draw_pref": {p: None for p in players},
        "awaiting": [], "last_result": None, "outcome": None,
    }


def _trick(t: dict) -> dict:
    return {"opener": t["opener"], "actor": t["actor"], "passed": list(t["passed"]),
            "first_passed": t["first_passed"],
            "persons": {p: list(v) for p, v in t["persons"].items()},
            "zusatz": [dict(z) for z in t["zusatz"]], "armies": [dict(a) for a in t["armies"]],
            "pushed": list(t["pushed"]), "plays": [dict(x) for x in t["plays"]], "seen": dict(t["seen"])}


def clone(d: dict) -> dict:
    out = {
        "players": d["players"], "edition": d["edition"], "stage": d["stage"], "turn": d["turn"],
        "persons_deck": list(d["persons_deck"]), "zusatz_deck": list(d["zusatz_deck"]),
        "ablauf": list(d["ablauf"]), "set_aside": list(d["set_aside"]), "out": list(d["out"]),
        "hands": {p: list(h) for p, h in d["hands"].items()},
        "won": {p: list(w) for p, w in d["won"].items()},
        "tally": {p: dict(t) for p, t in d["tally"].items()},
        "trick": _trick(d["trick"]), "tricks": d["tricks"], "patts": d["patts"],
        "plans": {p: (None if v is None else list(v)) for p, v in d["plans"].items()},
        "draw_pref": dict(d["draw_pref"]), "awaiting": list(d["awaiting"]),
        "last_result": d["last_result"], "outcome": d["outcome"],
    }
    if "kept" in d:   # conditional steps kept while their player is asked (trick.keep)
        out["kept"] = {p: list(v) for p, v in d["kept"].items()}
    return out


def deep(x: Any) -> Any:
    """A full copy of JSON data (for ``dump`` and ``load``, whose results the caller owns)."""
    return json.loads(json.dumps(x))


def load_state(data: dict) -> State:
    return State(edition_for(data.get("edition")), deep(dict(data)))


def left_of(d: dict, player: str) -> int:
    """Seat index of the player to the left (next clockwise) of ``player``."""
    return (d["players"].index(player) + 1) % len(d["players"])
