"""Issue 35: every game's ``determinize(state, seat, rng)`` keeps what the seat sees and
redraws the rest from ``rng`` alone: two states the seat cannot tell apart give the same
determinized state for the same seed, and that state plays on."""
from __future__ import annotations

import pytest
from hiddenkit import COUNTS, positions, same, twin

from referee.game_api.contract import Rng, canonical_json
from referee.game_api.scripted import random_player

GAMES = sorted(COUNTS)


@pytest.fixture(scope="module", params=GAMES)
def played(request):
    return positions(request.param, every=3)


def test_determinize_keeps_the_seats_view(played):
    rules, seats, states = played
    for i, state in enumerate(states):
        for seat in seats:
            det = rules.determinize(state, seat, Rng(i))
            assert same(rules.view(det, seat), rules.view(state, seat)), f"{rules.name} turn {i}: {seat}'s view changed"
            assert rules.awaiting(det) == rules.awaiting(state)


def test_determinize_cannot_tell_twins_apart(played):
    rules, seats, states = played
    for i, state in enumerate(states):
        for seat in seats:
            other = twin(rules, state, seat)
            assert not same(rules.dump(other), rules.dump(state)), "the twin must differ in what is hidden"
            assert same(rules.view(other, seat), rules.view(state, seat)), "the twin must look the same to the seat"
            a = rules.dump(rules.determinize(state, seat, Rng(100 + i)))
            b = rules.dump(rules.determinize(other, seat, Rng(100 + i)))
            assert same(a, b), f"{rules.name}: determinize read what {seat} may not see"


def test_determinize_redraws_what_is_hidden(played):
    rules, seats, states = played
    draws = {canonical_json(rules.dump(rules.determinize(state, seats[0], Rng(seed))))
             for state in states[:3] for seed in range(4)}
    assert len(draws) > 3, f"{rules.name}: other seeds should deal the hidden parts otherwise"


def test_determinized_state_is_valid_and_plays_on(played):
    rules, seats, states = played
    draw = random_player(rules)
    for i, state in enumerate(states):
        det = rules.determinize(state, seats[i % len(seats)], Rng(i))
        assert same(rules.dump(rules.load(rules.dump(det))), rules.dump(det))
        before = canonical_json(rules.dump(state))
        for _ in range(3):
            awaiting = rules.awaiting(det)
            if not awaiting:
                break
            orders = {}
            for p, stage in sorted(awaiting.items()):
                model = rules.order_schema(det, stage).model_validate(draw(det, p, Rng(i)))
                assert not [x for x in rules.validate(det, p, model) if x.is_error]
                orders[p] = model
            det = rules.resolve(det, orders, Rng(i)).state
        assert canonical_json(rules.dump(state)) == before, "determinize changed its input"
