"""What lies on the table and what it is worth: person values, commands and
armies (seed: "So wechselt eine Armee die Seite"), and the evaluation of a
trick — military if an army has a commander, otherwise political.

Everything here is derived from the trick's lists, never stored, so a card
that is voided (a pair meeting) or removed (Lola Montez) simply stops counting.
"""
from __future__ import annotations

from .edition import FLAGS, PARTIES, Edition


def live_zusatz(t: dict):
    return (z for z in t["zusatz"] if not z.get("void"))


def person_value(t: dict, ed: Edition, owner: str, pid: str) -> int:
    """Printed value plus every Zusatzkarte on it (may be negative: seed "Es kann auch negativ enden")."""
    p = ed.persons[pid]
    v = p.value
    for z in live_zusatz(t):
        eff = ed.zusatz[z["card"]].effect
        if eff is None:
            continue
        if eff["do"] == "person_value" and z.get("on") == pid or (eff["do"] == "party_value" and z.get("player") == owner and z.get("party") == p.party
              and p.flag is None):
            v += eff["amount"]
    return v


def military(t: dict, ed: Edition, pid: str) -> int:
    p = ed.persons[pid]
    m = p.mil
    for z in live_zusatz(t):
        eff = ed.zusatz[z["card"]].effect
        if eff is not None and z.get("on") == pid:
            if eff["do"] == "commander_value":
                m += eff["amount"]
            elif eff["do"] == "person_value":
                m += eff.get("military", 0)
    return max(m, 0)


def owner_of(t: dict, pid: str) -> str | None:
    for p, cards in t["persons"].items():
        if pid in cards:
            return p
    return None


def commands(t: dict, ed: Edition, players: list[str]) -> dict:
    """(player, flag, party) -> {"strength", "commanders"}: a player's commanders of one
    flag and party stand together (seed: "alle Heerführer derselben Flagge, die bei
    demselben Spieler ausliegen ... addiert")."""
    out: dict = {}
    for p in players:
        for pid in t["persons"][p]:
            c = ed.persons[pid]
            if c.flag is None:
                continue
            k = (p, c.flag, c.party)
            e = out.setdefault(k, {"strength": 0, "commanders": []})
            e["strength"] += military(t, ed, pid)
            e["commanders"].append(pid)
    return out


def _pick(free: list, cmds: dict, army: dict, players: list[str]):
    """The strongest free command; equal ones at different players: the army's player decides
    (``to``), else his own, else the next clockwise from him."""
    best = max(cmds[k]["strength"] for k in free)
    tied = [k for k in free if cmds[k]["strength"] == best]
    if len(tied) == 1:
        return tied[0]
    by = players.index(army["by"])
    order = [players[(by + i) % len(players)] for i in range(len(players))]
    if army.get("to") in order:
        order.remove(army["to"])
        order.insert(0, army["to"])
    return min(tied, key=lambda k: (order.index(k[0]), FLAGS.index(k[1]), PARTIES.index(k[2])))


def assign_armies(t: dict, ed: Edition, players: list[str]) -> list[dict]:
    """Every army on the table with its holder and, if led, command and points."""
    cmds = commands(t, ed, players)
    free = sorted(cmds, key=lambda k: (players.index(k[0]), k[1], k[2]))
    armies = sorted(t["armies"], key=lambda a: -ed.zusatz[a["card"]].army_value)
    led: dict = {}
    # first: the commands of the army's own flag, strongest choosing first
    for a in armies:
        own = [k for k in free if k[1] == ed.zusatz[a["card"]].army_flag]
        if own:
            k = _pick(own, cmds, a, players)
            led[a["card"]] = k
            free.remove(k)
    # then: any free command, by strength alone
    for a in armies:
        if a["card"] not in led and free:
            k = _pick(free, cmds, a, players)
            led[a["card"]] = k
            free.remove(k)
    groups = {card: list(cmds[k]["commanders"]) for card, k in led.items()}
    _split(t, ed, players, armies, led, groups)
    out = []
    for a in t["armies"]:
        z = ed.zusatz[a["card"]]
        k = led.get(a["card"])
        if k is None:
            out.append({"card": a["card"], "holder": a["by"], "by": a["by"], "led": False,
                        "value": z.army_value, "flag": z.army_flag})
        else:
            strength = sum(military(t, ed, c) for c in groups[a["card"]])
            out.append({"card": a["card"], "holder": k[0], "by": a["by"], "led": True,
                        "value": z.army_value, "flag": z.army_flag, "command_flag": k[1], "party": k[2],
                        "commanders": groups[a["card"]], "strength": strength,
                        "points": z.army_value + strength})
    return out


def _split(t, ed, players, armies, led, groups) -> None:
    """Armies still without a command when every command leads one: a command of several
    commanders gives up its weakest to lead it (seed: several commanders share an army only
    "Gibt es mehr Heerführer als Armeen"); a command of the army's own flag first, the
    strongest first."""
    for a in armies:
        if a["card"] in led:
            continue
        cands = [card for card in groups if len(groups[card]) >= 2]
        if not cands:
            return
        flag = ed.zusatz[a["card"]].army_flag
        cands = [c for c in cands if led[c][1] == flag] or cands
        src = max(cands, key=lambda c: (sum(military(t, ed, x) for x in groups[c]),
                                        -players.index(led[c][0]), c))
        weakest = min(groups[src], key=lambda x: (military(t, ed, x), x))
        groups[src].remove(weakest)
        led[a["card"]] = led[src]
        groups[a["card"]] = [weakest]


def shares(t: dict, ed: Edition, players: list[str]) -> dict:
    """player -> party -> summed value of that player's persons (present parties only)."""
    out = {p: {} for p in players}
    for p in players:
        for pid in t["persons"][p]:
            party = ed.persons[pid].party
            out[p][party] = out[p].get(party, 0) + person_value(t, ed, p, pid)
    return out


def red_total(t: dict, ed: Edition) -> int:
    return sum(ed.zusatz[z["card"]].red for z in live_zusatz(t))


def _unique_max(values: dict):
    """(key, tied keys) of the largest value; key None if several share it."""
    best = max(values.values())
    top = [k for k, v in values.items() if v == best]
    return (top[0] if len(top) == 1 else None), top


def evaluate(t: dict, ed: Edition, players: list[str]) -> dict:
    """The trick as it would end now: kind, result (win | patt | empty), winner, party and
    what each player writes down (``notes``: player -> party -> points)."""
    armies = [a for a in assign_armies(t, ed, players) if a["led"]]
    if armies:
        return _military(t, ed, players, armies)
    return _political(t, ed, players)


def _political(t, ed, players) -> dict:
    sh = shares(t, ed, players)
    totals: dict = {}
    for p in players:
        for party, v in sh[p].items():
            totals[party] = totals.get(party, 0) + v
    if not totals:
        return {"kind": "political", "result": "empty", "winner": None, "party": None,
                "totals": {}, "notes": {}}
    party, tied = _unique_max(totals)
    if party is None:    # seed: "die beiden stärksten Parteien gleich stark"
        notes = {p: {q: sh[p][q] for q in tied if q in sh[p]} for p in players}
        return {"kind": "political", "result": "patt", "why": "parties", "winner": None, "party": None,
                "parties": tied, "totals": totals, "notes": {p: n for p, n in notes.items() if n}}
    holders = {p: sh[p][party] for p in players if party in sh[p]}
    winner, top = _unique_max(holders)
    if winner is None:   # seed: "keiner der Spieler die Mehrheit an der stärksten Partei hält"
        return {"kind": "political", "result": "patt", "why": "majority", "winner": None, "party": party,
                "parties": [party], "totals": totals, "notes": {p: {party: holders[p]} for p in top}}
    return {"kind": "political", "result": "win", "winner": winner, "party": party, "totals": totals,
            "notes": {winner: {party: totals[party]}}}


def _military(t, ed, players, armies) -> dict:
    by_party: dict = {}
    for a in armies:
        by_party[a["party"]] = by_party.get(a["party"], 0) + a["points"]
    party, tied = _unique_max(by_party)
    own: dict = {}
    for a in armies:
        own.setdefault(a["holder"], {}).setdefault(a["party"], 0)
        own[a["holder"]][a["party"]] += a["points"]
    if party is None:
        notes = {p: {q: v // 2 for q, v in n.items() if q in tied} for p, n in own.items()}
        return {"kind": "military", "result": "patt", "why": "parties", "winner": None, "party": None,
                "parties": tied, "totals": by_party, "notes": {p: n for p, n in notes.items() if n}}
    strongest: dict = {}
    for a in armies:
        if a["party"] == party:
            strongest[a["holder"]] = max(strongest.get(a["holder"], -999), a["points"])
    winner, top = _unique_max(strongest)
    if winner is None:
        return {"kind": "military", "result": "patt", "why": "majority", "winner": None, "party": party,
                "parties": [party], "totals": by_party,
                "notes": {p: {party: own[p][party] // 2} for p in top}}
    total, red = by_party[party], 0
    if party == "R":     # seed: red cards hurt a winning reactionary army, never one under the Bund flag
        exposed = sum(a["points"] for a in armies if a["party"] == "R" and a["command_flag"] != "B")
        if exposed:
            red = red_total(t, ed)
            total -= red
    return {"kind": "military", "result": "win", "winner": winner, "party": party, "totals": by_party,
            "army_points": by_party[party], "red": red,
            "notes": {winner: {party: total // 2}}}   # "Brüche werden abgerundet" (floor, RULES B7)
