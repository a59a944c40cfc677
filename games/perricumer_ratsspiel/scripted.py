"""Random legal orders for scripted players (conformance test, demo)."""
from __future__ import annotations

from typing import Any

from referee.game_api.contract import Rng

from . import council as C
from .orders import AP, CARD_PARAM, CARDS, proposal


def random_orders(state: dict, player: str, rng: Rng) -> dict:
    """Random legal orders (scripted players, conformance test, demo)."""
    if player not in state["players"]:
        return {}
    out: dict[str, Any] = {}
    if state["cards"].get(player) is None:
        out["ereigniskarten"] = rng.sample(list(CARDS), 3)
    if state["round"] > 1:
        session = list(state["session"])
        votes = {}
        for nr in session:
            p = proposal(state, nr)
            votes[nr] = rng.choice(p["candidates"] if p["kind"] == "wahl" else ["pro", "contra"])
        out["abstimmung"] = votes
        budget = AP
        acts: dict[str, Any] = {"einflussnahme": []}
        npc = C.npcs(state)
        for _ in range(rng.below(3)):
            if not session or not npc:
                break
            nr = rng.choice(session)
            p = proposal(state, nr)
            pts = 1 + rng.below(2)
            acts["einflussnahme"].append({
                "ziel": rng.choice(npc), "vorschlag": nr, "punkte": pts,
                "richtung": rng.choice(p["candidates"] if p["kind"] == "wahl" else ["pro", "contra"])})
            budget -= pts
        acts["wahlkampf"] = rng.below(budget + 1)
        acts["verwaltungsarbeit"] = budget - acts["wahlkampf"]
        out["aktionen"] = acts
        left = state["cards"].get(player) or []
        if left and rng.below(3) == 0:
            out["ereigniskarte"] = _random_card(state, rng.choice(left), rng, npc, session)
    if state["round"] < state["campaign"]["rounds"] and state["selection"]:
        out["auswahl"] = rng.choice(state["selection"])
    return out


def _random_card(state: dict, card: str, rng: Rng, npc: list[str], session: list[int]) -> dict | str:
    need = CARD_PARAM[card]
    camp = state["campaign"]
    if need is None:
        return {"karte": card}
    if need == "viertel":
        return {"karte": card, "viertel": rng.choice(sorted(camp["viertel"]))}
    if need == "schicht":
        return {"karte": card, "schicht": rng.choice(sorted(camp["schichten"]))}
    if need == "ziel":
        return {"karte": card, "ziel": rng.choice(npc)} if npc else "keine"
    if not session:
        return "keine"
    nr = rng.choice(session)
    p = proposal(state, nr)
    return {"karte": card, "vorschlag": nr,
            "seite": rng.choice(p["candidates"] if p["kind"] == "wahl" else ["pro", "contra"])}
