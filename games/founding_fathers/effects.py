"""The vocabulary of event effects.

Each primitive is a pair of functions: ``possible(x, st)`` says whether the
step could change anything now (events that would change nothing are refused,
as in the online version), and ``apply(x, st)`` performs it with the player's
choices from the orders, returning a problem ``(code, params, where)`` or None.
An edition combines these with parameters; no code is needed per card.
"""
from __future__ import annotations

from .edition import FACTIONS, STATES
from .engine import draw, place_vote, vote_problem
from .state import MARKERS_PER_COLOUR, ensure_marker, free_markers


class Ctx:
    """One event being enacted: who, which card, the orders, where to log."""

    __slots__ = ("d", "ed", "p", "cid", "o", "rng", "log", "on_table")

    def __init__(self, d, ed, p, cid, o, rng, log):
        self.d, self.ed, self.p, self.cid, self.o, self.rng, self.log = d, ed, p, cid, o, rng, log
        self.on_table = False

    def opt(self, name, default=None):
        v = getattr(self.o, name, None)
        return default if v is None else v

    def note(self, kind, data, visible_to=None):
        self.log.append((kind, data, visible_to))


def _always(x, st):
    return True


# --- points and markers --------------------------------------------------------

def _score(x, st):
    x.d["scores"][x.p] += st["points"]
    x.note("scored", {"player": x.p, "points": st["points"]})


def _per_count(x, st) -> int:
    d, p = x.d, x.p
    what = st["what"]
    if what == "own_delegations":
        return sum(1 for v in d["delegations"].values() if v["ctrl"] == p)
    if what == "own_delegates":
        return sum(len(v["cards"]) for v in d["delegations"].values() if v["ctrl"] == p)
    if what == "committee_markers":
        return d["committee"].get(p, 0)
    if what == "debate_tokens":
        return sum(d["tokens"][p].values())
    return sum(1 for a, fl in d["resolved"] if x.ed.side(a, fl) == st["faction"])


def _score_per(x, st):
    pts = min(_per_count(x, st), st["max"]) * st["points"]
    x.d["scores"][x.p] += pts
    x.note("scored", {"player": x.p, "points": pts})


def _gain_possible(x, st):
    return x.d["markers"][x.p] < MARKERS_PER_COLOUR


def _gain(x, st):
    n = min(st["count"], MARKERS_PER_COLOUR - x.d["markers"][x.p])
    x.d["markers"][x.p] += n
    x.note("marker_gained", {"player": x.p, "count": n})


def _committee_possible(x, st):
    return free_markers(x.d, x.p) > 0


def _committee(x, st):
    n = min(st["count"], free_markers(x.d, x.p))
    x.d["committee"][x.p] = x.d["committee"].get(x.p, 0) + n
    x.note("committee_placed", {"player": x.p, "count": n})


def _rivals_in_committee(x):
    return sorted(q for q, n in x.d["committee"].items() if q != x.p and n > 0)


def _committee_remove_possible(x, st):
    return bool(_rivals_in_committee(x))


def _committee_remove(x, st):
    q = x.opt("player")
    if q not in _rivals_in_committee(x):
        return ("event.player", {"choices": ", ".join(_rivals_in_committee(x))}, "player")
    n = min(st["count"], x.d["committee"][q])
    x.d["committee"][q] -= n
    if not x.d["committee"][q]:
        del x.d["committee"][q]
    x.note("committee_removed", {"player": x.p, "target": q, "count": n})


def _debate_possible(x, st):
    return x.d["markers"][x.p] > 0


def _debate(x, st):
    from .engine import advance
    f = st["faction"]
    if f == "any":
        f = x.opt("faction")
        if f not in FACTIONS:
            return ("event.faction", {"choices": ", ".join(FACTIONS)}, "faction")
    advance(x.d, x.p, f, st["steps"], x.opt("reclaim"), x.log)


# --- votes and the Assembly Room -------------------------------------------------

def _vote_cards(x, st, state):
    hand = [c for c in x.d["hands"][x.p] if c != x.cid and x.ed.cards[c].state == state]
    return ([x.cid] if st["with_card"] else []) + hand


def _free_bias(x, st, cards):
    if st["ignore_bias"] is True:
        return frozenset(cards)
    if st["ignore_bias"] == "self":
        return frozenset([x.cid])
    return frozenset()


def _vote_possible(x, st):
    from .engine import bias, may_vote
    b = bias(x.d, x.ed)
    states = [x.ed.cards[x.cid].state] if st["with_card"] else STATES
    for s in states:
        allc = _vote_cards(x, st, s)
        fb = _free_bias(x, st, allc)
        for side in ("yea", "nay"):
            ok = [c for c in allc if c in fb or may_vote(x.ed.cards[c].faction, side, b)]
            if st["with_card"] and x.cid not in ok:
                continue
            if ok and vote_problem(x.d, x.ed, x.p, s, side, ok, fb) is None:
                return True
    return False


def _vote(x, st):
    extra = list(x.opt("delegates", []))
    if st["with_card"]:
        state = x.ed.cards[x.cid].state
        cards = [x.cid] + extra
    else:
        state = x.opt("state")
        cards = extra
    for i, c in enumerate(extra):
        if c not in x.d["hands"][x.p] or extra.index(c) != i:
            return ("orders.not_in_hand", {"card": c}, f"delegates.{i}")
    side = x.opt("side")
    prob = vote_problem(x.d, x.ed, x.p, state, side, cards, _free_bias(x, st, cards))
    if prob:
        return prob
    for c in extra:
        x.d["hands"][x.p].remove(c)
    place_vote(x.d, x.ed, x.p, state, side, cards, x.opt("reclaim"), x.log, st["protected"])
    x.on_table = st["with_card"]


def _assembly_targets(x, st):
    out = []
    for s in STATES:
        v = x.d["delegations"].get(s)
        if v is None or (st["side"] != "any" and v["side"] != st["side"]):
            continue
        if st["rivals_only"] and (v["ctrl"] is None or v["ctrl"] == x.p):
            continue
        out += [c for c in v["cards"] if st["faction"] is None or x.ed.cards[c].faction == st["faction"]]
    return out


def _discard_possible(x, st):
    return bool(_assembly_targets(x, st))


def _discard(x, st):
    targets = list(x.opt("targets", []))
    allowed = _assembly_targets(x, st)
    if not targets or len(targets) > st["count"]:
        return ("event.targets_count", {"max": st["count"], "choices": ", ".join(allowed)}, "targets")
    for i, c in enumerate(targets):
        if c not in allowed or targets.index(c) != i:
            return ("event.target", {"card": c, "choices": ", ".join(allowed)}, f"targets.{i}")
    for c in targets:
        s = x.ed.cards[c].state
        v = x.d["delegations"][s]
        v["cards"].remove(c)
        x.d["discard"].append(c)
        if not v["cards"]:
            # The last card gone: the marker returns and the state may vote again.
            del x.d["delegations"][s]
        x.note("assembly_discarded", {"player": x.p, "card": c, "state": s,
                                      "reopened": not v["cards"]})


def _seize_targets(x):
    return [s for s in STATES if s in x.d["delegations"] and x.d["delegations"][s]["ctrl"] is None]


def _seize_possible(x, st):
    return bool(_seize_targets(x))


def _seize(x, st):
    s = x.opt("state")
    if s not in _seize_targets(x):
        return ("event.state", {"choices": ", ".join(_seize_targets(x))}, "state")
    if ensure_marker(x.d, x.p, x.opt("reclaim"), x.log):
        x.d["delegations"][s]["ctrl"] = x.p
        x.note("delegation_seized", {"player": x.p, "state": s})


# --- cards ---------------------------------------------------------------------

def _steal_possible(x, st):
    return any(x.d["hands"][q] for q in x.d["players"] if q != x.p)


def _steal(x, st):
    q = x.opt("player")
    if q == x.p or q not in x.d["hands"] or not x.d["hands"][q]:
        others = [r for r in x.d["players"] if r != x.p and x.d["hands"][r]]
        return ("event.player", {"choices": ", ".join(others)}, "player")
    pos = x.opt("position", 0)
    if not 1 <= pos <= len(x.d["hands"][q]):
        return ("event.position", {"size": len(x.d["hands"][q])}, "position")
    c = x.d["hands"][q].pop(pos - 1)
    x.d["hands"][x.p].append(c)
    card = x.ed.cards[c]
    x.note("card_taken", {"player": x.p, "target": q, "back": [card.state, card.faction]})
    x.note("card_taken_front", {"player": x.p, "target": q, "card": c}, (x.p, q))


def _draw_possible(x, st):
    return bool(x.d["deck"] or x.d["discard"])


def _draw(x, st):
    got = []
    for _ in range(st["count"]):
        c = draw(x.d, x.rng, x.log)
        if c is None:
            break
        got.append(c)
    x.d["hands"][x.p].extend(got)
    x.note("drew", {"player": x.p, "count": len(got)})
    x.note("drew_cards", {"player": x.p, "cards": got}, (x.p,))


def _peek_possible(x, st):
    return bool(x.d["deck"])


def _peek(x, st):
    top = x.d["deck"][::-1][:st["count"]]
    x.note("peeked", {"player": x.p, "count": len(top)})
    x.note("peeked_cards", {"player": x.p, "cards": top}, (x.p,))


def _discard_choices(x, st):
    return [c for c in x.d["discard"] if st["faction"] is None or x.ed.cards[c].faction == st["faction"]]


def _take_discard_possible(x, st):
    return bool(_discard_choices(x, st))


def _take_discard(x, st):
    c = x.opt("pick")
    if c not in _discard_choices(x, st):
        return ("event.pick", {"choices": ", ".join(sorted(set(_discard_choices(x, st))))}, "pick")
    x.d["discard"].remove(c)
    x.d["hands"][x.p].append(c)
    x.note("took_from_discard", {"player": x.p, "card": c})


# --- articles --------------------------------------------------------------------

def _flip_possible(x, st):
    if st["room"] == "resolved":
        return bool(x.d["resolved"])
    key = "assembly" if st["room"] == "assembly" else "committee_article"
    return x.d[key][0] is not None


def _flip(x, st):
    if st["room"] == "resolved":
        a = x.opt("article")
        ids = [r[0] for r in x.d["resolved"]]
        if a not in ids:
            return ("event.article", {"choices": ", ".join(ids)}, "article")
        slot = x.d["resolved"][ids.index(a)]
    else:
        slot = x.d["assembly" if st["room"] == "assembly" else "committee_article"]
    slot[1] = not slot[1]
    x.note("article_flipped", {"player": x.p, "article": slot[0], "room": st["room"],
                               "showing": x.ed.side(slot[0], slot[1])})


def _swap(x, st):
    d = x.d
    d["assembly"], d["committee_article"] = d["committee_article"], d["assembly"]
    x.note("articles_swapped", {"player": x.p, "assembly": d["assembly"][0],
                                "committee": d["committee_article"][0]})


def _persistent(x, st):
    x.note("persistent_started", {"player": x.p, "card": x.cid, "effect": st["do"]})


PRIMITIVES = {
    "score": (_always, _score),
    "score_per": (lambda x, st: _per_count(x, st) > 0, _score_per),
    "gain_marker": (_gain_possible, _gain),
    "committee_marker": (_committee_possible, _committee),
    "committee_remove": (_committee_remove_possible, _committee_remove),
    "debate_advance": (_debate_possible, _debate),
    "declare_vote": (_vote_possible, _vote),
    "discard_assembly": (_discard_possible, _discard),
    "seize_delegation": (_seize_possible, _seize),
    "steal_card": (_steal_possible, _steal),
    "draw_deck": (_draw_possible, _draw),
    "peek_deck": (_peek_possible, _peek),
    "take_discard": (_take_discard_possible, _take_discard),
    "flip_article": (_flip_possible, _flip),
    "swap_articles": (lambda x, st: x.d["committee_article"][0] is not None, _swap),
    "block_events": (_always, _persistent),
    "block_card": (_always, _persistent),
    "assembly_bonus": (_always, _persistent),
    "protect_delegations": (_always, _persistent),
}


def event_possible(x: Ctx) -> bool:
    """Would enacting this card change anything now (without choices)?"""
    return any(PRIMITIVES[st["do"]][0](x, st) for st in x.ed.cards[x.cid].steps)


def run_event(x: Ctx):
    """Apply each step that can have an effect; a problem stops it."""
    did = False
    for st in x.ed.cards[x.cid].steps:
        possible, apply = PRIMITIVES[st["do"]]
        if not possible(x, st):
            continue
        prob = apply(x, st)
        if prob:
            return prob
        did = True
    if not did:
        return ("event.no_effect", {"card": x.ed.cards[x.cid].name}, "card")
    return None
