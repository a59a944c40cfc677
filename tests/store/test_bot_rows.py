"""Issue 35, migration 11: a seat's bot on both backends: set, found undecided for the
open turn of a running match only, decided once a turn, given back to a person."""
from __future__ import annotations

from datetime import UTC, datetime

from storefix import backend, location, store, store_at  # noqa: F401  (fixtures)

from referee.store import bots as bot_rows

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _match(store, status: str = "running") -> None:  # noqa: F811
    store.add_match(id="m", game="g", version="1", spec={}, seed="s", status=status, gm_email="gm@example.org",
                    gm_key_hash="h", created=NOW)
    store.add_player("m", "robo", "Robo", "", None, "k")
    store.add_turn(match="m", number=1, state={}, awaiting={"robo": "play"}, deadline=NOW, seed=1, opened=NOW)


def test_a_bot_seat_is_undecided_until_it_played_the_open_turn(store):  # noqa: F811
    with store.transaction():
        _match(store)
        bot_rows.set_bot(store, "m", "robo", "default", "file", NOW)
    assert [r["player"] for r in bot_rows.undecided(store)["m"]] == ["robo"]
    assert bot_rows.undecided(store, "other") == {}
    with store.transaction():
        bot_rows.mark_decided(store, "m", "robo", bot_rows.turn_key(1, 0))
    assert bot_rows.undecided(store) == {}, "decided once a turn"
    with store.transaction():   # the GM gives it to a bot again (another strength): it decides afresh
        bot_rows.set_bot(store, "m", "robo", "default", "gm", NOW)
    assert bot_rows.bots(store, "m")["robo"]["why"] == "gm" and "m" in bot_rows.undecided(store)
    with store.transaction():
        assert bot_rows.drop_bot(store, "m", "robo") is True
        assert bot_rows.drop_bot(store, "m", "robo") is False
    assert bot_rows.bots(store, "m") == {}


def test_a_paused_match_s_bots_wait(store):  # noqa: F811
    with store.transaction():
        _match(store, status="paused")
        bot_rows.set_bot(store, "m", "robo", "default", "file", NOW)
    assert bot_rows.undecided(store) == {}
