"""One test every registered game must pass (as OpenSpiel's random-play test):
the checks of ``referee.app.conformance`` (shipped, so a third-party game runs the
same), for every registered game and player count."""
from __future__ import annotations

import pytest

from referee.app import conformance
from referee.game_api import registry

GAMES = registry.names()
CASES = [(g, n) for g in GAMES for n in conformance.player_counts(registry.get(g))]


@pytest.mark.parametrize("game,n", CASES)
def test_random_play_to_the_end(game, n):
    conformance.check_random_play(registry.get(game), n)


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_hashes(game):
    conformance.check_same_seed_same_hashes(registry.get(game))


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_in_every_seat_plays_a_few_turns(game):
    rules = registry.get(game)
    assert conformance.check_bot_seats(rules, conformance.player_counts(rules)[-1]) >= 2


def test_every_declared_game_loads():
    assert GAMES, "no game is registered"
    for name in GAMES:
        conformance.check_declaration(registry.get(name))
