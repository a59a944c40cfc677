"""Issue #10: orders that arrive in the grace period are answered saying they came
late and were taken, with the end of the grace period, in English and German; not
"you may send new orders until <the deadline that has passed>"."""
from __future__ import annotations

import re

import pytest
from referee_kit import SPEC, clock, game, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)


@pytest.fixture
def keys(ref, outbox):
    ref.create_match(SPEC)
    return {m["To"].split("@")[0]: re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m)).group(1)
            for m in outbox.flush() if m["To"].split("@")[0] in ("ann", "bob", "cyd")}   # not the GM's or the observer's welcome


def bid(p, key, v=1):
    return f"match: toy1\nplayer: {p}\nkey: {key}\nturn: 1\norders:\n  bid: {v}\n"


def test_orders_in_grace_are_answered_as_late_and_taken_in_both_languages(ref, outbox, keys, clock):
    clock.advance(hours=48, minutes=10)      # past the deadline (Wed 10:00 CET), inside the 30 min grace
    assert ref.handle(inbound("ann@example.org", bid("ann", keys["ann"]))).reason == "accepted"
    assert ref.handle(inbound("bob@example.org", bid("bob", keys["bob"]))).reason == "accepted"
    sent = outbox.flush()
    [ann], [bob] = to(sent, "ann@example.org"), to(sent, "bob@example.org")
    en, de = (" ".join(text_of(m).split()) for m in (ann, bob))   # wrapped lines read as one
    assert ann["Subject"].startswith("Re: [toy1] Late orders accepted for turn 1")
    assert "came after the deadline (Wednesday, 4 March 2026, 10:00 CET), within the grace period" in en
    assert "taken as if on time" in en and "grace period ends Wednesday, 4 March 2026, 10:30 CET" in en
    assert "send new orders until the deadline" not in en and "Deadline:" not in en
    assert "closes when the grace period ends, or earlier once all orders are in" in en
    assert bob["Subject"].startswith("Re: [toy1] Verspätete Befehle für Zug 1 angenommen")
    assert "nach dem Abgabeschluss (Mittwoch, 4. März 2026, 10:00 Uhr MEZ), aber in der Nachfrist" in de
    assert "Die Nachfrist endet Mittwoch, 4. März 2026, 10:30 Uhr MEZ" in de
    assert "Bis zum Abgabeschluss kannst du" not in de and "Abgabeschluss:" not in de


def test_the_last_orders_in_grace_say_the_turn_closes_now(ref, outbox, keys, clock):
    ref.handle(inbound("ann@example.org", bid("ann", keys["ann"])))
    ref.handle(inbound("bob@example.org", bid("bob", keys["bob"])))
    outbox.flush()
    clock.advance(hours=48, minutes=5)
    assert ref.handle(inbound("cyd@example.org", bid("cyd", keys["cyd"]))).reason == "accepted"
    [cyd] = to(outbox.flush(), "cyd@example.org")
    assert "Everyone's orders are in." in text_of(cyd)
    assert "closes now, without waiting for the end of the grace period" in text_of(cyd)


def test_orders_in_time_still_name_the_deadline(ref, outbox, keys, clock):
    clock.advance(hours=47)
    assert ref.handle(inbound("ann@example.org", bid("ann", keys["ann"]))).reason == "accepted"
    [ann] = to(outbox.flush(), "ann@example.org")
    assert ann["Subject"].startswith("Re: [toy1] Orders accepted")
    assert "You may send new orders until the deadline" in text_of(ann) and "grace" not in text_of(ann)
