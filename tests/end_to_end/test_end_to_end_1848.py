"""A whole 1848 match by mail through a real Dovecot and a real SMTP server:
a plan of several steps of which one falls through, a push, the draw choice,
a missed deadline, then random plans to the end (clock simulated)."""
from __future__ import annotations

from datetime import datetime, timedelta

import yaml
from test_end_to_end_mail import ByMail

from referee.archive.record import replay
from referee.game_api.contract import Rng

PLAYERS = ("alice", "bob")


def _persons(hand):
    return [c for c in hand if c.startswith("PE")]


def test_whole_1848_match_by_mail(mailservers, tmp_path):
    s = mailservers
    spec = {"id": "e2e", "game": "revolution_1848", "lang": "de", "gm": s.address("gm"),
            "timezone": "Europe/Berlin", "schedule": {"period": "48h"},
            "players": [{"id": p, "name": p.title(), "email": s.address(p)} for p in PLAYERS]}
    m = ByMail(s, tmp_path, spec, "e2e-1848-seed")
    clock, ref, service, table, keys, rules = m.clock, m.ref, m.service, m.table, m.keys, m.rules

    def state():
        return rules.load(ref.store.current_turn("e2e")["state"])

    def turn_no():
        return ref.store.current_turn("e2e")["number"]

    # -- trick 1: alice's plan: a step that falls through, a person, a push, then ask --
    st = state()
    assert rules.awaiting(st) == {"alice": "trick", "bob": "trick"}
    a_hand, b_hand = st.d["hands"]["alice"], st.d["hands"]["bob"]
    a_person, b_person = _persons(a_hand)[0], _persons(b_hand)[0]
    a_push = next(c for c in a_hand if c != a_person)
    plan_a = {"steps": [{"play": a_person, "if": {"answered": "army"}}, {"play": a_person},
                        {"push": a_push}, "ask"]}
    _, msgid = table.send("alice", table.orders_mail("alice", keys["alice"], 1, plan_a))
    service.poll_once()
    (receipt, text), = table.new_mail("alice")
    assert receipt["In-Reply-To"] == msgid
    table.send("bob", table.orders_mail("bob", keys["bob"], 1, {"steps": [{"play": b_person}, "pass"]}))
    service.poll_once()
    table.new_mail("bob")
    service.tick()
    assert turn_no() == 2
    reports = {p: table.new_mail(p)[0] for p in PLAYERS}
    a_text = reports["alice"][1]
    assert f"Dein Plan überspringt: play: {a_person}" in a_text and "noch niemand hat mit army geantwortet" in a_text
    assert "Dein Plan steht auf „ask“" in a_text and "Dein Plan" not in reports["bob"][1]
    assert "Alice schiebt eine" in a_text and "Deine Befehle für Zug 2: ausfüllen" in a_text
    assert f"Du hast {a_push}" in a_text and f"Du hast {a_push}" not in reports["bob"][1]
    assert rules.awaiting(state()) == {"alice": "trick"}
    assert state().d["zusatz_deck" if a_push.startswith("Z") else "persons_deck"][0] == a_push

    # -- alice passes: the trick ends, bob (3 cards) owes the draw choice ----------
    table.send("alice", table.orders_mail("alice", keys["alice"], 2, {"steps": ["pass"]}))
    service.poll_once()
    table.new_mail("alice")
    service.tick()
    assert turn_no() == 3 and rules.awaiting(state()) == {"bob": "draw"}
    for p in PLAYERS:
        table.new_mail(p)
    before = len(state().d["hands"]["bob"])
    table.send("bob", table.orders_mail("bob", keys["bob"], 3, {"draw": "zusatz"}))
    service.poll_once()
    table.new_mail("bob")
    service.tick()
    assert turn_no() == 4 and len(state().d["hands"]["bob"]) == before + 1
    for p in PLAYERS:
        table.new_mail(p)

    # -- trick 2: bob misses the deadline and passes by default -----------------------
    st = state()
    table.send("alice", table.orders_mail("alice", keys["alice"], 4, {"steps": [{"play": _persons(st.d["hands"]["alice"])[0]}, "pass"]}))
    service.poll_once()
    table.new_mail("alice")
    clock.now = datetime.fromisoformat(ref.store.current_turn("e2e")["deadline"]) + timedelta(minutes=1)
    service.tick()
    used = yaml.safe_load((tmp_path / "turns" / "e2e" / "t004" / "orders.yaml").read_text())
    assert used["bob"]["source"] == "default" and used["alice"]["source"] == "player"

    # -- to the end with random plans ---------------------------------------------
    rng = Rng(11)
    for _ in range(400):
        match, turn = ref.store.match("e2e"), ref.store.current_turn("e2e")
        if match["status"] != "running" or turn["status"] != "open":
            break
        clock.now += timedelta(minutes=5)   # under the referee's limit of 30 mails an hour
        for p in sorted(turn["awaiting"]):
            table.send(p, table.orders_mail(p, keys[p], turn["number"], rules.random_orders(state(), p, rng)))
        service.poll_once()
        service.tick()
    assert ref.store.match("e2e")["status"] == "ended"
    assert replay(tmp_path / "turns" / "e2e").ok
