"""Issue 35: the search bot decides from what its seat may see and its seed alone, and
what it decides is legal, in every registered game."""
from __future__ import annotations

from collections import Counter

import pytest
from hiddenkit import COUNTS, positions, twin

from referee.bots import STRENGTHS, decide
from referee.game_api.contract import canonical_json

GAMES = sorted(COUNTS)


@pytest.fixture(scope="module", params=GAMES)
def played(request):
    rules, seats, states = positions(request.param, every=4, seed="bots")
    return rules, seats, states[:6]


def _bot(rules, state, seat, seed=11):
    return decide(rules, state, seat, seed=seed, strength="fast")


def test_bot_decides_the_same_in_states_its_seat_cannot_tell_apart(played):
    rules, _, states = played
    for state in states:
        for seat in sorted(rules.awaiting(state)):
            other = twin(rules, state, seat)
            assert canonical_json(rules.dump(other)) != canonical_json(rules.dump(state))
            assert _bot(rules, state, seat) == _bot(rules, other, seat), \
                f"{rules.name}: the bot in {seat} decided on what it may not see"


def test_bot_orders_are_legal(played):
    rules, _, states = played
    for state in states:
        for seat, stage in sorted(rules.awaiting(state).items()):
            orders = rules.order_schema(state, stage).model_validate(_bot(rules, state, seat))
            errors = [p for p in rules.validate(state, seat, orders) if p.is_error]
            assert not errors, f"{rules.name}: the bot in {seat} sent refused orders: {errors}"


def test_bot_is_deterministic_for_a_seed(played):
    rules, _, states = played
    state = states[len(states) // 2]
    seat = sorted(rules.awaiting(state))[0]
    before = canonical_json(rules.dump(state))
    assert _bot(rules, state, seat, 3) == _bot(rules, state, seat, 3)
    assert canonical_json(rules.dump(state)) == before, "the bot changed the state it was given"


def test_bot_refuses_an_unknown_strength_and_a_seat_not_awaited():
    rules, seats, states = positions("revolution_1848", every=10, seed="bots")
    state = states[0]
    seat = sorted(rules.awaiting(state))[0]
    with pytest.raises(ValueError, match="strength"):
        decide(rules, state, seat, seed=1, strength="godlike")
    idle = next(s for s in seats if s not in rules.awaiting(state))
    with pytest.raises(ValueError, match="owes no orders"):
        decide(rules, state, idle, seed=1)
    assert "default" in STRENGTHS and "fast" in STRENGTHS


@pytest.mark.parametrize("game", ["founding_fathers", "nations_dice"])
def test_estimate_is_the_final_score_once_the_game_is_over(game):
    from referee.app import conformance
    from referee.game_api import registry
    from referee.game_api.contract import PUBLIC

    rules = registry.get(game)
    ends = []
    final, _ = conformance.play(rules, conformance.seats(3), "estimate", lambda s, r: ends.append(r.outcome))
    scores = rules.estimate(rules.view(final, PUBLIC))
    assert scores == ends[-1]["scores"]
    assert all(isinstance(v, int) for v in scores.values())


def test_bots_playing_bots_finish_a_founding_fathers_game():
    """Where the play-outs cannot tell the moves apart, a tie is broken by chance: before, the
    default (an empty snub, found first) won every tie and fast bots passed until the turn limit."""
    from referee.app.arena import run_arena
    from referee.game_api import registry
    result = run_arena(registry.get("founding_fathers"), 4, 1, "stall", "fast", "fast")
    assert result.unfinished == 0 and result.lengths[0] < 400, result.lengths


def test_the_arena_counts_the_matches_no_seat_won():
    """The Ratsspiel's common defeat and a non-player councillor's win leave every seat without
    a first place: the arena says how often (``unwon``), beside the win rates."""
    from referee.app.arena import RANDOM, play_match, run_arena
    from referee.game_api import registry
    rules = registry.get("perricumer_ratsspiel")
    result = run_arena(rules, 12, 4, "unwon", RANDOM, RANDOM)
    outcomes = [play_match(rules, [RANDOM] * 12, f"unwon:{i}")[0] or {} for i in range(4)]
    reasons = Counter(o.get("reason") for o in outcomes if not o.get("winners"))
    none_first = sum(reasons.values())
    assert none_first, "twelve random players lose most matches to Korruption"
    assert result.unwon == none_first
    assert result.unwon_why == reasons and reasons["korruption"], "how they ended: common defeat mostly"
    assert result.by_strategy[RANDOM].wins == 4 - none_first, "one first place in every other match"
