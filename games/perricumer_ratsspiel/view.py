"""What a viewer may see, built as an allow-list from the state, with names
resolved so report templates stay simple."""
from __future__ import annotations

import copy

from referee.game_api.contract import GM

from . import council as C
from .campaign import CITY_VALUES, VALUE_NAMES
from .orders import proposal


def _sym_name(s: dict, sym: str) -> str:
    return s["campaign"]["viertel"].get(sym) or s["campaign"]["schichten"].get(sym) or sym


def proposal_view(s: dict, nr: int) -> dict:
    p = proposal(s, nr)
    mems = C.members(s)
    out = {"nr": nr, "kind": p["kind"], "title": dict(p["title"]), "source": p.get("source", "")}
    if p["kind"] == "wahl":
        office = next(o for o in s["campaign"]["offices"] if o["id"] == p["office"])
        out.update(office=p["office"], office_name=dict(office["name"]), value=office["value"],
                   value_name=VALUE_NAMES[office["value"]],
                   candidates=[{"id": c, "name": mems[c]["name"]} for c in p["candidates"]])
    else:
        out.update(value=p["value"], value_name=VALUE_NAMES[p["value"]], direction=p["direction"],
                   pro=[_sym_name(s, x) for x in p["pro"]], contra=[_sym_name(s, x) for x in p["contra"]])
    return out


def _members(s: dict) -> list[dict]:
    by_member = {m: p for p, m in s["players"].items()}
    camp = s["campaign"]
    rows = []
    for i, m in enumerate(camp["members"]):
        rows.append({
            "id": m["id"], "name": m["name"], "rank": m["rank"], "votes": C.votes_of(m),
            "role": m["role"], "viertel": camp["viertel"][m["viertel"]], "schicht": camp["schichten"][m["schicht"]],
            "player": by_member.get(m["id"]), "influence": s["influence"][m["id"]],
            "office_bonus": C.office_bonus(s, m["id"]), "total": C.public_influence(s, m["id"]),
            "absent_next": s["kidnapped"].get(m["id"], 0) >= s["round"], "_i": i})
    rows.sort(key=lambda r: (-r["total"], r["_i"]))
    for r in rows:
        del r["_i"]
    return rows


def _record(s: dict) -> dict | None:
    """The last session's public record (votes with who voted how)."""
    rec = s.get("last")
    if not rec:
        return None
    mems = C.members(s)
    proposals = []
    for rp in rec["proposals"]:
        row = {k: v for k, v in rp.items() if k not in ("votes", "symbol_gains")}
        row.update(proposal_view(s, rp["nr"]))
        row["change"] = rp.get("value")          # {id, before, after} when a value moved
        row["voters"] = {}
        for m, v in rp["votes"].items():
            row["voters"].setdefault(v if v is not None else "absent", []).append(mems[m]["name"])
        row["gains"] = [{"name": mems[m]["name"], "gain": g} for m, g in rp["gains"].items()]
        row["groups"] = [_sym_name(s, g) for g in rp["groups"]]
        if rp.get("office"):
            row["elected"] = mems[rp["office"]["after"]]["name"]
        if rp["kind"] == "wahl":
            row["tally_named"] = [{"name": mems[c]["name"], "votes": v} for c, v in rp["tally"].items()]
        proposals.append(row)
    events = []
    for e in rec["events"]:
        ev = dict(e)
        if "ziel" in ev:
            ev["ziel_name"] = mems[ev["ziel"]]["name"]
        for key in ("viertel", "schicht"):
            if key in ev:
                ev[key + "_name"] = _sym_name(s, ev[key])
        events.append(ev)
    sel = rec["selection"]
    return {
        "round": rec["round"], "proposals": proposals, "events": events,
        "verwaltung": rec["verwaltung"], "korruption_steps": rec["korruption_steps"],
        "offices_lost": [{"office": o["office"], "holder": mems[o["holder"]]["name"]} for o in rec["offices_lost"]],
        "picks": None if sel is None else [
            {"player": p, "member": mems[s["players"][p]]["name"], "nr": nr} for p, nr in sorted(sel["picks"].items())],
        "fills": [] if sel is None else sel["fills"], "refill": rec["refill"],
    }


def _agenda(s: dict, player: str) -> dict | None:
    a = C.agenda_of(s, player)
    if a is None:
        return None
    return {"player": player, "member": C.members(s)[s["players"][player]]["name"], "id": a["id"],
            "text": dict(a["text"]), "bonus": a["bonus"], "active": C.agenda_holds(s, a)}


def private_view(s: dict, player: str) -> dict:
    rec = s.get("last") or {}
    mine = (rec.get("private") or {}).get(player, {})
    ap = copy.deepcopy(mine.get("ap"))
    if ap:      # how each persuaded councillor then voted
        cast = {str(rp["nr"]): rp["votes"] for rp in rec["proposals"]}
        for e in ap["einfluss"]:
            e["voted"] = cast.get(str(e["vorschlag"]), {}).get(e["ziel"])
            e["ziel_name"] = C.members(s)[e["ziel"]]["name"]
    return {
        "player": player, "member": s["players"][player], "member_name": C.members(s)[s["players"][player]]["name"],
        "agenda": _agenda(s, player), "cards": list(s["cards"].get(player) or []),
        "cards_chosen": s["cards"].get(player) is not None,
        "card_played": mine.get("card"), "ap": ap,
        "picked": [int(nr) for nr, ps in sorted(s["picked"].items()) if player in ps],
    }


def build_view(s: dict, viewer: str | None) -> dict:
    return {"public": public_part(s), "private": private_part(s, viewer)}


def build_views(s: dict, viewers: list) -> dict:
    """Every viewer's view at once: the public part, the same for all, built once (one object: a
    reader of the views never writes)."""
    public = public_part(s)
    return {v: {"public": public, "private": private_part(s, v)} for v in viewers}


def public_part(s: dict) -> dict:
    camp = s["campaign"]
    mems = C.members(s)
    return {
        "title": camp["title"], "sample": camp["sample"], "round": s["round"], "rounds": camp["rounds"],
        "over": s["outcome"] is not None,
        "values": [{"id": v, "name": VALUE_NAMES[v], "value": s["values"][v]} for v in CITY_VALUES],
        "korruption": s["korruption"], "members": _members(s),
        "seats": list(s.get("seat_order") or sorted(s["players"])),
        "offices": [{"id": o["id"], "name": dict(o["name"]), "value": o["value"], "value_name": VALUE_NAMES[o["value"]],
                     "level": s["values"][o["value"]], "holder": s["offices"][o["id"]]["holder"],
                     "holder_name": mems[s["offices"][o["id"]]["holder"]]["name"] if s["offices"][o["id"]]["holder"] else None,
                     "low_rounds": s["offices"][o["id"]]["low"],
                     "bonus": C.office_bonus(s, s["offices"][o["id"]]["holder"]) if s["offices"][o["id"]]["holder"] else 0}
                    for o in camp["offices"]],
        "last": _record(s),
        # once the game is over no session sits again: its agenda and selection are not shown
        "session": [] if s["outcome"] is not None else [proposal_view(s, nr) for nr in s["session"]],
        "selection": [] if s["outcome"] is not None else [proposal_view(s, nr) for nr in s["selection"]],
        "deck_left": len(s["deck"]),
        "revealed_agendas": [_agenda(s, p) for p in s["revealed"]],
        "outcome": None if s["outcome"] is None else {
            **s["outcome"], "winner_name": mems[s["outcome"]["winner_member"]]["name"] if s["outcome"]["winner_member"] else None},
    }


def private_part(s: dict, viewer: str | None) -> dict:
    if viewer == GM:
        return {"players": {p: private_view(s, p) for p in sorted(s["players"])},
                "deck": [proposal_view(s, nr) for nr in s["deck"]]}
    if viewer in s["players"]:
        return private_view(s, viewer)
    return {}
