"""``determinize``: an 1848 state the player cannot tell from the real one (issue 35: the
bots search over such states, never the real hidden one).

Hidden from a player: the other hands (only how many person and Zusatz cards each holds
is public), the order of both stacks, the other players' plans, kept steps and draw
choices.  The unseen cards of each kind are pooled and dealt back into the other hands
(persons first, then Zusatzkarten: the order inside a hand is hidden too) and the
stacks, the stacks keeping their sizes; other plans are dropped (the player is asked
when his action comes); the rest of the state is kept."""
from __future__ import annotations

from referee.game_api.contract import Rng, redeal

from .state import State, clone


def determinize(state: State, player: str, rng: Rng) -> State:
    ed = state.ed
    d = clone(state.d)
    others = [p for p in d["players"] if p != player]

    def kind(card: str) -> str:
        return "person" if card in ed.persons else "zusatz"

    unseen: list[str] = []
    wants: list[str] = []
    sizes = []
    for p in others:
        hand = d["hands"][p]
        n_person = sum(1 for c in hand if kind(c) == "person")
        sizes.append((p, len(hand)))
        unseen += hand
        wants += ["person"] * n_person + ["zusatz"] * (len(hand) - n_person)
    for deck, k in (("persons_deck", "person"), ("zusatz_deck", "zusatz")):
        unseen += d[deck]
        wants += [k] * len(d[deck])
    dealt = redeal(wants, unseen, rng, kind)
    at = 0
    for p, n in sizes:
        d["hands"][p] = dealt[at:at + n]
        at += n
    for deck in ("persons_deck", "zusatz_deck"):
        n = len(d[deck])
        d[deck] = dealt[at:at + n]
        at += n
    for p in others:
        d["plans"][p] = None
        d["draw_pref"][p] = None
        if p in d.get("kept", {}):
            del d["kept"][p]
    if "kept" in d and not d["kept"]:
        del d["kept"]
    return State(ed, d)
