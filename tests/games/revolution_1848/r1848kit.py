"""Hand-built 1848 positions for the tests."""
from __future__ import annotations

from referee.game_api.contract import Rng
from referee_games.revolution_1848 import RULES
from referee_games.revolution_1848.edition import DEFAULT
from referee_games.revolution_1848.state import State, new_data
from referee_games.revolution_1848.table import evaluate

ED = DEFAULT


def board(players=("ada", "bert", "cleo", "dora"), hands=None, opener=0) -> State:
    """A fresh trick around A01: hands as given, every other card in its stack (edition order)."""
    players = list(players)
    d = new_data(players, None)
    hands = hands or {}
    for p in players:
        d["hands"][p] = list(hands.get(p, []))
    held = {c for h in d["hands"].values() for c in h}
    d["persons_deck"] = [c for c in ED.persons if c not in held]
    d["zusatz_deck"] = [c for c in ED.zusatz if c not in held]
    d["ablauf"] = list(ED.ablauf)
    d["trick"]["opener"] = d["trick"]["actor"] = opener
    d["tricks"] = 1
    d["awaiting"] = list(players)
    return State(ED, d)


def _take(st, card):
    d = st.d
    for place in [d["persons_deck"], d["zusatz_deck"], *d["hands"].values()]:
        if card in place:
            place.remove(card)
            return


def lay(st, player, *pids):
    """Persons straight onto ``player``'s side of the table."""
    for c in pids:
        _take(st, c)
        st.d["trick"]["persons"][player].append(c)


def zusatz(st, card, by, on=None, player=None, party=None):
    _take(st, card)
    st.d["trick"]["zusatz"].append({"card": card, "by": by, "on": on, "player": player,
                                    "party": party, "void": False})


def army(st, card, by, to=None):
    _take(st, card)
    st.d["trick"]["armies"].append({"card": card, "by": by, "to": to})


def result(st) -> dict:
    return evaluate(st.d["trick"], ED, st.d["players"])


def orders(st, player, /, **raw):
    return RULES.order_schema(st, RULES.awaiting(st)[player]).model_validate(raw)


def problems(st, player, /, **raw):
    return RULES.validate(st, player, orders(st, player, **raw))


def errors(st, player, /, **raw):
    return [p for p in problems(st, player, **raw) if p.is_error]


def resolve(st, plans: dict, seed=1):
    """Validate (must pass) and resolve the awaited players' orders; others default."""
    o = {}
    for p, raw in plans.items():
        o[p] = orders(st, p, **raw)
        errs = [x for x in RULES.validate(st, p, o[p]) if x.is_error]
        assert not errs, errs
    return RULES.resolve(st, o, Rng(seed))


def kinds(res) -> list[str]:
    return [e.kind for e in res.log]
