"""Positions from random matches of every game, and their *twins*: the same position with
what one seat may not see changed (other hands, deck order, secret agendas, other seats'
plans), so the seat's view is the same while the state is not (issue 35: determinize and
the bots must not tell them apart)."""
from __future__ import annotations

from referee.app import conformance
from referee.game_api import registry
from referee.game_api.contract import canonical_json

COUNTS = {"founding_fathers": 3, "nations_dice": 2, "perricumer_ratsspiel": 3, "revolution_1848": 3}


def positions(game: str, every: int = 5, seed: str = "hidden") -> tuple[object, list[str], list]:
    """(rules, seats, states every ``every`` turns of one random match, open turns only)."""
    rules = registry.get(game)
    seats = conformance.seats(COUNTS[game])
    states: list = []
    conformance.play(rules, seats, seed, lambda state, result: states.append(state))
    open_ = [s for s in states if rules.awaiting(s)]
    return rules, seats, open_[::every]


def _ff(d: dict, seat: str) -> None:
    others = [p for p in d["players"] if p != seat]
    d["deck"][:-1] = list(reversed(d["deck"][:-1]))
    d["articles"].reverse()
    for p in others:
        d["prefs"][p]["reclaim_planner"] = not d["prefs"][p]["reclaim_planner"]
        d["dealt"].get(p, []).reverse()


def _ff_swap(rules, state, seat: str) -> None:
    """Swap a card of another hand with a deck card of the same back (state and faction)."""
    d, ed = state.d, state.ed
    back = {c: (x.state, x.faction) for c, x in ed.cards.items()}
    for p in d["players"]:
        if p == seat:
            continue
        for i, c in enumerate(d["hands"][p]):
            for j, e in enumerate(d["deck"][:-1]):
                if back[e] == back[c] and e != c:
                    d["hands"][p][i], d["deck"][j] = e, c
                    return


def _nations(d: dict, seat: str) -> None:
    for stack in (*d["stacks"].values(), *d["event_stacks"].values()):
        stack.reverse()
    for p, q in d["p"].items():
        if p != seat:
            q["plan"] = [{"do": "pass", "food_trade": None}] if not q["plan"] else []


def _r1848(d: dict, ed, seat: str) -> None:
    d["persons_deck"].reverse()
    d["zusatz_deck"].reverse()
    for p in d["players"]:
        if p == seat:
            continue
        d["hands"][p].reverse()
        d["draw_pref"][p] = "zusatz" if d["draw_pref"][p] != "zusatz" else "person"
        d["plans"][p] = ["pass"] if d["plans"][p] is None else None
        hand = d["hands"][p]
        for i, c in enumerate(hand):   # a person in this hand for one in the stack
            if c in ed.persons and d["persons_deck"]:
                hand[i], d["persons_deck"][0] = d["persons_deck"][0], c
                break


def _ratsspiel(s: dict, seat: str) -> None:
    others = [p for p in sorted(s["players"]) if p != seat and p not in s["revealed"]]
    ids = sorted(a["id"] for a in s["campaign"]["agendas"])
    for p in others:
        s["agendas"][p] = ids[(ids.index(s["agendas"][p]) + 1) % len(ids)]
        if s["cards"].get(p):
            s["cards"][p] = s["cards"][p][:-1]
    s["deck"].reverse()


def twin(rules, state, seat: str):
    """A copy of ``state`` whose hidden parts (for ``seat``) are changed."""
    other = rules.load(rules.dump(state))
    if rules.name == "founding_fathers":
        _ff(other.d, seat)
        _ff_swap(rules, other, seat)
    elif rules.name == "nations_dice":
        _nations(other.d, seat)
    elif rules.name == "revolution_1848":
        _r1848(other.d, other.ed, seat)
    else:
        _ratsspiel(other, seat)
    return other


def same(a, b) -> bool:
    return canonical_json(a) == canonical_json(b)
