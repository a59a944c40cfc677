"""``view``: what one viewer may see, built as an allow-list.

Public: the whole table (persons with their current values, Zusatzkarten,
armies with holder and points), the standing as the table lies, every
player's tallies, Ablaufkarten won, hand sizes by kind and the card list of
the edition.  Private: the viewer's own hand.  The GM sees every hand and
the stacks.
"""
from __future__ import annotations

from referee.game_api.contract import GM

from .edition import PARTIES
from .table import assign_armies, evaluate, military, person_value


def catalogue(ed) -> dict:
    cards = {}
    for pid, p in ed.persons.items():
        cards[pid] = {"name": p.name, "kind": "person", "party": p.party, "value": p.value,
                      "flag": p.flag, "mil": p.mil}
    for zid, z in ed.zusatz.items():
        cards[zid] = {"name": z.name, "kind": "army" if z.is_army else "zusatz", "text": dict(z.text),
                      "red": z.red, "wake": z.wake, "flag": z.army_flag, "value": z.army_value}
    for aid, a in ed.ablauf.items():
        cards[aid] = {"name": a["name"], "kind": "ablauf"}
    return cards


def public_view(state) -> dict:
    d, ed = state.d, state.ed
    t = d["trick"]
    players = d["players"]
    armies = assign_armies(t, ed, players)
    table = []
    for p in players:
        persons = [{"id": c, "name": ed.persons[c].name, "party": ed.persons[c].party,
                    "base": ed.persons[c].value, "value": person_value(t, ed, p, c),
                    "flag": ed.persons[c].flag, "mil": military(t, ed, c) if ed.persons[c].flag else 0}
                   for c in t["persons"][p]]
        by_party = {q: [x for x in persons if x["party"] == q] for q in PARTIES}
        table.append({"player": p, "persons": persons,
                      "parties": {q: {"persons": v, "sum": sum(x["value"] for x in v)}
                                  for q, v in by_party.items() if v},
                      "armies": [a for a in armies if a["holder"] == p]})
    hands = {p: {"person": sum(1 for c in d["hands"][p] if c in ed.persons),
                 "zusatz": sum(1 for c in d["hands"][p] if c not in ed.persons)} for p in players}
    stage = d["stage"]
    return {
        "edition": ed.title, "cards": catalogue(ed), "stage": stage, "turn": d["turn"],
        # between tricks (the draw) the number is the coming trick's, as is the Ablaufkarte shown
        "trick": d["tricks"] + (1 if stage == "draw" else 0), "patts": d["patts"],
        "ablauf": ({"id": d["ablauf"][0], "name": ed.ablauf[d["ablauf"][0]]["name"]} if d["ablauf"] else None),
        "ablauf_left": len(d["ablauf"]), "set_aside": list(d["set_aside"]),
        "opener": players[t["opener"]],
        "actor": players[t["actor"]] if stage == "trick" else None,
        "awaiting": {p: stage for p in d["awaiting"]} if stage != "over" else {},
        "players": [{"id": p, "hand": hands[p], "tally": dict(d["tally"][p]), "won": list(d["won"][p]),
                     "passed": p in t["passed"], "pushed": t["pushed"].count(p)} for p in players],
        "party_totals": {q: sum(d["tally"][p][q] for p in players) for q in PARTIES},
        "table": table,
        "zusatz": [{"card": z["card"], "name": ed.zusatz[z["card"]].name, "by": z["by"], "on": z.get("on"),
                    "player": z.get("player"), "party": z.get("party"), "void": z["void"],
                    "red": ed.zusatz[z["card"]].red} for z in t["zusatz"]],
        "standing": evaluate(t, ed, players) if stage == "trick" else None,
        "last_result": d["last_result"],
        "stacks": {"person": len(d["persons_deck"]), "zusatz": len(d["zusatz_deck"])},
        "out": list(d["out"]),
        "outcome": d["outcome"],
    }


def build_view(state, viewer) -> dict:
    d = state.d
    pub = public_view(state)
    if viewer is None or (viewer != GM and viewer not in d["players"]):
        return {"public": pub, "private": {}}
    if viewer == GM:
        return {"public": pub, "private": {"hands": {p: list(h) for p, h in d["hands"].items()},
                                           "persons_deck_top_first": list(reversed(d["persons_deck"])),
                                           "zusatz_deck_top_first": list(reversed(d["zusatz_deck"])),
                                           "plan_steps": {p: (None if v is None else len(v))
                                                          for p, v in d["plans"].items()}}}
    plan = d["plans"][viewer]
    return {"public": pub, "private": {"player": viewer, "hand": list(d["hands"][viewer]),
                                       "plan_steps": None if plan is None else len(plan)}}
