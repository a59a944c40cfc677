"""The contract's ``redeal`` (issue 35, for games' ``determinize``): unseen cards dealt
back with each slot's required key, the same deal whatever order they lay in before."""
from __future__ import annotations

import pytest

from referee.game_api.contract import Rng, redeal

KEY = {"a1": "a", "a2": "a", "a3": "a", "b1": "b", "b2": "b", "c1": "c"}


def test_redeal_gives_each_slot_a_card_with_its_key():
    for seed in range(20):
        out = redeal(["a", "b", None, "a", None, None], list(KEY), Rng(seed), KEY.__getitem__)
        assert sorted(out) == sorted(KEY)
        assert KEY[out[0]] == "a" and KEY[out[1]] == "b" and KEY[out[3]] == "a"


def test_redeal_ignores_where_the_cards_lay():
    cards = list(KEY)
    first = redeal(["a", None, None, "b", None, None], cards, Rng(5), KEY.__getitem__)
    again = redeal(["a", None, None, "b", None, None], list(reversed(cards)), Rng(5), KEY.__getitem__)
    assert first == again
    assert len({tuple(redeal([None] * 6, cards, Rng(s))) for s in range(10)}) > 1


def test_redeal_refuses_more_slots_than_cards():
    with pytest.raises(ValueError):
        redeal([None, None], ["x"], Rng(1))
