"""The open turn's loaded state is kept between mails, but never outlives the
stored state: a turn made again under the same number and rev (a rollback, then
closing again, maybe in another process) is loaded afresh."""
from __future__ import annotations

from referee_kit import SPEC, clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


def test_a_turn_state_is_loaded_once_and_reloaded_when_the_stored_state_changes(ref, clock):
    ref.create_match(SPEC)
    match = ref.store.match("toy1")
    rules = ref.rules(match)
    first = ref.turn_state(rules, "toy1", ref.store.current_turn("toy1"))
    assert ref.turn_state(rules, "toy1", ref.store.current_turn("toy1")) is first  # a fresh row, the kept state
    turn = ref.store.current_turn("toy1")
    changed = {**turn["state"], "budget": {p: 3 for p in turn["state"]["budget"]}}
    with ref.store.transaction():                   # the same number and rev, another state
        ref.store.delete_turn("toy1", turn["number"])
        ref.store.add_turn(match="toy1", number=turn["number"], state=changed, awaiting=turn["awaiting"],
                           deadline=None, seed=turn["seed"], opened=clock(), rev=turn["rev"])
    again = ref.turn_state(rules, "toy1", ref.store.current_turn("toy1"))
    assert again is not first and again["budget"] == {p: 3 for p in first["budget"]}
    assert ref.turn_state(rules, "toy1", ref.store.current_turn("toy1")) is again


def test_a_row_whose_state_was_already_read_is_loaded_without_keeping_it(ref):
    ref.create_match(SPEC)
    rules = ref.rules(ref.store.match("toy1"))
    turn = ref.store.current_turn("toy1")
    assert turn["state"]["round"] == 1 and turn.raw("state") is None   # decoded: no text to check against
    assert ref.turn_state(rules, "toy1", turn) == rules.load(turn["state"])
    assert ref._states == {}
