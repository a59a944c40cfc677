"""Deadlines through the authority with an injected clock: reminders, grace, DST."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from referee_kit import SPEC, Clock, Outbox, inbound, make_referee, text_of, to
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


@pytest.fixture
def keys(ref, outbox):
    ref.create_match(SPEC)
    return {m["To"].split("@")[0]: re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m)).group(1)
            for m in outbox.flush() if m["To"].split("@")[0] in ("ann", "bob", "cyd")}   # not the GM's or the observer's welcome


def bid(p, key, v=1, turn=1):
    return f"match: toy1\nplayer: {p}\nkey: {key}\nturn: {turn}\norders:\n  bid: {v}\n"


def test_reminders_go_once_each_to_those_still_out(ref, outbox, keys, clock):
    ref.handle(inbound("ann@example.org", bid("ann", keys["ann"])))
    outbox.flush()
    clock.advance(hours=35)          # 13h before the deadline: nothing yet
    assert ref.tick().reminded == 0
    clock.advance(hours=2)           # 11h before: the 12h reminder, to bob and cyd only
    assert ref.tick().reminded == 2
    assert ref.tick().reminded == 0  # a second tick sends nothing more
    sent = outbox.flush()
    assert {m["To"] for m in sent} == {"bob@example.org", "cyd@example.org"}
    assert "Erinnerung" in to(sent, "bob@example.org")[0]["Subject"]
    clock.advance(hours=10)          # 1h before: the 2h reminder
    assert ref.tick().reminded == 2


def test_a_late_tick_sends_only_the_latest_reminder(ref, outbox, keys, clock):
    clock.advance(hours=47)          # both the 12h and the 2h moments have passed
    assert ref.tick().reminded == 3
    assert len(outbox.flush()) == 3


def test_orders_in_grace_count_and_complete_closes_then(ref, outbox, keys, clock):
    ref.handle(inbound("ann@example.org", bid("ann", keys["ann"], 2)))
    ref.handle(inbound("bob@example.org", bid("bob", keys["bob"], 3)))
    clock.advance(hours=48, minutes=10)      # past the deadline, inside the 30 min grace
    assert ref.tick().closed == []
    assert ref.handle(inbound("cyd@example.org", bid("cyd", keys["cyd"], 4))).reason == "accepted"
    assert ref.tick().closed == [("toy1", 1)]
    assert ref.store.turn("toy1", 1)["result"]["missing"] == []


def test_daily_deadline_keeps_its_berlin_wall_time_across_dst(tmp_path):
    clock = Clock(datetime(2026, 3, 27, 12, 0, tzinfo=UTC))
    ref = make_referee(tmp_path, clock)
    spec = dict(SPEC, schedule={"first_deadline": "2026-03-28 20:00", "period": "1d"}, options={"rounds": 3})
    ref.create_match(spec)
    berlin = ZoneInfo("Europe/Berlin")
    seen = []
    for _ in range(2):
        deadline = datetime.fromisoformat(ref.store.current_turn("toy1")["deadline"])
        seen.append(deadline.astimezone(berlin))
        clock.t = deadline.replace(minute=1)
        assert ref.tick().closed
    seen.append(datetime.fromisoformat(ref.store.current_turn("toy1")["deadline"]).astimezone(berlin))
    assert [d.strftime("%d %H:%M %Z") for d in seen] == ["28 20:00 CET", "29 20:00 CEST", "30 20:00 CEST"]
    outbox = Outbox(ref, tmp_path / "out")
    assert any("20:00 CEST" in text_of(m) for m in outbox.flush() if "Report" in m["Subject"])


def test_overview_and_next_due(ref, outbox, keys, clock):
    ref.handle(inbound("ann@example.org", bid("ann", keys["ann"])))
    [row] = ref.overview()
    assert row["id"] == "toy1" and row["turn"] == 1 and row["awaiting"] == ["bob", "cyd"] and row["in"] == ["ann"]
    assert "CET" in row["deadline"]
    # the 12h reminder comes first: 36h after the start
    assert ref.next_due() == clock() + timedelta(hours=36)
