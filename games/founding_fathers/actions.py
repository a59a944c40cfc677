"""Carrying out one player's orders on a cloned state.

``act`` is used twice: by ``validate`` on a throw-away clone (its problems are
the answer) and by ``resolve`` on the clone that becomes the next state.  So
validation can never disagree with what resolution does.
"""
from __future__ import annotations

from referee.game_api.contract import Rng

from .edition import STATES, Edition
from .effects import Ctx, event_possible, run_event
from .engine import advance, assembly_result, debate_problem, pick_positions, place_vote, refill, vote_problem
from .near import card_meant
from .orders import ACTION_FIELDS
from .rounds import end_round
from .state import HAND, clone, event_blocked, reclaim_options

WARN = "warning"


def _cards_in_hand(d: dict, p: str, cards: list[str], where: str):
    hand = d["hands"][p]
    seen = []
    for i, c in enumerate(cards):
        if c not in hand or seen.count(c) >= hand.count(c):
            return ("orders.not_in_hand", {"card": c}, f"{where}.{i}")
        seen.append(c)
    return None


def _remove(hand: list, cards: list) -> None:
    for c in cards:
        hand.remove(c)


def precheck(d: dict, ed: Edition, p: str, o) -> list:
    """The problems of a vote, debate or snub, found without changing anything."""
    probs = []
    if "reclaim" in ACTION_FIELDS[o.action] and o.reclaim is not None and o.reclaim not in reclaim_options(d, p):
        probs.append(("reclaim.unknown", {"where": o.reclaim,
                                          "choices": ", ".join(reclaim_options(d, p)) or "-"},
                      "reclaim", WARN))
    a = o.action
    if a == "event":
        return probs
    prob = _cards_in_hand(d, p, o.delegates, "delegates")
    if prob is None and a == "vote":
        prob = vote_problem(d, ed, p, (o.state or "").upper(), o.side, o.delegates)
    elif prob is None and a == "debate":
        prob = debate_problem(ed, o.delegates)
    return [prob] if prob else probs


def check(d: dict, ed: Edition, p: str, o) -> list:
    """``validate`` for one set of action orders.  Events are tried on a copy
    (their effects chain); the other actions need no copy."""
    if o.action == "event":
        return act(clone(d), ed, p, o, Rng(0), [], dry=True)   # what it draws is thrown away
    probs = precheck(d, ed, p, o)
    if any(is_error(pr) for pr in probs):
        return probs
    if o.action == "snub" and not o.delegates:
        # the form comes pre-filled with this: sent back unchanged it must not pass silently
        probs.append(("snub.nothing", {}, "action", WARN))
    n = max(0, min(HAND - (len(d["hands"][p]) - len(o.delegates)), len(d["pool"])))
    return probs + [w + (WARN,) for w in pick_positions(len(d["pool"]), n, o.take)[1]]


def act(d: dict, ed: Edition, p: str, o, rng, log: list, dry: bool = False) -> list:
    """Do the action and the refill.  Returns problems ``(code, params, where[, severity])``;
    on an error the state is half-changed and must be thrown away."""
    probs = precheck(d, ed, p, o)
    if any(is_error(pr) for pr in probs):
        return probs
    prefs = d["prefs"][p]
    if o.committee_flip is not None:
        prefs["flip"] = o.committee_flip
    if o.reclaim_planner is not None:
        prefs["reclaim_planner"] = o.reclaim_planner
    hand = d["hands"][p]
    a = o.action
    if a == "vote":
        _remove(hand, o.delegates)
        place_vote(d, ed, p, o.state.upper(), o.side, o.delegates, o.reclaim, log)
    elif a == "debate":
        _remove(hand, o.delegates)
        d["discard"].extend(o.delegates)
        advance(d, p, ed.cards[o.delegates[0]].faction, len(o.delegates), o.reclaim, log)
    elif a == "event":
        cid = o.card
        if cid not in hand:
            return [("event.card", {}, "card")]
        by = event_blocked(d, ed, p, cid)
        if by:
            return [("event.blocked", {"card": ed.cards[cid].name, "by": ed.cards[by].name}, "card")]
        hand.remove(cid)
        x = Ctx(d, ed, p, cid, o, rng, log)
        log.append(("event", {"player": p, "card": cid}, None))
        prob = run_event(x)
        if prob:
            return [prob]
        if ed.cards[cid].persistent:
            d["persistent"].append([p, cid])
        elif not x.on_table:
            d["discard"].append(cid)
    else:
        _remove(hand, o.delegates)
        d["discard"].extend(o.delegates)
        log.append(("snub", {"player": p, "cards": list(o.delegates)}, None))
    for w in refill(d, ed, p, o.take, None if dry else rng, log):
        probs.append(w + (WARN,))
    return probs


def is_error(prob) -> bool:
    return len(prob) < 4 or prob[3] != WARN


def finish_turn(d: dict, ed: Edition, log: list):
    """After an action: end the round if the vote decided it, else pass on."""
    result = assembly_result(d)
    if result is not None:
        d["ender"] = d["active"]
        return end_round(d, ed, result, log)
    d["active"] = (d["active"] + 1) % len(d["players"])
    return None


def keep_problems(d: dict, p: str, keep: list[str]) -> list:
    dealt = d["dealt"].get(p, [])
    # every problem at once, so one corrected mail can fix them all
    problems = [("keep.unknown", {"card": c, "dealt": ", ".join(dealt), "near": card_meant(c, dealt)}, f"keep.{i}")
                for i, c in enumerate(keep) if c not in dealt]
    if len(keep) != 2 or len(set(keep)) != 2:
        problems.insert(0, ("keep.count", {}, "keep"))
    return problems


def event_enactable(d: dict, ed: Edition, p: str, cid: str) -> str | None:
    """None if ``p`` could enact ``cid`` now, else the message code why not."""
    if event_blocked(d, ed, p, cid):
        return "event.blocked"
    x = Ctx(d, ed, p, cid, None, None, [])
    return None if event_possible(x) else "event.no_effect"


def legal_votes(d: dict, ed: Edition, p: str) -> list[tuple[str, str, list[str]]]:
    """(state, side, the largest legal set of hand cards) for each possible vote."""
    from .engine import bias, may_vote
    b = bias(d, ed)
    out = []
    for s in STATES:
        cards = [c for c in d["hands"][p] if ed.cards[c].state == s]
        if not cards:
            continue
        for side in ("yea", "nay"):
            ok = [c for c in cards if may_vote(ed.cards[c].faction, side, b)]
            if ok and vote_problem(d, ed, p, s, side, ok) is None:
                out.append((s, side, ok))
    return out
