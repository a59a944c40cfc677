"""Issue 18, absence: ``command: absent`` with ``from:`` and ``until:``, bounded by
the match file; policy ``extend`` moves deadlines that fall in the absence past
it (everyone told), policy ``defaults`` plays the absent player's defaults
without counting them as missed turns; bad dates are refused and change nothing."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from seats_fixtures import seats_table, toy  # noqa: F401  (fixtures)

from referee.authority.matches.absence import past_absences
from referee.store import seats as seat_rows

# START is Monday 2 March 2026, 10:00 in Berlin; the first deadline Wednesday 4 March, 10:00 (48h)


def absent(t, player: str, start: str, until: str):
    return t.command(player, "absent", **{"from": start, "until": until})


def test_extend_moves_the_open_deadline_past_the_absence_and_tells_everyone(seats_table):
    t = seats_table(absence={"policy": "extend", "max_days": 7, "max_times": 2})
    before = t.deadline()
    assert absent(t, "ann", "2026-03-03", "2026-03-05").reason == "absent"
    after = t.deadline()
    local = after.astimezone(t.ref.lookups.timing(t.ref.store.match("toy1")).zone)
    assert (local.year, local.month, local.day, local.hour) == (2026, 3, 6, 10)   # same time, first day back
    assert after > before
    sent = t.mails()
    for reader in ("bob@example.org", "cyd@example.org", "gm@example.org"):
        assert any("Ann" in m and ("away" in m or "abwesend" in m) for m in sent[reader]), reader
    [reply] = [m for m in sent["ann@example.org"] if m.startswith("Re: [toy1] absent")]
    assert "The deadline moves past your absence" in reply
    # the turn does not close at the old deadline
    t.now = before + timedelta(hours=1)
    assert t.ref.tick().closed == []


def test_extend_moves_a_later_turns_deadline_when_it_opens(seats_table):
    t = seats_table(absence="extend")
    assert absent(t, "cyd", "2026-03-05", "2026-03-07").reason == "absent"
    assert t.deadline() == datetime.fromisoformat("2026-03-04T09:00:00+00:00")   # before the absence: it stays
    t.pass_deadline()   # closed on Wednesday: the next deadline, Friday 10:00, is in the absence
    zone = t.ref.lookups.timing(t.ref.store.match("toy1")).zone
    nxt = t.deadline().astimezone(zone)
    assert (nxt.day, nxt.hour) == (8, 10)   # Sunday, the first day back, at the usual time
    sent = t.mails()
    for reader in ("ann@example.org", "bob@example.org", "gm@example.org"):
        assert any("Cyd is away" in m or "Cyd ist abwesend" in m for m in sent[reader]), reader
    [told] = [m for m in sent["ann@example.org"] if "Cyd is away" in m]
    assert "from 2026-03-05 until 2026-03-07" in told and "turn 2 has moved" in told


def test_defaults_policy_plays_defaults_without_counting_a_missed_turn(seats_table):
    t = seats_table(absence="defaults", dropouts={"warn_after": 1, "abandon_after": 2})
    before = t.deadline()
    assert absent(t, "cyd", "2026-03-02", "2026-03-10").reason == "absent"
    assert t.deadline() == before
    for _ in range(2):
        t.bid("ann")
        t.bid("bob")
        t.pass_deadline()
    assert seat_rows.streaks(t.ref.store, "toy1").get("cyd", 0) == 0
    sent = t.mails()
    assert not any("in a row" in m for m in sent.get("cyd@example.org", []))
    orders = t.ref.store.turn("toy1", 1)["result"]["orders"]
    assert orders["cyd"]["source"] == "default"
    # the GM sees who is away
    t.command("gm", "status")
    assert "cyd (Cyd): 0 (absent until 2026-03-10 23:00 UTC)" in t.mails()["gm@example.org"][0]


@pytest.mark.parametrize(("start", "until", "reason"), [
    ("2026-03-05", "2026-03-04", "absence.order"),
    ("2026-02-27", "2026-03-04", "absence.past"),
    ("2026-02-30", "2026-03-04", "absence.bad_date"),
    ("tomorrow", "2026-03-04", "absence.bad_date"),
    ("'[2026, 3, 4]'", "2026-03-04", "absence.bad_date"),
    ("2026-03-03", "2026-03-04T10:00", "absence.bad_date"),
    ("2026-03-03", "2026-03-20", "absence.too_long"),
    ("9999-12-01", "9999-12-03", "absence.too_far"),
    ("2027-12-01", "2027-12-03", "absence.too_far"),
])
def test_bad_dates_are_refused_and_change_nothing(seats_table, start, until, reason):
    t = seats_table(absence={"policy": "extend", "max_days": 7})
    before = t.deadline()
    assert absent(t, "bob", start, until).reason == reason
    assert t.deadline() == before and seat_rows.absences(t.ref.store, "toy1") == []
    [refusal] = t.mails()["bob@example.org"]
    assert "Nicht angenommen" in refusal


def test_an_absence_needs_both_dates_and_a_match_that_allows_it(seats_table):
    t = seats_table()
    assert absent(t, "ann", "2026-03-03", "2026-03-04").reason == "absence.off"
    assert "takes no absences" in t.mails()["ann@example.org"][0]


def test_absences_per_match_are_capped(seats_table):
    t = seats_table(absence={"policy": "defaults", "max_days": 3, "max_times": 2})
    assert t.command("ann", "absent", until="2026-03-04").reason == "absence.needs"
    assert absent(t, "ann", "2026-03-03", "2026-03-04").reason == "absent"
    assert absent(t, "ann", "2026-03-10", "2026-03-11").reason == "absent"
    assert absent(t, "ann", "2026-03-20", "2026-03-21").reason == "absence.too_many"
    assert len(seat_rows.absences(t.ref.store, "toy1", "ann")) == 2


def test_a_deadline_in_two_absences_moves_past_both(seats_table):
    t = seats_table(absence={"policy": "extend", "max_days": 5})
    absent(t, "ann", "2026-03-03", "2026-03-05")
    absent(t, "bob", "2026-03-06", "2026-03-08")
    match = t.ref.store.match("toy1")
    zone = t.ref.lookups.timing(match).zone
    moved = past_absences(t.ref.store, match, datetime.fromisoformat("2026-03-04T09:00:00+00:00"), zone)
    assert moved.astimezone(zone).day == 9 and moved.astimezone(zone).hour == 10


def test_absence_in_the_match_file_is_checked(seats_table):
    from referee.authority.matches.spec_check import check_spec
    _, problems = check_spec({"id": "x", "game": "toybid", "gm": "g@x.org", "players": [],
                              "absence": {"policy": "later", "max_days": 0, "max_tims": 1}}, None)
    said = " ".join(problems)
    assert "absence.policy" in said and "absence.max_days" in said and "did you mean 'max_times'" in said
