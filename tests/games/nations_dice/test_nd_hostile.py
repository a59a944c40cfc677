"""Hostile and odd plans: whatever passes the schema is checked at the door and, if
accepted, carried out (or falls through) without an exception; refused plans are
replaced by the default at resolution."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from ndkit import game

from referee.game_api.contract import Rng
from referee_games.nations_dice import RULES

IDS = st.sampled_from(["w1", "w2", "w5", "o1", "r9", "b2", "gold", "stone", "food", "reroll", "Stärke", "x", ""])
PAIRS = st.lists(st.lists(IDS, min_size=0, max_size=4), max_size=4)
TRADE = st.one_of(st.sampled_from(["auto", "none"]), PAIRS)
PAY = st.one_of(st.just("auto"), st.lists(IDS, max_size=5))
BUY = st.fixed_dictionaries({}, optional={
    "tile": st.sampled_from(["crete", "aqueduct", "pyramids", "nope", "granary"]),
    "column": st.integers(1, 9), "row": st.integers(1, 9), "pay": PAY, "trade": TRADE,
    "replace": st.integers(1, 9), "give_back": st.lists(IDS, max_size=3)})
STEP = st.one_of(
    st.sampled_from(["pass", "ask", "build", "reroll"]),
    st.builds(lambda b: {"buy": b}, BUY),
    st.builds(lambda d: {"reroll": d}, st.one_of(st.just("all"), st.lists(IDS, max_size=4))),
    st.builds(lambda p, t: {"build": {"pay": p, "trade": t}}, PAY, TRADE),
    st.builds(lambda f: {"pass": {"food_trade": f}}, st.one_of(st.none(), TRADE)),
    st.builds(lambda b: {"buy": b, "reroll": "all"}, BUY),
)


@settings(max_examples=150, deadline=None)
@given(steps=st.lists(STEP, max_size=8), variant=st.sampled_from(["original", "accelerated"]))
def test_any_plan_is_checked_and_resolved_without_an_exception(steps, variant):
    s = game(("a", "b"), variant=variant)
    model = RULES.order_schema(s, "plan").model_validate({"steps": steps})
    problems = RULES.validate(s, "a", model)
    assert all(p.code in RULES.messages for p in problems)
    res = RULES.resolve(s, {"a": model}, Rng(3))
    assert res.state.d["waiting"] or res.state.d["stage"] == "over"
    if any(p.is_error for p in problems):
        assert res.log[0].kind == "defaulted"
