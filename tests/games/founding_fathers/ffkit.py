"""Hand-built Founding Fathers positions for the tests."""
from __future__ import annotations

from referee.game_api.contract import Rng
from referee_games.founding_fathers import RULES
from referee_games.founding_fathers.edition import DEFAULT
from referee_games.founding_fathers.state import FFState, new_data

ED = DEFAULT


def article(bias: str, skip=()) -> str:
    """An article whose historical side shows ``bias``."""
    return next(a for a, v in ED.articles.items() if v["front"] == bias and a not in skip)


def board(players=("madison", "paterson", "sherman"), bias="antifederalist",
          committee_bias="antifederalist", hands=None, active=None) -> FFState:
    """Players named after their planners, each holding the planner plus ``hands``;
    every other card in the deck in edition order (pool = the last three)."""
    players = list(players)
    d = new_data(players, {p: p for p in players}, None)
    hands = hands or {}
    for p in players:
        d["hands"][p] = list(hands.get(p, [p]))
    held = {c for h in d["hands"].values() for c in h}
    d["deck"] = [c for c in ED.cards if c not in held]
    d["pool"] = [d["deck"].pop() for _ in range(3)]
    a = article(bias)
    c = article(committee_bias, skip=(a,))
    d["assembly"], d["committee_article"] = [a, False], [c, False]
    rest = [x for x in ED.articles if x not in (a, c)]
    d["resolved"] = [[x, False] for x in rest[:4]]
    d["articles"] = rest[4:]
    d["stage"] = "action"
    d["active"] = players.index(active) if active else 0
    return FFState(ED, d)


def take(st: FFState, *cards: str) -> None:
    """Remove cards from wherever they lie (deck, pool, discard, hands)."""
    d = st.d
    for c in cards:
        for place in [d["deck"], d["pool"], d["discard"], *d["hands"].values()]:
            if c in place:
                place.remove(c)
                break


def put_delegation(st: FFState, state: str, side: str, cards, ctrl=None, protected=False) -> None:
    take(st, *cards)
    st.d["delegations"][state] = {"side": side, "cards": list(cards), "ctrl": ctrl, "protected": protected}


def order(st: FFState, stage="action", /, **raw):
    return RULES.order_schema(st, stage).model_validate(raw)


def errors(st: FFState, player: str, /, **raw) -> list:
    return [p for p in RULES.validate(st, player, order(st, **raw)) if p.is_error]


def play(st: FFState, player: str, seed: int = 1, /, **raw):
    """Validate (must pass) and resolve one player's orders; return the Resolution."""
    o = order(st, RULES.awaiting(st)[player], **raw)
    errs = [p for p in RULES.validate(st, player, o) if p.is_error]
    assert not errs, errs
    return RULES.resolve(st, {player: o}, Rng(seed))


def kinds(res) -> list[str]:
    return [e.kind for e in res.log]
