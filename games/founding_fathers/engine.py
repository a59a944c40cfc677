"""The core actions: declare a vote, speak in debate, the deck, the draw pool.

Every function here changes the state dict it is given (a clone made by the
caller) and appends ``(kind, data, visible_to)`` tuples to ``log``.  Checks
return ``(code, params)`` or None so orders and events share one rule book.
"""
from __future__ import annotations

from .edition import OPPOSED, PLANNER, STATES, Edition
from .near import state_meant
from .state import HAND, POOL, TO_FAIL, TO_PASS, delegation_protected, ensure_marker


def bias(d: dict, ed: Edition) -> str:
    art, flipped = d["assembly"]
    return ed.side(art, flipped)


def may_vote(faction: str, side: str, article_bias: str) -> bool:
    """Faction bias restriction: no voting against your own faction's article
    or for the opposed faction's; planners and unrelated factions are free."""
    if faction == PLANNER:
        return True
    if faction == article_bias:
        return side == "yea"
    if OPPOSED[faction] == article_bias:
        return side == "nay"
    return True


def vote_problem(d: dict, ed: Edition, p: str, state: str | None, side: str | None,
                 cards: list[str], free_bias: frozenset = frozenset(), where: str = "delegates"):
    """Why ``p`` may not declare ``state``'s vote on ``side`` with ``cards``."""
    if state not in STATES:
        return ("vote.state_unknown", {"state": state, "near": state_meant(state)}, "state")
    if side not in ("yea", "nay"):
        return ("vote.side_missing", {}, "side")
    if not cards:
        return ("vote.no_delegates", {}, where)
    b = bias(d, ed)
    for i, cid in enumerate(cards):
        c = ed.cards[cid]
        if c.state != state:
            return ("vote.wrong_state", {"card": c.name, "state": state}, f"{where}.{i}")
        if cid not in free_bias and not may_vote(c.faction, side, b):
            return ("vote.bias", {"card": c.name, "faction": c.faction, "side": side,
                                  "bias": b}, f"{where}.{i}")
    v = d["delegations"].get(state)
    if v is not None:
        if v["side"] == side:
            return ("vote.no_reinforce", {"state": state}, "side")
        if v["ctrl"] == p:
            return ("vote.own_delegation", {"state": state}, "state")
        if len(cards) <= len(v["cards"]):
            return ("vote.override_short", {"state": state, "have": len(v["cards"]),
                                            "need": len(v["cards"]) + 1}, where)
        if delegation_protected(d, ed, state):
            return ("vote.protected", {"state": state}, "state")
    return None


def place_vote(d: dict, ed: Edition, p: str, state: str, side: str, cards: list[str],
               reclaim: str | None, log: list, protected: bool = False) -> None:
    """Put ``cards`` (already out of the hand) on the table for ``state``."""
    old = d["delegations"].get(state)
    if old is not None:
        # Overridden: the old cards are discarded, their controller's marker returns.
        d["discard"].extend(old["cards"])
        del d["delegations"][state]
        log.append(("override", {"player": p, "state": state, "loser": old["ctrl"],
                                 "cards": list(old["cards"])}, None))
    ctrl = p if ensure_marker(d, p, reclaim, log) else None
    d["delegations"][state] = {"side": side, "cards": list(cards), "ctrl": ctrl,
                               "protected": protected}
    log.append(("vote", {"player": p, "state": state, "side": side, "cards": list(cards),
                         "controlled": ctrl is not None}, None))


def tally(d: dict) -> tuple[int, int]:
    yea = nay = 0
    for v in d["delegations"].values():
        if v["side"] == "yea":
            yea += 1
        else:
            nay += 1
    return yea, nay


def assembly_result(d: dict) -> str | None:
    yea, nay = tally(d)
    if yea >= TO_PASS:
        return "passed"
    if nay >= TO_FAIL:
        return "failed"
    return None


def debate_problem(ed: Edition, cards: list[str]):
    if not cards:
        return ("debate.no_delegates", {}, "delegates")
    f = ed.cards[cards[0]].faction
    if f == PLANNER:
        return ("debate.planner", {"card": ed.cards[cards[0]].name}, "delegates.0")
    for i, cid in enumerate(cards):
        if ed.cards[cid].faction != f:
            return ("debate.mixed", {"card": ed.cards[cid].name}, f"delegates.{i}")
    return None


def advance(d: dict, p: str, faction: str, steps: int, reclaim: str | None, log: list) -> bool:
    """Place (at ``steps``) or advance ``p``'s marker on a debate track."""
    track = d["debate"][faction]
    if p in track:
        track[p] += steps
    else:
        if not ensure_marker(d, p, reclaim, log, keep=f"debate:{faction}"):
            return False
        track[p] = steps
    log.append(("debate", {"player": p, "faction": faction, "steps": steps,
                           "position": track[p]}, None))
    return True


# --- the deck and the draw pool ----------------------------------------------

def cut(deck: list, rng) -> None:
    """Cut roughly in half: the top part goes under the rest."""
    n = len(deck)
    if n < 2:
        return
    k = n // 4 + rng.below(n // 2 + 1)   # cards lifted from the top
    if 0 < k < n:
        deck[:] = deck[-k:] + deck[:-k]


def reclaim_planners(d: dict, log: list) -> None:
    """A player's own planner showing on top of the deck goes back to them."""
    owners = d["planners"]
    while d["deck"]:
        top = d["deck"][-1]
        owner = owners.get(top)
        if owner is None or not d["prefs"][owner]["reclaim_planner"]:
            return
        d["deck"].pop()
        d["hands"][owner].append(top)
        log.append(("planner_reclaimed", {"player": owner, "card": top}, None))


def draw(d: dict, rng, log: list) -> str | None:
    """The top card of the deck, reshuffling the discard pile if needed."""
    if not d["deck"]:
        if not d["discard"]:
            return None
        d["deck"] = d["discard"]
        d["discard"] = []
        rng.shuffle(d["deck"])
        cut(d["deck"], rng)
        log.append(("reshuffled", {"cards": len(d["deck"])}, None))
        reclaim_planners(d, log)
        if not d["deck"]:
            return None
    card = d["deck"].pop()
    reclaim_planners(d, log)
    return card


def fill_pool(d: dict, rng, log: list) -> None:
    while len(d["pool"]) < POOL:
        c = draw(d, rng, log)
        if c is None:
            return
        d["pool"].append(c)


def needed(d: dict, p: str) -> int:
    return max(0, min(HAND - len(d["hands"][p]), len(d["pool"])))


def pick_positions(size: int, n: int, take: list) -> tuple[list[int], list]:
    """Which pool positions (1-based) to take ``n`` cards from, following the
    player's list of preferences; warnings for unusable entries."""
    warn = []
    picks: list[int] = []
    for i, pos in enumerate(take):
        if len(picks) == n:
            break   # a list of preferences: the rest is not needed this time
        if not isinstance(pos, int) or not 1 <= pos <= size or pos in picks:
            warn.append(("take.bad_position", {"position": pos, "size": size}, f"take.{i}"))
            continue
        picks.append(pos)
    if len(picks) < n:
        if take:
            warn.append(("take.filled", {"need": n, "cards": {"en": f"{n} card{'s' * (n != 1)}",
                                                               "de": f"{n} Karte{'n' * (n != 1)}"}}, "take"))
        for pos in range(1, size + 1):
            if len(picks) == n:
                break
            if pos not in picks:
                picks.append(pos)
    return picks, warn


def refill(d: dict, ed: Edition, p: str, take: list[int], rng, log: list) -> list:
    """Take cards from the pool (1-based positions, chosen by card back) up to
    a hand of 3, then fill the pool from the deck.  Returns warnings."""
    picks, warn = pick_positions(len(d["pool"]), needed(d, p), take)
    cards = [d["pool"][pos - 1] for pos in picks]
    for pos in sorted(picks, reverse=True):
        del d["pool"][pos - 1]
    d["hands"][p].extend(cards)
    if cards:
        backs = [[ed.cards[c].state, ed.cards[c].faction] for c in cards]
        log.append(("took", {"player": p, "positions": picks, "backs": backs}, None))
        log.append(("took_cards", {"player": p, "cards": cards}, (p,)))
    if rng is not None:          # None: a dry run for validation, the deck is not touched
        fill_pool(d, rng, log)
    return warn
