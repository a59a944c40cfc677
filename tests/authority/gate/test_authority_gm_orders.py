"""A game may await the GM's own orders (stage for "@gm"); the GM sends them
by mail like a player, with the GM key; and a mail too broken to name its
match is answered in the language of the sender's match."""
from __future__ import annotations

import yaml
from referee_kit import clock, game, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.game_api.contract import Rng

RATS = {"id": "rat1", "game": "perricumer_ratsspiel", "gm": "gm@example.org", "language": "de",
        "timezone": "Europe/Berlin", "options": {"gm_orders": True}, "schedule": {"period": "7d"},
        "players": [{"id": "alrik", "name": "Alrik", "email": "alrik@example.org"}]}


def gm_mail(gm_key: str, turn: int, orders: dict) -> str:
    return yaml.safe_dump({"match": "rat1", "player": "@gm", "key": gm_key, "turn": turn, "orders": orders})


def test_gm_orders_are_taken_when_the_game_awaits_the_gm(ref, outbox, tmp_path):
    created = ref.create_match(RATS, seed="gm-orders")
    welcome = to(outbox.flush(), "alrik@example.org")[0]
    key = [ln.split(":", 1)[1].strip() for ln in text_of(welcome).splitlines() if ln.strip().startswith("key:")][0]
    turn = ref.store.current_turn("rat1")
    assert turn["awaiting"].get("@gm") == "gm"
    rules = ref.rules(ref.store.match("rat1"))
    state = rules.load(turn["state"])
    mine = rules.random_orders(state, "alrik", Rng(1))
    ref.handle(inbound("alrik@example.org", yaml.safe_dump(
        {"match": "rat1", "player": "alrik", "key": key, "turn": 1, "orders": mine})))
    ref.tick()
    assert ref.store.current_turn("rat1")["number"] == 1, "the turn waits for the GM's orders"

    wrong = ref.handle(inbound("gm@example.org", gm_mail("NOPE-NOPE-NOPE", 1, {})))
    assert wrong.outcome == "refused"
    done = ref.handle(inbound("gm@example.org", gm_mail(created.gm_key, 1, {"agenda_veroeffentlichen": []})))
    assert done.outcome == "processed", done
    reply = to(outbox.flush(), "gm@example.org")[-1]
    assert "angenommen" in reply["Subject"]
    ref.tick()  # everyone awaited is in: early close
    assert ref.store.current_turn("rat1")["number"] == 2
    used = yaml.safe_load((tmp_path / "turns" / "rat1" / "t001" / "orders.yaml").read_text())
    assert used["@gm"]["source"] == "player" and used["alrik"]["source"] == "player"


def test_gm_orders_are_refused_when_the_game_does_not_await_the_gm(ref, outbox):
    spec = dict(RATS, options={})
    created = ref.create_match(spec, seed="no-gm-orders")
    outbox.flush()
    answer = ref.handle(inbound("gm@example.org", gm_mail(created.gm_key, 1, {"agenda_veroeffentlichen": []})))
    assert answer.outcome == "refused"
    assert "rat1" in to(outbox.flush(), "gm@example.org")[-1]["Subject"]


def test_unreadable_mail_is_answered_in_the_language_of_the_senders_match(ref, outbox):
    ref.create_match(dict(RATS, options={}), seed="lang")
    outbox.flush()
    ref.handle(inbound("alrik@example.org", "match: rat1\nplayer: [unclosed\n"))
    reply = to(outbox.flush(), "alrik@example.org")[-1]
    assert "Nicht angenommen" in reply["Subject"]
    ref.handle(inbound("stranger@example.org", "match: rat1\nplayer: [unclosed\n"))
    # a stranger gets the short fixed answer in both languages, which names no match
    reply = to(outbox.flush(), "stranger@example.org")[-1]
    assert reply["Subject"] == "Not accepted / Nicht angenommen" and "rat1" not in text_of(reply)
