"""``view``: what one viewer may see, built as an allow-list.

Public: the whole board, every caucus and the draw pool by card back (state
and faction), the discard pile, the top card's back.  Private: the viewer's
own hand fronts with their events.  The GM sees every hand and the deck order.
"""
from __future__ import annotations

from referee.game_api.contract import GM

from .actions import event_enactable
from .edition import FACTIONS, STATES
from .engine import tally
from .rounds import end_bonus
from .state import MARKERS_PER_COLOUR, free_markers


def _card(ed, cid) -> dict:
    c = ed.cards[cid]
    return {"id": cid, "name": c.name, "state": c.state, "faction": c.faction}


def _front(d, ed, p, cid, active) -> dict:
    c = ed.cards[cid]
    out = _card(ed, cid)
    out.update(event=dict(c.text), persistent=c.persistent, source=c.source)
    if active:
        out["enactable"] = event_enactable(d, ed, p, cid) or "yes"
    return out


def _article(ed, slot) -> dict | None:
    art, flipped = slot
    if art is None:
        return None
    a = ed.articles[art]
    return {"id": art, "title": dict(a["title"]), "bias": ed.side(art, flipped),
            "historical": not flipped, "front": a["front"], "back": a["back"]}


def public_view(state) -> dict:
    d, ed = state.d, state.ed
    players = []
    for p in d["players"]:
        planner = next(c for c, q in d["planners"].items() if q == p)
        players.append({
            "id": p, "planner": planner, "planner_name": ed.cards[planner].name,
            "score": d["scores"][p], "markers": d["markers"][p], "free_markers": free_markers(d, p),
            "stockpile": MARKERS_PER_COLOUR - d["markers"][p],
            "committee": d["committee"].get(p, 0), "tokens": dict(d["tokens"][p]),
            "caucus": [[ed.cards[c].state, ed.cards[c].faction] for c in d["hands"][p]],
            "persistent": [_card(ed, c) for q, c in d["persistent"] if q == p],
        })
    delegations = []
    for s in STATES:
        v = d["delegations"].get(s)
        if v is not None:
            delegations.append({"state": s, "side": v["side"], "controller": v["ctrl"],
                                "protected": v["protected"], "cards": [_card(ed, c) for c in v["cards"]]})
    yea, nay = tally(d)
    debate = {f: [{"player": p, "position": pos}
                  for pos, p in sorted(((pos, p) for p, pos in d["debate"][f].items()), reverse=True)]
              for f in FACTIONS}
    top = d["deck"][-1] if d["deck"] else None
    awaiting = {}
    if d["stage"] == "action":
        awaiting = {d["players"][d["active"]]: "action"}
    elif d["stage"] == "keep":
        awaiting = {p: "keep" for p in d["players"]}
    elif d["stage"] == "committee_flip":
        awaiting = {d["flip_player"]: "committee_flip"}
    return {
        "edition": ed.title,
        "roster": {cid: {"name": c.name, "state": c.state, "faction": c.faction} for cid, c in ed.cards.items()},
        "round": d["round"], "turn": d["turn"], "stage": d["stage"],
        "active": d["players"][d["active"]] if d["stage"] == "action" else None,
        "awaiting": awaiting, "players": players,
        "assembly": {"article": _article(ed, d["assembly"]), "delegations": delegations,
                     "tracker": {s: (d["delegations"][s]["side"] if s in d["delegations"] else None)
                                 for s in STATES},
                     "yea": yea, "nay": nay},
        "committee": {"article": _article(ed, d["committee_article"]),
                      "markers": {p: d["committee"].get(p, 0) for p in d["players"]},
                      "flip_player": d["flip_player"]},
        "debate": debate,
        "resolved": [_article(ed, r) for r in d["resolved"]],
        "articles_left": len(d["articles"]),
        "pool": [{"position": i + 1, "state": ed.cards[c].state, "faction": ed.cards[c].faction}
                 for i, c in enumerate(d["pool"])],
        "deck_count": len(d["deck"]),
        "deck_top": None if top is None else [ed.cards[top].state, ed.cards[top].faction],
        "discard_count": len(d["discard"]),
        "discard": [_card(ed, c) for c in d["discard"]],
        "history": [dict(h) for h in d["history"]],
        "bonus_forecast": end_bonus(d, ed),
        "outcome": d["outcome"],
    }


def since_last_turn(history: list, players: list, viewer) -> list:
    """Public entries of the turns after the viewer's own last turn."""
    out = []
    for h in reversed(history):
        entries = h["entries"]
        if viewer is not None and any(e["kind"] in ("vote", "debate", "event", "snub")
                                      and e["data"].get("player") == viewer for e in entries):
            break
        out = entries + out
    return out


def build_view(state, viewer) -> dict:
    d, ed = state.d, state.ed
    pub = public_view(state)
    # the turn just resolved is in the report's own log; these are the ones before it
    # only a player has a "last turn"; the GM and observers read every report anyway
    pub["since_last_turn"] = (since_last_turn(d["history"][:-1], d["players"], viewer)
                              if viewer in d["players"] else [])
    if viewer is None:
        return {"public": pub, "private": {}}
    if viewer == GM:
        priv = {"hands": {p: [_front(d, ed, p, c, False) for c in d["hands"][p]] for p in d["players"]},
                "dealt": {p: [_card(ed, c) for c in cs] for p, cs in d["dealt"].items()},
                "deck_top_first": [_card(ed, c) for c in reversed(d["deck"])],
                "pool": [_card(ed, c) for c in d["pool"]],
                "prefs": {p: dict(v) for p, v in d["prefs"].items()}}
        return {"public": pub, "private": priv}
    if viewer not in d["players"]:
        return {"public": pub, "private": {}}
    active = d["stage"] == "action" and d["players"][d["active"]] == viewer
    priv = {"player": viewer,
            "hand": [_front(d, ed, viewer, c, active) for c in d["hands"][viewer]],
            "dealt": [_front(d, ed, viewer, c, False) for c in d["dealt"].get(viewer, [])],
            "prefs": dict(d["prefs"][viewer])}
    return {"public": pub, "private": priv}
