"""The example game's own tests: its rules, and the referee's conformance checks
run against it exactly as they run against the built-in games."""
from rps_game import RULES
from rps_game.rules import Throw

from referee.app.conformance import check_game
from referee.game_api.contract import Rng


def test_rock_beats_scissors_and_scores_against_each_player_it_beats():
    state = RULES.setup(["ada", "bert", "cleo"], {"rounds": 1}, Rng(1))
    orders = {"ada": Throw(sign="rock"), "bert": Throw(sign="scissors"), "cleo": Throw(sign="scissors")}
    result = RULES.resolve(state, orders, Rng(2))
    assert result.state["score"] == {"ada": 2, "bert": 0, "cleo": 0}
    assert result.outcome == {"winners": ["ada"], "scores": {"ada": 2, "bert": 0, "cleo": 0}}


def test_a_bad_rounds_option_is_refused():
    assert [p.code for p in RULES.check_options(["ada", "bert"], {"rounds": 0})] == ["options.rounds"]


def test_the_referees_conformance_checks_pass():
    check_game(RULES)
