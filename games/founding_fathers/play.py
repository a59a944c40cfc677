"""Random legal orders (for the conformance test, ``referee demo`` and the
benchmark).  Every choice is drawn from the ``Rng`` given, in sorted order."""
from __future__ import annotations

from .actions import event_enactable, legal_votes
from .edition import FACTIONS, PLANNER
from .effects import (
    Ctx,
    _assembly_targets,
    _discard_choices,
    _free_bias,
    _rivals_in_committee,
    _seize_targets,
    _vote_cards,
)
from .engine import bias, may_vote, vote_problem


def _subset(rng, items: list, at_least: int = 1) -> list:
    k = at_least + rng.below(len(items) - at_least + 1)
    return rng.sample(items, k)


def _event_choices(d, ed, p, cid, rng) -> dict | None:
    """Choices that make every possible step of ``cid`` valid (None if none do)."""
    o: dict = {"action": "event", "card": cid}
    x = Ctx(d, ed, p, cid, None, rng, [])
    for st in ed.cards[cid].steps:
        kind = st["do"]
        if kind == "committee_remove" and _rivals_in_committee(x):
            o["player"] = rng.choice(_rivals_in_committee(x))
        elif kind == "debate_advance" and st["faction"] == "any":
            o["faction"] = rng.choice(FACTIONS)
        elif kind == "discard_assembly" and _assembly_targets(x, st):
            o["targets"] = rng.sample(_assembly_targets(x, st), 1 + rng.below(st["count"]))
            o["targets"] = list(dict.fromkeys(o["targets"]))[:st["count"]]
        elif kind == "seize_delegation" and _seize_targets(x):
            o["state"] = rng.choice(_seize_targets(x))
        elif kind == "steal_card":
            others = [q for q in d["players"] if q != p and d["hands"][q]]
            if others:
                q = rng.choice(others)
                o["player"], o["position"] = q, 1 + rng.below(len(d["hands"][q]))
        elif kind == "take_discard" and _discard_choices(x, st):
            o["pick"] = rng.choice(_discard_choices(x, st))
        elif kind == "flip_article" and st["room"] == "resolved" and d["resolved"]:
            o["article"] = rng.choice([r[0] for r in d["resolved"]])
        elif kind == "declare_vote":
            b = bias(d, ed)
            states = [ed.cards[cid].state] if st["with_card"] else sorted({ed.cards[c].state for c in d["hands"][p]})
            options = []
            for s in states:
                allc = _vote_cards(x, st, s)
                fb = _free_bias(x, st, allc)
                for side in ("yea", "nay"):
                    ok = [c for c in allc if c in fb or may_vote(ed.cards[c].faction, side, b)]
                    if st["with_card"] and cid not in ok:
                        continue
                    if ok and vote_problem(d, ed, p, s, side, ok, fb) is None:
                        options.append((s, side, [c for c in ok if c != cid]))
            if options:
                s, side, extra = rng.choice(options)
                o.update(state=s, side=side, delegates=extra)
    return o


def random_orders(state, player: str, rng) -> dict:
    d, ed = state.d, state.ed
    stage = d["stage"]
    if stage == "keep":
        return {"keep": rng.sample(d["dealt"][player], 2)}
    if stage == "committee_flip":
        return {"flip": rng.below(2) == 1}
    hand = d["hands"][player]
    take = rng.sample([1, 2, 3], 3)
    roll = rng.random()
    if roll < 0.6:
        votes = legal_votes(d, ed, player)
        if votes:
            s, side, ok = rng.choice(votes)
            have = d["delegations"].get(s)
            least = len(have["cards"]) + 1 if have else 1
            return {"action": "vote", "state": s, "side": side,
                    "delegates": _subset(rng, ok, least), "take": take}
    if roll < 0.8:
        enactable = [c for c in hand if event_enactable(d, ed, player, c) is None]
        if enactable:
            cid = rng.choice(sorted(set(enactable)))
            o = _event_choices(d, ed, player, cid, rng)
            o["take"] = take
            return o
    groups: dict[str, list] = {}
    for c in hand:
        f = ed.cards[c].faction
        if f != PLANNER:
            groups.setdefault(f, []).append(c)
    if groups and rng.below(2):
        f = rng.choice(sorted(groups))
        return {"action": "debate", "delegates": _subset(rng, groups[f]), "take": take}
    return {"action": "snub", "delegates": _subset(rng, hand, 0) if hand else [], "take": take}
