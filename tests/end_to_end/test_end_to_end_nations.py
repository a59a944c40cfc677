"""A whole Nations match by mail through a real Dovecot and a real SMTP server.

A plan of several steps whose first step fails and falls through, a missed
deadline (the default: pass), a famine decision sent by mail, then random
plans to the end; the archive replays.  The match uses a GM edition given in
the match file (white dice mostly strength, every famine demanding 1 food) so
the famine decision comes up for sure.
"""
from __future__ import annotations

import copy
from datetime import datetime, timedelta
from importlib import resources

import yaml
from test_end_to_end_mail import PLAYERS, ByMail, body

from referee.archive.record import replay
from referee.game_api.contract import Rng
from referee_games.nations_dice.actions import check_step


def strong_edition() -> dict:
    ed = yaml.safe_load(resources.files("referee_games.nations_dice").joinpath("default_edition.yaml").read_text("utf-8"))
    ed = copy.deepcopy(ed)
    ed["dice"]["white"]["faces"] = [{"strength": 1}] * 5 + [{"gold": 1}]
    ed["dice"]["white"]["source"] = "test edition"
    for e in ed["events"]:
        e["food"] = 1
    return ed


def legal_buy(state, player):
    for c, column in enumerate(state.d["board"]):
        for r, tid in enumerate(column):
            step = {"do": "buy", "tile": None, "column": c + 1, "row": r + 1, "pay": "auto", "trade": "none"}
            if tid and not check_step(state.d, state.ed, player, step):
                return {"buy": {"column": c + 1, "row": r + 1}}
    return {"reroll": "all"}


def test_whole_nations_match_by_mail(mailservers, tmp_path):
    s = mailservers
    spec = {"id": "e2e", "game": "nations_dice", "lang": "en", "gm": s.address("gm"),
            "schedule": {"period": "48h"}, "options": {"edition": strong_edition()},
            "players": [{"id": p, "name": p.title(), "email": s.address(p)} for p in PLAYERS]}
    m = ByMail(s, tmp_path, spec, "nations-e2e")
    clock, ref, service, table, keys, rules = m.clock, m.ref, m.service, m.table, m.keys, m.rules

    def state():
        return rules.load(ref.store.current_turn("e2e")["state"])

    def turn():
        return ref.store.current_turn("e2e")

    # -- turn 1: the start player's plan; its first step fails and falls through
    first = next(iter(turn()["awaiting"]))
    other = next(p for p in PLAYERS if p != first)
    assert all(x[2] is not None for x in state().d["p"][first]["dice"]), "rolled before the first action"
    assert all(x[2] is None for x in state().d["p"][other]["dice"]), "the other has not rolled yet"
    plan = [{"reroll": ["r9"]}, legal_buy(state(), first), "pass"]
    table.send(first, table.orders_mail(first, keys[first], 1, {"steps": plan}))
    service.poll_once()
    (receipt, text), = table.new_mail(first)
    assert "Step 1 cannot be carried out now" in text and "Step 2 would be carried out now" in text, text
    service.tick()
    assert turn()["number"] == 2
    (_, report), = table.new_mail(first)
    assert 'Your step "reroll r9" could not be carried out' in report
    (_, report_other), = table.new_mail(other)
    assert "reroll r9" not in report_other, "a failed step is told only to its player"
    assert f"{other.title()} rolls:" in report_other and "steps:" in report_other
    assert [s_["do"] for s_ in state().d["p"][first]["plan"]] == ["pass"]

    # -- turn 2: the other player misses the deadline: the default is pass
    assert turn()["awaiting"] == {other: "plan"}
    clock.now = datetime.fromisoformat(turn()["deadline"]) + timedelta(minutes=1)
    service.tick()
    used = yaml.safe_load((tmp_path / "turns" / "e2e" / "t002" / "orders.yaml").read_text())
    assert used[other]["source"] == "default"
    assert state().d["p"][other]["passed"] or state().d["age"] > 1
    for p in PLAYERS:
        table.new_mail(p)

    # -- the famine decision comes by mail (both pass, in every age, until it comes up)
    rng = Rng(5)
    decided = None
    for _ in range(30):
        t = turn()
        if ref.store.match("e2e")["status"] != "running":
            break
        st = state()
        for p, stage in sorted(t["awaiting"].items()):
            if stage == "famine" and decided is None:
                free = [x[0] for x in st.d["p"][p]["dice"] if not x[3]][:2]
                orders = {"trade": [free]}
                decided = p
            elif decided is None:
                orders = {"steps": ["pass"]} if stage == "plan" else rules.random_orders(st, p, rng)
            else:
                orders = rules.random_orders(st, p, rng)
            table.send(p, table.orders_mail(p, keys[p], t["number"], orders))
        service.poll_once()
        service.tick()
        if decided:
            break
    assert decided, "a famine decision came up"
    famine_turns = [yaml.safe_load(f.read_text()) for f in sorted((tmp_path / "turns" / "e2e").glob("t*/orders.yaml"))]
    assert any(o.get(decided, {}).get("orders", {}).get("trade") for o in famine_turns)

    # -- to the end with random plans
    for _ in range(200):
        t = turn()
        if ref.store.match("e2e")["status"] != "running" or t["status"] != "open":
            break
        st = state()
        for p in sorted(t["awaiting"]):
            table.send(p, table.orders_mail(p, keys[p], t["number"], rules.random_orders(st, p, rng)))
        service.poll_once()
        service.tick()
    assert ref.store.match("e2e")["status"] == "ended"
    final = body(s.messages(first)[-1])[1]
    assert "GAME OVER" in final
    assert replay(tmp_path / "turns" / "e2e").ok
