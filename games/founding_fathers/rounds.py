"""Ending a round (Assembly, Committee, Debates, resuming) and the game."""
from __future__ import annotations

from .edition import FACTIONS, STATES, Edition
from .state import ROUNDS, persistent_steps

BONUS = (5, 4, 3, 2)   # by place of a faction on the resolved articles


def resolve_assembly(d: dict, ed: Edition, result: str, log: list) -> None:
    art, flipped = d["assembly"]
    showing = ed.side(art, flipped)
    winning = "yea" if result == "passed" else "nay"
    bonus = {}
    for owner, st in persistent_steps(d, ed, "assembly_bonus"):
        bonus[owner] = bonus.get(owner, 0) + st["points"]
    gains: dict[str, int] = {}
    to_committee: dict[str, int] = {}
    for s in STATES:
        v = d["delegations"].get(s)
        if v is None:
            continue
        p = v["ctrl"]
        if v["side"] == winning:
            if p is not None:
                pts = sum(2 if ed.cards[c].faction == showing else 1 for c in v["cards"])
                pts += bonus.get(p, 0) * len(v["cards"])
                gains[p] = gains.get(p, 0) + pts
        elif p is not None:
            to_committee[p] = to_committee.get(p, 0) + 1
        d["discard"].extend(v["cards"])
    d["delegations"] = {}
    for p in d["players"]:
        if gains.get(p):
            d["scores"][p] += gains[p]
        if to_committee.get(p):
            d["committee"][p] = d["committee"].get(p, 0) + to_committee[p]
    if result == "failed":
        flipped = not flipped
    d["resolved"].append([art, flipped])
    d["assembly"] = [None, False]
    log.append(("assembly_resolved", {"article": art, "result": result, "showing": ed.side(art, flipped),
                                      "points": {p: gains.get(p, 0) for p in d["players"]},
                                      "to_committee": {p: to_committee.get(p, 0) for p in d["players"]}}, None))


def resolve_committee(d: dict, log: list) -> str | None:
    """The player with strictly most markers scores them and takes them back."""
    counts = d["committee"]
    top = max(counts.values(), default=0)
    leaders = sorted(p for p, n in counts.items() if n == top)
    winner = leaders[0] if top > 0 and len(leaders) == 1 else None
    if winner is not None:
        d["scores"][winner] += top
        del counts[winner]
    log.append(("committee_resolved", {"winner": winner, "points": top if winner else 0,
                                       "tied": leaders if winner is None and top else []}, None))
    return winner


def resolve_debates(d: dict, log: list) -> None:
    won = {}
    for f in FACTIONS:
        track = d["debate"][f]
        top = max(track.values(), default=0)
        leaders = [p for p, pos in track.items() if pos == top]
        if top > 0 and len(leaders) == 1:
            d["tokens"][leaders[0]][f] += 1
            won[f] = leaders[0]
        else:
            won[f] = None
        d["debate"][f] = {}
    log.append(("debates_resolved", {"tokens": won}, None))


def place_committee_article(d: dict, ed: Edition, flip: bool, log: list) -> None:
    art, flipped = d["committee_article"]
    if flip:
        flipped = not flipped
        log.append(("committee_flipped", {"player": d["flip_player"], "article": art,
                                          "showing": ed.side(art, flipped)}, None))
    d["resolved"].append([art, flipped])
    d["committee_article"] = [None, False]
    d["flip_player"] = None


def resume(d: dict, ed: Edition, log: list) -> dict | None:
    """Discard persistent events, then the next round, or the end of the game."""
    for _, cid in d["persistent"]:
        d["discard"].append(cid)
    d["persistent"] = []
    d["active"] = (d["ender"] + 1) % len(d["players"])
    if d["round"] >= ROUNDS or len(d["articles"]) < 2:
        return end_game(d, ed, log)
    d["round"] += 1
    d["assembly"] = [d["articles"].pop(), False]
    d["committee_article"] = [d["articles"].pop(), False]
    d["stage"] = "action"
    log.append(("round_started", {"round": d["round"], "assembly": d["assembly"][0],
                                  "committee": d["committee_article"][0],
                                  "first": d["players"][d["active"]]}, None))
    return None


def faction_places(d: dict, ed: Edition) -> dict[str, int]:
    """Place 1–4 of each faction by resolved articles showing it; tied factions
    share the higher place and the next one takes the place after them."""
    counts = {f: 0 for f in FACTIONS}
    for art, flipped in d["resolved"]:
        counts[ed.side(art, flipped)] += 1
    return {f: 1 + sum(1 for g in FACTIONS if counts[g] > counts[f]) for f in FACTIONS}


def end_bonus(d: dict, ed: Edition) -> dict:
    """{faction: {"place", "points", "count", "players"}}: the forecast, or the end."""
    places = faction_places(d, ed)
    counts = {f: 0 for f in FACTIONS}
    for art, flipped in d["resolved"]:
        counts[ed.side(art, flipped)] += 1
    out = {}
    for f in FACTIONS:
        top = max(d["tokens"][p][f] for p in d["players"])
        holders = [p for p in d["players"] if top > 0 and d["tokens"][p][f] == top]
        out[f] = {"place": places[f], "points": BONUS[places[f] - 1], "count": counts[f],
                  "players": holders}
    return out


def end_game(d: dict, ed: Edition, log: list) -> dict:
    bonus = end_bonus(d, ed)
    gained = {p: 0 for p in d["players"]}
    for f in FACTIONS:
        for p in bonus[f]["players"]:
            gained[p] += bonus[f]["points"]
    for p in d["players"]:
        d["scores"][p] += gained[p]
    top = max(d["scores"].values())
    winners = [p for p in d["players"] if d["scores"][p] == top]
    d["stage"] = "over"
    d["outcome"] = {"winners": winners, "scores": dict(d["scores"])}
    log.append(("game_over", {"bonus": bonus, "gained": gained, "scores": dict(d["scores"]),
                              "winners": winners}, None))
    return d["outcome"]


def end_round(d: dict, ed: Edition, result: str, log: list) -> dict | None:
    """All of "Ending the round"; stops at the Committee flip if someone must choose."""
    log.append(("round_ended", {"round": d["round"], "result": result,
                                "by": d["players"][d["ender"]]}, None))
    resolve_assembly(d, ed, result, log)
    winner = resolve_committee(d, log)
    resolve_debates(d, log)
    if winner is not None:
        pref = d["prefs"][winner]["flip"]
        if pref is None:
            d["stage"] = "committee_flip"
            d["flip_player"] = winner
            return None
        d["flip_player"] = winner
        d["prefs"][winner]["flip"] = None
        place_committee_article(d, ed, pref == "flip", log)
    else:
        place_committee_article(d, ed, False, log)
    return resume(d, ed, log)
