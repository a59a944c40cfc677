"""One step of a plan: whether it can run now (``step_problems``) and doing it (``do_step``).

A step is "pass", "ask" or a dict: ``{play: card, on: person, player: p, party: X, to: p}``
or ``{push: card}``, each with an optional condition ``if: {answered: X, winning: bool}``.
Problems are tuples (code, params) phrased by ``orders.MESSAGES``.
"""
from __future__ import annotations

from .edition import PARTIES
from .table import assign_armies, evaluate, owner_of


def _since(t: dict, p: str) -> list[dict]:
    """Plays of the other players since ``p`` last acted in this trick."""
    return [x for x in t["plays"][t["seen"][p]:] if x["by"] != p]


def condition_problems(d: dict, ed, p: str, cond: dict | None) -> list:
    if not cond:
        return []
    t = d["trick"]
    out = []
    want = cond.get("answered")
    if want is not None:
        def hit(x):
            if want == "army":
                return x["kind"] == "army"
            if want in PARTIES:
                return x["kind"] == "person" and ed.persons[x["card"]].party == want
            return x["card"] == want
        if not any(hit(x) for x in _since(t, p)):
            out.append(("if.answered", {"what": want}))
    if cond.get("winning") is not None:
        now = evaluate(t, ed, d["players"]).get("winner") == p
        if now != cond["winning"]:
            out.append(("if.winning" if cond["winning"] else "if.not_winning", {}))
    return out


def _target_problems(d, ed, p, eff, step, table: bool = True) -> list:
    """Why the step's target does not fit; ``table=False`` asks only what no table can
    change (a commander, a party, a side of players), for a step that could never run."""
    t = d["trick"]
    kind = eff["do"]
    if kind == "none":
        return []
    if kind == "party_value":
        q = step.get("player")
        if q is None:
            return [("target.player_missing", {})]
        if q not in d["players"]:
            return [("target.player_unknown", {"player": q})]
        if (eff["side"] == "own" and q != p) or (eff["side"] == "other" and q == p):
            return [("target.side", {"side": eff["side"]})]
        party = eff.get("party") or step.get("party")
        if party is None:
            return [("target.party_missing", {})]
        if eff.get("party") and step.get("party") not in (None, eff["party"]):
            return [("target.party_fixed", {"party": eff["party"]})]
        return []
    pid = step.get("on")
    if pid is None:
        return [] if eff.get("optional") else [("target.missing", {})]
    owner = owner_of(t, pid) if table else None
    if table and owner is None:
        return [("target.not_on_table", {"card": pid})]
    person = ed.persons.get(pid)
    if person is None:
        return [("card.unknown", {"card": pid})]
    if kind == "commander_value":
        if person.flag not in eff["flags"]:
            return [("target.flag", {"card": pid, "flags": ", ".join(eff["flags"])})]
        return []
    if person.flag is not None and not eff.get("commanders"):
        return [("target.commander", {"card": pid})]
    if kind == "person_value" and person.party not in eff["parties"]:
        return [("target.party", {"card": pid, "parties": ", ".join(eff["parties"])})]
    side = eff.get("side", "any")
    if table and ((side == "own" and owner != p) or (side == "other" and owner == p)):
        return [("target.side", {"side": side})]
    return []


def never_problems(d: dict, ed, p: str, step) -> list:
    """Why ``step`` can never run, whatever the table (a Zusatzkarte aimed at a commander)."""
    card = step.get("play") if isinstance(step, dict) else None
    z = ed.zusatz.get(card)
    if z is None or z.is_army:
        return []
    return _target_problems(d, ed, p, z.effect, step, table=False)


def step_problems(d: dict, ed, p: str, step) -> list:
    """Why ``step`` cannot run for ``p`` now (empty: it can)."""
    if step == "pass":
        return []
    t = d["trick"]
    probs = condition_problems(d, ed, p, step.get("if"))
    hand = d["hands"][p]
    if step.get("push") is not None:
        card = step["push"]
        if card not in hand:   # no limit per trick (seed B2): each push spends a hand card, so a trick still ends
            probs.append(("card.not_in_hand", {"card": card}))
        return probs
    card = step.get("play")
    if card not in hand:
        return probs + [("card.not_in_hand", {"card": card})]
    if card in ed.persons:
        return probs
    z = ed.zusatz[card]
    if z.is_army:
        return probs
    if not any(t["persons"][q] for q in d["players"]):
        return probs + [("play.opening", {})]
    return probs + _target_problems(d, ed, p, z.effect, step)


def _log_moves(before: list, after: list, log: list) -> None:
    was = {a["card"]: a["holder"] for a in before}
    for a in after:
        if a["card"] in was and was[a["card"]] != a["holder"]:
            log.append(("army_moved", {"card": a["card"], "from": was[a["card"]], "to": a["holder"],
                                       "commanders": a.get("commanders", [])}, None))


def wake(d: dict, card: str, log: list) -> None:
    t = d["trick"]
    if t["passed"]:
        log.append(("back_in", {"players": list(t["passed"]), "card": card}, None))
        t["passed"] = []


def do_step(d: dict, ed, p: str, step, log: list) -> None:
    t = d["trick"]
    if step == "pass":
        t["passed"].append(p)
        if t["first_passed"] is None:
            t["first_passed"] = p
        log.append(("passed", {"player": p}, None))
        return
    before = assign_armies(t, ed, d["players"])
    if step.get("push") is not None:
        card = step["push"]
        d["hands"][p].remove(card)
        deck = "persons_deck" if card in ed.persons else "zusatz_deck"
        d[deck].insert(0, card)            # "verdeckt unter den jeweiligen Kartenstapel"
        t["pushed"].append(p)
        log.append(("pushed", {"player": p, "stack": "person" if card in ed.persons else "zusatz"}, None))
        log.append(("pushed_card", {"player": p, "card": card}, (p,)))
        return
    card = step["play"]
    d["hands"][p].remove(card)
    if card in ed.persons:
        t["persons"][p].append(card)
        t["plays"].append({"by": p, "card": card, "kind": "person"})
        log.append(("played_person", {"player": p, "card": card}, None))
    elif ed.zusatz[card].is_army:
        t["armies"].append({"card": card, "by": p, "to": step.get("to")})
        t["plays"].append({"by": p, "card": card, "kind": "army"})
        log.append(("played_army", {"player": p, "card": card}, None))
        wake(d, card, log)                 # seed: "kommen auch die Spieler, die gepasst haben, wieder ins Spiel"
    else:
        _play_zusatz(d, ed, p, card, step, log)
    _log_moves(before, assign_armies(t, ed, d["players"]), log)


def _play_zusatz(d, ed, p, card, step, log) -> None:
    t = d["trick"]
    z = ed.zusatz[card]
    eff = z.effect
    entry = {"card": card, "by": p, "on": step.get("on"), "player": step.get("player"),
             "party": eff.get("party") or step.get("party"), "void": False}
    if eff["do"] != "party_value":
        entry["player"] = entry["party"] = None
    t["zusatz"].append(entry)
    t["plays"].append({"by": p, "card": card, "kind": "zusatz"})
    log.append(("played_zusatz", {"player": p, "card": card, "on": entry["on"],
                                  "target": entry["player"], "party": entry["party"]}, None))
    if z.pair is not None:
        partner = next((x for x in t["zusatz"] if x["card"] == z.pair and not x["void"]), None)
        if partner is not None:            # seed: the pairs leave the game when they meet
            partner["void"] = entry["void"] = True
            log.append(("paired", {"cards": [z.pair, card]}, None))
    if eff["do"] == "remove_person" and not entry["void"]:
        owner = owner_of(t, entry["on"])
        t["persons"][owner].remove(entry["on"])
        d["out"].append(entry["on"])       # Lola Montez: the person leaves the game
        log.append(("removed", {"card": entry["on"], "player": owner}, None))
    if z.wake:
        wake(d, card, log)
