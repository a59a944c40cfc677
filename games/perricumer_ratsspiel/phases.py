"""Phases 1–3 of a council session: event cards, actions, votes.
Each function works on the copied state ``s`` and appends to ``log``."""
from __future__ import annotations

from referee.game_api.contract import LogEntry, Rng

from . import council as C
from .orders import proposal

GM_ONLY: frozenset[str] = frozenset()


def _only(player: str) -> frozenset[str]:
    return frozenset({player})


def kidnapped_now(s: dict) -> set[str]:
    return {m for m, until in s["kidnapped"].items() if until >= s["round"]}


def play_cards(s: dict, read: dict, log: list, rec: dict) -> dict:
    """Phase 1.  Returns this round's effects.  A played card is spent even
    when it has no effect (the seed: 'unabhängig davon, ob sie zum Erfolg führt')."""
    eff = {"double": [], "extra": {}, "absent": {}, "puppets": {}, "kaiserhof": []}
    played = {p: o["card"] for p, o in sorted(read.items()) if o["card"]}
    for p, card in played.items():
        s["cards"][p].remove(card["karte"])
    mems = C.members(s)
    for kind in ("entfuehrung", "marionette"):
        targets: dict[str, list[str]] = {}
        for p, card in played.items():
            if card["karte"] == kind:
                targets.setdefault(card["ziel"], []).append(p)
        for target, by in sorted(targets.items()):
            void = len(by) > 1
            for p in by:
                rec["private"][p]["card"] = {**played[p], "void": void}
            if void:
                log.append(LogEntry("card_void", {"karte": kind, "ziel": target, "count": len(by)}))
                rec["events"].append({"karte": kind, "ziel": target, "void": True})
                continue
            if kind == "entfuehrung":
                s["kidnapped"][target] = s["round"] + 1
            else:
                eff["puppets"][target] = {"player": by[0], "votes": played[by[0]].get("abstimmung", {})}
            rec["events"].append({"karte": kind, "ziel": target, "void": False})
            log.append(LogEntry("card", {"karte": kind, "ziel": target}))
    for p, card in played.items():
        k = card["karte"]
        if k in ("entfuehrung", "marionette"):
            continue
        rec["private"][p]["card"] = {**card, "void": False}
        if k == "familienstern":
            eff["double"].append(p)
        elif k == "fremdes_revier":
            eff["extra"].setdefault(p, []).append(card["viertel"])
        elif k == "fremde_schichten":
            eff["extra"].setdefault(p, []).append(card["schicht"])
        elif k in ("aufstaende", "klassenkampf"):
            field = "viertel" if k == "aufstaende" else "schicht"
            for m in C.member_ids(s):
                if mems[m][field] == card[field]:
                    eff["absent"].setdefault(m, k)
        elif k == "kaiserhof":
            eff["kaiserhof"].append({"vorschlag": card["vorschlag"], "seite": card["seite"]})
        public = {key: v for key, v in card.items() if key != "abstimmung"}
        rec["events"].append({**public, "void": False})
        log.append(LogEntry("card", public))
    for p in played:
        log.append(LogEntry("my_card", {"player": p, **rec["private"][p]["card"]}, _only(p)))
    eff["kidnapped"] = sorted(kidnapped_now(s))
    return eff


def do_actions(s: dict, read: dict, log: list, rec: dict) -> dict:
    """Phase 2.  Returns the netted Einflussnahme: {member: {nr: {choice: points}}}."""
    pool = sum(o["actions"]["verwaltung"] for o in read.values())
    k, used = C.verwaltung_reduction(pool)
    before = s["korruption"]
    s["korruption"] = max(0, before - k)
    rec["verwaltung"] = {"points": pool, "reduction": k, "used": used, "before": before, "after": s["korruption"]}
    log.append(LogEntry("verwaltung", rec["verwaltung"]))
    pushes: dict[str, dict[str, dict[str, int]]] = {}
    for p, o in sorted(read.items()):
        a = o["actions"]
        m = s["players"][p]
        start = C.public_influence(s, m)
        gained, spent = C.wahlkampf(start, a["wahlkampf"])
        s["influence"][m] += gained
        for e in a["einfluss"]:
            slot = pushes.setdefault(e["ziel"], {}).setdefault(str(e["vorschlag"]), {})
            slot[e["richtung"]] = slot.get(e["richtung"], 0) + e["punkte"]
        use = {"default": a["default"], "verwaltung": a["verwaltung"], "einfluss": a["einfluss"],
               "wahlkampf": {"ap": a["wahlkampf"], "spent": spent, "from": start, "gained": gained},
               "ap_total": a["verwaltung"] + a["wahlkampf"] + sum(e["punkte"] for e in a["einfluss"])}
        rec["private"][p]["ap"] = use
        log.append(LogEntry("my_actions", {"player": p, **use}, _only(p)))
    return pushes


def _npc_vote(s: dict, m: str, p: dict, pushes: dict, rng: Rng) -> tuple[str, dict]:
    best, gains = C.inclination(s, m, p)
    push = pushes.get(m, {}).get(str(p["nr"]), {})
    why = {"member": m, "gains": gains, "inclination": best, "pushes": push, "lot": False}
    if p["kind"] == "wahl":
        field = C.election_field(best, p["candidates"], push)
        why["field"] = field
        if len(field) > 1:
            why["lot"] = True
        vote = field[0] if len(field) == 1 else rng.choice(field)
    else:
        level = C.pushed_level(C.initial_level(best), push.get("pro", 0), push.get("contra", 0))
        why["level"] = C.LEVELS[level]
        if level == 1:
            why["lot"] = True
            vote = rng.choice(["contra", "pro"])
        else:
            vote = C.LEVELS[level]
    why["vote"] = vote
    return vote, why


def default_vote(s: dict, m: str, p: dict, rng: Rng) -> tuple[str, bool]:
    """Standardaktion: vote like an NPC (own inclination, ties by lot)."""
    best, _ = C.inclination(s, m, p)
    if len(best) == 1:
        return best[0], False
    return rng.choice(best), True


def cast_votes(s: dict, read: dict, eff: dict, pushes: dict, rng: Rng, log: list) -> dict[str, dict]:
    """Phase 3.  {nr: {member: vote or None}} plus reasons logged for the GM."""
    by_member = {m: p for p, m in s["players"].items()}
    kidnapped = set(eff["kidnapped"])
    out: dict[str, dict] = {}
    for nr in s["session"]:
        p = proposal(s, nr)
        votes: dict[str, str | None] = {}
        reasons = []
        for m in C.member_ids(s):          # players first: a puppet may mirror its master
            if m not in by_member:
                continue
            player = by_member[m]
            if m in eff["absent"]:
                votes[m] = None
            elif str(nr) in read[player]["votes"]:
                votes[m] = read[player]["votes"][str(nr)]
            else:
                votes[m], lot = default_vote(s, m, p, rng)
                reasons.append({"member": m, "player": player, "standard": True, "lot": lot, "vote": votes[m]})
        for m in C.member_ids(s):
            if m in by_member:
                continue
            if m in kidnapped or m in eff["absent"]:
                votes[m] = None
                reasons.append({"member": m, "absent": "entfuehrung" if m in kidnapped else eff["absent"][m]})
            elif m in eff["puppets"]:
                puppet = eff["puppets"][m]
                master = s["players"][puppet["player"]]
                votes[m] = puppet["votes"].get(str(nr)) or votes[master] or default_vote(s, m, p, rng)[0]
                reasons.append({"member": m, "marionette": puppet["player"], "vote": votes[m]})
            else:
                votes[m], why = _npc_vote(s, m, p, pushes, rng)
                reasons.append(why)
        out[str(nr)] = {m: votes[m] for m in C.member_ids(s)}
        log.append(LogEntry("npc_votes", {"nr": nr, "reasons": reasons}, GM_ONLY))
    return out
