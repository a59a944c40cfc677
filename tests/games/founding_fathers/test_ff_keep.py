"""Setup D over mail: every player keeps 2 of 4 dealt cards; a wrong choice is
answered with every problem at once."""
from __future__ import annotations

from referee.game_api.contract import Rng, phrase
from referee_games.founding_fathers import RULES


def test_keep_names_every_card_not_dealt_and_the_count_at_once():
    state = RULES.setup(["ada", "bert", "cleo"], {}, Rng(11))
    assert RULES.awaiting(state)["ada"] == "keep"
    dealt = RULES.view(state, "ada")["private"]
    model = RULES.order_schema(state, "keep")
    mine = RULES.random_orders(state, "ada", Rng(1))["keep"]
    problems = RULES.validate(state, "ada", model.model_validate({"keep": [mine[0], "nobody", "few_x"]}))
    codes = [(p.code, p.where) for p in problems]
    assert ("keep.count", "keep") in codes
    assert ("keep.unknown", "keep.1") in codes and ("keep.unknown", "keep.2") in codes
    assert not RULES.validate(state, "ada", model.model_validate({"keep": mine})), dealt


def test_a_misspelt_kept_card_is_answered_with_the_dealt_cards_and_the_one_it_likely_means():
    state = RULES.setup(["ada", "bert", "cleo"], {}, Rng(11))
    mine = RULES.random_orders(state, "ada", Rng(1))["keep"]
    dealt = state.d["dealt"]["ada"]
    typo = mine[1][:-1] + ("x" if mine[1][-1] != "x" else "y")   # one letter off
    [problem] = RULES.validate(state, "ada", RULES.order_schema(state, "keep").model_validate({"keep": [mine[0], typo]}))
    for lang, near in (("en", f"Did you mean '{mine[1]}'?"), ("de", f"Meintest du „{mine[1]}“?")):
        said = phrase(RULES, problem, lang)
        assert said.endswith(near) and ", ".join(dealt) in said, said
    [far] = RULES.validate(state, "ada", RULES.order_schema(state, "keep").model_validate({"keep": [mine[0], "zzzzzz"]}))
    assert "?" not in phrase(RULES, far, "en")   # nothing near: no guess
