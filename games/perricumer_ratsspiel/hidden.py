"""``determinize``: a Ratsspiel state the player cannot tell from the real one (issue 35:
the bots search over such states, never the real hidden one).

Hidden from a player: the other players' secret agendas (until revealed), the event cards
they still hold, their private record of the last session (action points, card played)
and the order of the proposal deck.  Unrevealed agendas are drawn anew from the campaign's
agendas the player cannot rule out, distinct while there are enough (as at setup); the
event cards anew from the eight (as many as rounds are left to play them, at most three);
the private records emptied; the deck shuffled from its sorted contents."""
from __future__ import annotations

from referee.game_api.contract import Rng

from .orders import CARDS


def determinize(state: dict, player: str, rng: Rng) -> dict:
    s = {**state}                      # shallow: only the parts replaced below are new
    others = [p for p in sorted(s["players"]) if p != player and p not in s["revealed"]]
    known = {s["agendas"][p] for p in s["revealed"]}
    if player in s["agendas"]:
        known.add(s["agendas"][player])
    ids = sorted(a["id"] for a in s["campaign"]["agendas"])
    pool = [a for a in ids if a not in known] or ids
    rng.shuffle(pool)
    s["agendas"] = dict(s["agendas"])
    for i, p in enumerate(others):
        s["agendas"][p] = pool[i % len(pool)]
    s["cards"] = dict(s["cards"])
    left = min(3, s["campaign"]["rounds"] - s["round"] + 1)
    for p in sorted(s["players"]):
        if p != player:
            s["cards"][p] = None if s["round"] == 1 else sorted(rng.sample(CARDS, left), key=CARDS.index)
    if s.get("last") and s["last"].get("private"):
        s["last"] = {**s["last"], "private": {p: (v if p == player else {})
                                               for p, v in s["last"]["private"].items()}}
    deck = sorted(s["deck"])
    rng.shuffle(deck)
    s["deck"] = deck
    return s
