"""Issue 35: with close workers (real spawned processes), a bot seat's orders are decided in
the pass that finds the turn due, before any worker claims it; the workers close the turn
with the bot's orders (orders.yaml ``source: bot``), and no close waits for the bot."""
from __future__ import annotations

from datetime import UTC, datetime

import yaml
from refkit import Clock

from referee.app.referee import Recipe, Referee
from referee.authority.base import Settings
from referee.game_api.contract import Rng
from referee.store import open_store
from referee.turns.workers import ClosePool


def test_workers_close_a_turn_the_bot_decided_in_the_same_pass(tmp_path):
    clock = Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    ref = Referee(open_store(tmp_path / "referee.sqlite"), tmp_path / "turns", clock=clock,
                  settings=Settings(address="referee@example.org"))
    ref.create_match({"id": "m", "game": "perricumer_ratsspiel", "gm": "gm@example.org", "lang": "en",
                      "schedule": {"period": "48h"}, "close_guard": {"hold": False},
                      "players": [{"id": "ann", "name": "Ann", "email": "ann@example.org"},
                                  {"id": "robo", "name": "Robo", "bot": True}]}, seed="workers-bot")
    turn = ref.store.current_turn("m")
    rules = ref.rules(ref.store.match("m"))
    with ref.store.transaction():   # ann's orders, as the intake stores them (the door is tested elsewhere)
        data = rules.random_orders(rules.load(turn["state"]), "ann", Rng(1))
        model = rules.order_schema(rules.load(turn["state"]), turn["awaiting"]["ann"]).model_validate(data)
        ref.store.put_submission("m", 1, "ann", model.model_dump(mode="json"), "<ann.1@example.org>", "x", clock())
    pool = ClosePool(Recipe.of(ref), 1)
    try:
        report = ref.tick(pool=pool)   # the bot decides in this pass; the turn is then complete: closed early
    finally:
        pool.shutdown()
    assert report.closed == [("m", 1)], report
    used = yaml.safe_load((tmp_path / "turns" / "m" / "t001" / "orders.yaml").read_text())
    assert used["robo"]["source"] == "bot" and used["ann"]["source"] == "player"
    ref.store.close()
