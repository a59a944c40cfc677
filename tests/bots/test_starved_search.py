"""Issue 35: where every seat moves every turn (the Ratsspiel from two players) the search's
budget gives each candidate a play-out or two to the end of the game, which cannot tell them
apart; there it judges each candidate right after its session by the game's ``estimate`` from
the seat's own view, and offers each part of a drawn order on its own (the game's standard
action deciding the others)."""
from __future__ import annotations

import itertools

import pytest
from hiddenkit import twin

from referee.app.arena import seat_names
from referee.bots import decide, search
from referee.bots.candidates import candidates, one_part_each
from referee.bots.search import STRENGTHS
from referee.game_api import registry
from referee.game_api.contract import PUBLIC, Rng, canonical_json, derive_seed
from referee.game_api.scripted import random_player

RATS = registry.get("perricumer_ratsspiel")


def _states(rules, players: int, seed: str):
    """Each state of a match of ``players`` random legal players, from its setup on."""
    state = rules.setup(seat_names(players), {}, Rng(derive_seed(seed, "setup")))
    draw, rng = random_player(rules), Rng(derive_seed(seed, "orders"))
    for turn in itertools.count():
        yield state
        orders = {p: rules.order_schema(state, s).model_validate(draw(state, p, rng))
                  for p, s in sorted(rules.awaiting(state).items())}
        state = rules.resolve(state, orders, Rng(derive_seed(seed, turn))).state


def _session(players: int, sessions: int = 2, seed: str = "starved") -> dict:
    """A Ratsspiel match of ``players`` random players, ``sessions`` sessions in."""
    return next(itertools.islice(_states(RATS, players, seed), sessions, None))


def _rescued(monkeypatch, rules, state, seat, strength="default") -> int:
    """How often ``decide`` found its search starved (``one_part_each`` called)."""
    calls = []
    real = search.one_part_each
    monkeypatch.setattr(search, "one_part_each", lambda *a: calls.append(1) or real(*a))
    decide(rules, state, seat, seed=9, strength=strength)
    return len(calls)


def test_a_ratsspiel_session_of_three_is_starved_and_a_solo_one_is_not(monkeypatch):
    assert _rescued(monkeypatch, RATS, _session(3), "seat1") == 1
    assert _rescued(monkeypatch, RATS, _session(1), "seat1") == 0
    assert _rescued(monkeypatch, RATS, _session(3), "seat1", "fast") == 0, "the demo's fast bots choose as they did"


@pytest.mark.parametrize("game, players", [("founding_fathers", 5), ("revolution_1848", 4)])
def test_a_game_whose_many_seats_move_at_once_only_briefly_is_never_starved(monkeypatch, game, players):
    """Founding Fathers and 1848 await several seats at once in some stages, but a play-out
    soon goes on one seat at a time: their bots choose as before the rescue."""
    rules = registry.get(game)
    seen = 0
    for state in itertools.islice(_states(rules, players, "never"), 60):
        awaiting = rules.awaiting(state)
        if len(awaiting) > 1 and seen < 3:
            seen += 1
            assert _rescued(monkeypatch, rules, state, sorted(awaiting)[0]) == 0
    assert seen, f"{game}: no stage with several seats at once in 60 turns"


def test_a_starved_search_keeps_the_default_and_offers_each_part_of_every_draw_on_its_own():
    state = _session(8)
    seat = "seat3"
    stage = RATS.awaiting(state)[seat]
    dets = [RATS.determinize(state, seat, Rng(i)) for i in range(4)]
    moves = candidates(RATS, dets, seat, stage, Rng(5), STRENGTHS["default"].draws)
    parts = one_part_each(RATS, dets[0], seat, stage, moves)
    assert parts[0] == moves[0], "the default stays first"
    offered = {canonical_json(raw) for raw, _ in parts[1:]}
    assert len(offered) == len(parts) - 1, "a candidate twice"
    wanted = {canonical_json({key: raw[key]}) for raw, _ in moves[1:] for key in raw}
    assert offered == wanted - {canonical_json(moves[0][0])}, "every part of every draw, and nothing else"
    assert {key for raw, _ in parts[1:] for key in raw} >= {"abstimmung", "aktionen", "auswahl"}
    for raw, model in parts:
        assert not [p for p in RATS.validate(dets[0], seat, model) if p.is_error], raw


def test_a_starved_search_judges_each_candidate_one_session_ahead(monkeypatch):
    """The look-ahead is the move's own session: every play-out after the rescue resolves once."""
    horizons = []
    real = search.playout
    monkeypatch.setattr(search, "playout", lambda *a: horizons.append(a[-1]) or real(*a))
    decide(RATS, _session(5), "seat2", seed=3)
    assert horizons[0] == STRENGTHS["default"].horizon, "the first play-out, the one that tells"
    assert set(horizons[1:]) == {0}
    assert len(horizons) > STRENGTHS["default"].playouts, "the work budget, not the play-out cap, bounds it"


def test_a_starved_bot_still_decides_the_same_in_states_its_seat_cannot_tell_apart():
    state = _session(6)
    seat = "seat2"
    other = twin(RATS, state, seat)
    assert canonical_json(RATS.dump(other)) != canonical_json(RATS.dump(state))
    assert decide(RATS, state, seat, seed=4) == decide(RATS, other, seat, seed=4)


def test_the_ratsspiel_estimate_counts_the_seats_own_agenda_and_the_revealed_ones_only():
    state = _session(3, sessions=1)
    state["agendas"] = {"seat1": "gelehrt", "seat2": "volk", "seat3": "schatz"}
    state["values"].update(wissenschaft=15, zufriedenheit=15, stadtkasse=3)   # seat1's, seat2's hold
    rows = RATS.view(state, PUBLIC)["public"]["members"]
    public = {row["player"]: row["total"] for row in rows if row["player"]}
    mine = RATS.estimate(RATS.view(state, "seat1"))
    assert mine == {**public, "seat1": public["seat1"] + 6}, "seat2's agenda is secret from seat1"
    state["revealed"] = ["seat2"]
    mine = RATS.estimate(RATS.view(state, "seat1"))
    assert mine == {**public, "seat1": public["seat1"] + 6, "seat2": public["seat2"] + 6}
    assert RATS.estimate(RATS.view(state, "seat3")) == {**public, "seat2": public["seat2"] + 6}, \
        "seat3's agenda does not hold"


def test_a_starved_search_with_no_part_that_stands_alone_sends_the_default_at_once(monkeypatch):
    played = []
    real = search.playout
    monkeypatch.setattr(search, "playout", lambda *a: played.append(1) or real(*a))
    monkeypatch.setattr(search, "one_part_each", lambda rules, state, seat, stage, moves: moves[:1])
    state = _session(5)
    default = RATS.default_orders(state, "seat2").model_dump(mode="json", by_alias=True, exclude_none=True)
    assert decide(RATS, state, "seat2", seed=3) == default
    assert played == [1], "only the play-out that found the search starved"
