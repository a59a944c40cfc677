"""The match state: one JSON-safe dict plus the compiled edition beside it.

``clone`` is written out by hand because ``resolve`` copies the state every
turn and the benchmark wants > 100 full games a second.  Lists that are never
changed after setup (seats, planners, the edition) are shared, not copied.
"""
from __future__ import annotations

from referee.game_api.contract import EditionState, json_copy

from .edition import FACTIONS, Edition, edition_for

TO_PASS = 7   # Yea delegations that pass the article
TO_FAIL = 6   # Nay delegations that block it
HAND = 3
POOL = 3
MARKERS_PER_COLOUR = 8
START_MARKERS = 3
ROUNDS = 4


FFState = EditionState   # the data and its edition, as setup/resolve hand them to the referee


def clone(d: dict) -> dict:
    return {
        "players": d["players"], "planners": d["planners"], "edition": d["edition"],
        "round": d["round"], "active": d["active"], "stage": d["stage"], "turn": d["turn"],
        "flip_player": d["flip_player"], "ender": d["ender"], "outcome": d["outcome"],
        "scores": dict(d["scores"]), "markers": dict(d["markers"]),
        "committee": dict(d["committee"]),
        "debate": {f: dict(v) for f, v in d["debate"].items()},
        "tokens": {p: dict(v) for p, v in d["tokens"].items()},
        "hands": {p: list(h) for p, h in d["hands"].items()},
        "dealt": {p: list(h) for p, h in d["dealt"].items()},
        "deck": list(d["deck"]), "discard": list(d["discard"]), "pool": list(d["pool"]),
        "assembly": list(d["assembly"]), "committee_article": list(d["committee_article"]),
        "articles": list(d["articles"]), "resolved": [list(r) for r in d["resolved"]],
        "delegations": {s: {"side": v["side"], "cards": list(v["cards"]), "ctrl": v["ctrl"],
                            "protected": v["protected"]} for s, v in d["delegations"].items()},
        "persistent": [list(x) for x in d["persistent"]],
        "prefs": {p: dict(v) for p, v in d["prefs"].items()},
        "history": list(d["history"]),
    }


deep = json_copy   # a full copy of JSON-like data


def load_state(data: dict) -> FFState:
    return FFState(edition_for(data.get("edition")), deep(dict(data)))


def new_data(players: list[str], planners: dict, edition_raw: dict | None) -> dict:
    return {
        "players": list(players), "planners": planners, "edition": edition_raw,
        "round": 1, "active": 0, "stage": "keep", "turn": 0,
        "flip_player": None, "ender": None, "outcome": None,
        "scores": {p: 0 for p in players}, "markers": {p: START_MARKERS for p in players},
        "committee": {}, "debate": {f: {} for f in FACTIONS},
        "tokens": {p: {f: 0 for f in FACTIONS} for p in players},
        "hands": {p: [] for p in players}, "dealt": {},
        "deck": [], "discard": [], "pool": [],
        "assembly": [None, False], "committee_article": [None, False],
        "articles": [], "resolved": [], "delegations": {}, "persistent": [],
        "prefs": {p: {"flip": None, "reclaim_planner": True} for p in players},
        "history": [],
    }


# --- influence markers -------------------------------------------------------

def markers_in_use(d: dict, p: str) -> int:
    n = d["committee"].get(p, 0)
    for v in d["delegations"].values():
        if v["ctrl"] == p:
            n += 1
    for track in d["debate"].values():
        if p in track:
            n += 1
    return n


def free_markers(d: dict, p: str) -> int:
    return d["markers"][p] - markers_in_use(d, p)


def reclaim_options(d: dict, p: str, exclude_committee: bool = False) -> list[str]:
    """Markers of ``p`` in use, as order strings, in the default order of reuse:
    debate markers lowest first, then the Committee Room, then delegations
    with the fewest cards (the least to lose)."""
    opts = sorted((pos, f) for f, t in d["debate"].items() for q, pos in t.items() if q == p)
    out = [f"debate:{f}" for _, f in opts]
    if d["committee"].get(p, 0) and not exclude_committee:
        out.append("committee")
    dels = sorted((len(v["cards"]), s) for s, v in d["delegations"].items() if v["ctrl"] == p)
    out += [f"assembly:{s}" for _, s in dels]
    return out


def release_marker(d: dict, p: str, where: str) -> bool:
    """Take back one marker of ``p`` from ``where``; False if it is not there."""
    kind, _, arg = where.partition(":")
    if kind == "debate" and p in d["debate"].get(arg, {}):
        del d["debate"][arg][p]
        return True
    if kind == "committee" and d["committee"].get(p, 0) > 0:
        d["committee"][p] -= 1
        if not d["committee"][p]:
            del d["committee"][p]
        return True
    if kind == "assembly":
        v = d["delegations"].get(arg)
        if v is not None and v["ctrl"] == p:
            v["ctrl"] = None
            return True
    return False


def ensure_marker(d: dict, p: str, reclaim: str | None, log: list, *,
                  exclude_committee: bool = False, keep: str | None = None) -> bool:
    """Make one marker of ``p`` free, reusing one in play if none is (rules:
    "Using influence markers").  ``keep`` names a place not to take it from."""
    if free_markers(d, p) > 0:
        return True
    opts = [o for o in reclaim_options(d, p, exclude_committee) if o != keep]
    if not opts:
        return False
    where = reclaim if reclaim in opts else opts[0]
    release_marker(d, p, where)
    log.append(("marker_reused", {"player": p, "from": where}, None))
    return True


# --- persistent events --------------------------------------------------------

def persistent_steps(d: dict, ed: Edition, kind: str):
    """(owner, step) for every persistent event in effect with a step ``kind``."""
    for owner, cid in d["persistent"]:
        for st in ed.cards[cid].steps:
            if st["do"] == kind:
                yield owner, st


def event_blocked(d: dict, ed: Edition, p: str, cid: str) -> str | None:
    """Why ``p`` may not enact ``cid`` now (None if allowed)."""
    for owner, cid2 in d["persistent"]:
        if owner == p:
            continue
        for st in ed.cards[cid2].steps:
            if st["do"] == "block_events":
                return cid2
            if st["do"] == "block_card" and st["card"] == cid:
                return cid2
    return None


def delegation_protected(d: dict, ed: Edition, state: str) -> bool:
    v = d["delegations"][state]
    if v["protected"]:
        return True
    return v["ctrl"] is not None and any(
        owner == v["ctrl"] for owner, _ in persistent_steps(d, ed, "protect_delegations"))
