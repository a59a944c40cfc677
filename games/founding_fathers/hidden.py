"""``determinize``: a Founding Fathers state the player cannot tell from the real one
(issue 35: the bots search over such states, never the real hidden one).

Hidden from a player: the fronts of the other caucus cards and of the draw pool (their
backs, state and faction, are public), the other players' dealt cards at the start, the
deck below its top card (whose back shows), the order of the articles still to come and
the other players' standing preferences.  Every card there is pooled and dealt back with
the same backs; the rest of the state is kept."""
from __future__ import annotations

from referee.game_api.contract import Rng, redeal

from .state import FFState, clone


def determinize(state: FFState, player: str, rng: Rng) -> FFState:
    ed = state.ed
    d = clone(state.d)
    others = [p for p in d["players"] if p != player]
    back = {cid: (c.state, c.faction) for cid, c in ed.cards.items()}
    # (list, index) places of unseen cards and the back each must show (None: face down, unknown)
    places: list[tuple[list, int]] = []
    wants: list = []

    def hidden(cards: list, shown) -> None:
        for i, cid in enumerate(cards):
            places.append((cards, i))
            wants.append(shown(i, cid))

    for p in others:
        hidden(d["hands"][p], lambda i, c: back[c])
    hidden(d["pool"], lambda i, c: back[c])
    top = len(d["deck"]) - 1
    hidden(d["deck"], lambda i, c: back[c] if i == top else None)
    for p in others:
        if p in d["dealt"]:
            hidden(d["dealt"][p], lambda i, c: None)
    unseen = [cards[i] for cards, i in places]
    for (cards, i), cid in zip(places, redeal(wants, unseen, rng, back.__getitem__)):
        cards[i] = cid
    articles = sorted(d["articles"])
    rng.shuffle(articles)
    d["articles"] = articles
    for p in others:
        d["prefs"][p] = {"flip": None, "reclaim_planner": True}
    return FFState(ed, d)
