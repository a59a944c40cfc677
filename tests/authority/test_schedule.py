"""Deadline arithmetic with an injected clock: DST, grace, early close, reminders, pauses."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
import yaml
from pydantic import ValidationError

from referee.authority.schedule import (
    Schedule,
    extend,
    format_deadline,
    format_duration,
    format_local,
    format_utc,
    parse_duration,
    shift_for_pause,
)

BERLIN = ZoneInfo("Europe/Berlin")
UTC = UTC
H = timedelta(hours=1)


def berlin(*args) -> datetime:
    return datetime(*args, tzinfo=BERLIN)


def local(moment: datetime, fmt: str) -> str:
    return moment.astimezone(BERLIN).strftime(fmt)


def sched(**kw) -> Schedule:
    return Schedule.model_validate({"timezone": "Europe/Berlin", **kw})


# -- wall clock across DST -----------------------------------------------------------
def test_weekly_sunday_deadline_stays_at_20_00_through_spring_and_autumn():
    s = sched(first_deadline="2026-03-22 20:00", period="7d")
    spring = [s.deadline_for(n) for n in (1, 2)]
    assert [local(d, "%H:%M %Z") for d in spring] == ["20:00 CET", "20:00 CEST"]
    assert spring[1] - spring[0] == timedelta(days=7) - H     # 167 real hours
    a = sched(first_deadline="2026-10-18 20:00", period="1w")
    autumn = [a.deadline_for(n) for n in (1, 2)]
    assert [d.astimezone(UTC).hour for d in autumn] == [18, 19]
    assert autumn[1] - autumn[0] == timedelta(days=7) + H


def test_24h_means_wall_clock_days():
    s = sched(first_deadline="2026-03-28 20:00", period="24h")
    d1, d2, d3 = (s.deadline_for(n) for n in (1, 2, 3))
    assert (d2 - d1, d3 - d2) == (23 * H, 24 * H)
    assert {local(d, "%H:%M") for d in (d1, d2, d3)} == {"20:00"}
    autumn = sched(first_deadline="2026-10-24 20:00", period="24h")
    assert autumn.deadline_for(2) - autumn.deadline_for(1) == 25 * H


def test_36h_means_elapsed_time():
    s = sched(first_deadline="2026-03-28 20:00", period="36h")
    d2 = s.deadline_for(2)
    assert d2 - s.deadline_for(1) == 36 * H
    assert local(d2, "%H:%M %Z") == "09:00 CEST"   # the wall clock moved, the duration did not


def test_a_deadline_in_the_spring_gap_moves_forward_by_the_gap():
    s = sched(first_deadline="2026-03-22 02:30", weekdays=["sun"], time="02:30")
    gap = s.deadline_for(2)
    assert local(gap, "%Y-%m-%d %H:%M %Z") == "2026-03-29 03:30 CEST"
    assert gap.astimezone(UTC).strftime("%H:%M") == "01:30"
    assert local(s.deadline_for(3), "%H:%M %Z") == "02:30 CEST"   # the next week is back on 02:30


def test_daily_period_returns_to_its_time_after_the_gap():
    s = sched(first_deadline="2026-03-28 02:30", period="1d")
    d2 = s.deadline_for(2)
    assert local(d2, "%d %H:%M") == "29 03:30"
    assert local(s.next_deadline(d2, d2), "%d %H:%M %Z") == "30 02:30 CEST"


def test_a_time_that_happens_twice_means_the_first():
    s = sched(first_deadline="2026-10-18 02:30", weekdays=["sun"], time="02:30")
    twice = s.deadline_for(2)
    assert local(twice, "%Y-%m-%d %H:%M %Z") == "2026-10-25 02:30 CEST"
    assert twice.astimezone(UTC).strftime("%H:%M") == "00:30"


def test_weekdays_and_time():
    s = sched(first_deadline="2026-03-23 20:00", weekdays=["Mo", "donnerstag"], time="20:00")
    got = [local(s.deadline_for(n), "%a %d %H:%M") for n in range(1, 6)]
    assert got == ["Mon 23 20:00", "Thu 26 20:00", "Mon 30 20:00", "Thu 02 20:00", "Mon 06 20:00"]


# -- after a turn closes -----------------------------------------------------------
def test_next_deadline_on_time_late_and_early():
    s = sched(first_deadline="2026-03-02 20:00", period="48h")
    deadline = s.first()
    assert s.next_deadline(deadline, deadline) == berlin(2026, 3, 4, 20)
    # a tick that runs 3 minutes late (or a grace close) does not drift the schedule
    assert s.next_deadline(deadline + timedelta(minutes=3), deadline) == berlin(2026, 3, 4, 20)
    # closed early: the next turn counts from the close, rounded up to the minute
    early = berlin(2026, 3, 1, 9, 14, 30)
    assert s.next_deadline(early, deadline) == berlin(2026, 3, 3, 9, 15)


def test_weekday_schedule_gives_every_turn_at_least_min_turn():
    s = sched(first_deadline="2026-03-23 20:00", weekdays="mon thu", time="20:00", min_turn="12h")
    assert s.next_deadline(berlin(2026, 3, 23, 20), berlin(2026, 3, 23, 20)) == berlin(2026, 3, 26, 20)
    assert s.next_deadline(berlin(2026, 3, 26, 10), berlin(2026, 3, 26, 20)) == berlin(2026, 3, 30, 20)
    assert s.next_deadline(berlin(2026, 3, 25, 7), berlin(2026, 3, 26, 20)) == berlin(2026, 3, 26, 20)


def test_opening_deadline():
    now = berlin(2026, 3, 20, 12)
    assert sched(period="48h").opening_deadline(now) == berlin(2026, 3, 22, 12)
    assert sched(first_deadline="2026-03-25 20:00", period="48h").opening_deadline(now) == berlin(2026, 3, 25, 20)
    weekly = sched(weekdays=["fri"], time="20:00")
    assert weekly.opening_deadline(now) == berlin(2026, 3, 27, 20)   # today's 20:00 is under 12h away


# -- closing, grace, early close -------------------------------------------------------
def test_close_due():
    s = sched(first_deadline="2026-03-02 20:00", period="48h", grace="2h")
    d = s.first()
    before, in_grace, after = d - H, d + H, d + 2 * H
    assert s.close_due(d, before, all_in=False) is None
    assert s.close_due(d, before, all_in=True) == "early"
    assert s.close_due(d, before, all_in=True, waiting=True) is None       # someone asked to wait
    assert s.close_due(d, in_grace, all_in=False) is None                  # grace for the late ones
    assert s.close_due(d, in_grace, all_in=True, waiting=True) == "complete"  # wait ends at the deadline
    assert s.close_due(d, after, all_in=False) == "deadline"
    assert s.accepts_orders(d, in_grace) and not s.accepts_orders(d, after)
    assert s.is_late(d, in_grace) and not s.is_late(d, before)


def test_early_close_off_waits_for_the_deadline():
    s = sched(first_deadline="2026-03-02 20:00", period="48h", early_close=False)
    d = s.first()
    assert s.close_due(d, d - H, all_in=True) is None
    assert s.close_due(d, d, all_in=False) == "deadline"


# -- reminders ---------------------------------------------------------------------------
def test_reminders_fall_due_once_each():
    s = sched(first_deadline="2026-03-02 20:00", period="48h", reminders=["2h", "24h"])
    d = s.first()
    assert s.due_reminders(d, d - 25 * H) == []
    assert s.due_reminders(d, d - 24 * H) == [24 * H]
    assert s.due_reminders(d, d - 3 * H, already_sent=["24h"]) == []
    assert s.due_reminders(d, d - H, already_sent=[24 * H]) == [2 * H]
    assert s.due_reminders(d, d, already_sent=[]) == []            # at the deadline: too late
    assert s.due_reminders(d, d - H) == [24 * H, 2 * H]            # after downtime both are due
    assert s.next_reminder(d, already_sent=["24h"]) == d - 2 * H


def test_reminder_before_the_turn_opened_is_skipped():
    s = sched(first_deadline="2026-03-02 20:00", period="6h", reminders=["24h", "2h"])
    d = s.first()
    opened = d - 6 * H
    assert s.due_reminders(d, opened, opened_at=opened) == []
    assert s.due_reminders(d, d - H, opened_at=opened) == [2 * H]
    assert s.next_reminder(d, opened_at=opened) == d - 2 * H


# -- pause, resume, extend ---------------------------------------------------------------
def test_pause_and_resume_shift_the_deadline_and_what_follows():
    s = sched(first_deadline="2026-03-02 20:00", period="48h", reminders=["2h"])
    d = s.first()
    paused, resumed = d - 10 * H, d + 3 * 24 * H
    shifted = s.resume(d, paused, resumed)
    assert shifted == shift_for_pause(d, paused, resumed) == d + (resumed - paused)
    assert shifted - resumed == 10 * H                       # the time left is kept
    assert s.due_reminders(shifted, resumed + 8 * H) == [2 * H]
    assert s.next_deadline(shifted, shifted) == shifted + 48 * H
    with pytest.raises(ValueError):
        shift_for_pause(d, resumed, paused)


def test_pause_over_a_dst_change_keeps_the_real_time_left():
    d = berlin(2026, 3, 28, 20)
    shifted = shift_for_pause(d, berlin(2026, 3, 28, 10), berlin(2026, 3, 29, 10))
    assert shifted - berlin(2026, 3, 29, 10) == 10 * H
    assert shifted.astimezone(BERLIN).strftime("%H:%M") == "20:00"   # 24 real hours later, CET -> CEST


def test_extend():
    d = berlin(2026, 3, 2, 20)
    assert extend(d, "1d12h") == d + 36 * H
    assert extend(d, 2) == d + 2 * H
    with pytest.raises(ValueError):
        extend(d, "0h")


# -- reading a match file -------------------------------------------------------------
def test_match_file_schedule_from_plain_pyyaml():
    # yaml.safe_load is YAML 1.1: 20:00 is the integer 1200 and the date a datetime.
    data = yaml.safe_load("timezone: Europe/Berlin\nfirst_deadline: 2026-03-23 20:00\n"
                          "weekdays: [mon, thu]\ntime: 20:00\ngrace: 2h\nreminders: [24h, 2h]\nearly_close: no\n")
    s = Schedule.model_validate(data)
    assert s.time.strftime("%H:%M") == "20:00"
    assert s.first() == berlin(2026, 3, 23, 20)
    assert s.reminders == (24 * H, 2 * H) and s.grace == 2 * H and s.early_close is False


def test_iso_with_offset_and_round_trip():
    s = sched(first_deadline="2026-03-23T19:00:00+00:00", period="PT36H", reminders="12h")
    assert s.first() == berlin(2026, 3, 23, 20) and s.period == 36 * H
    assert Schedule.model_validate(s.model_dump(mode="json")) == s


@pytest.mark.parametrize("bad, words", [
    ({"period": "48h", "weekdays": ["mon"], "time": "20:00"}, "either"),
    ({"first_deadline": "2026-03-23 20:00"}, "either"),
    ({"period": "48h", "timezone": "Mars/Olympus"}, "unknown time zone"),
    ({"weekdays": ["mon", "caturday"], "time": "20:00"}, "caturday"),
    ({"period": "soon"}, "duration"),
    ({"weekdays": ["mon"], "time": "25:99"}, "hour must be"),
    ({"period": "48h", "reminders": ["-2h"]}, "duration"),
    ({"period": "48h", "first_deadline": "next monday"}, "first_deadline"),
    ({"period": "48h", "colour": "red"}, "colour"),
    ({"weekdays": ["mon"]}, "'time'"),
])
def test_bad_schedules_are_refused_with_a_reason(bad, words):
    with pytest.raises(ValidationError) as err:
        Schedule.model_validate({"timezone": "Europe/Berlin", **bad})
    assert words in str(err.value)


def test_durations():
    assert parse_duration("1d12h") == 36 * H
    assert parse_duration("90m") == timedelta(minutes=90)
    assert parse_duration("2w") == timedelta(days=14)
    assert parse_duration("P7D") == timedelta(days=7)
    assert parse_duration("01:30:00") == timedelta(minutes=90)
    assert parse_duration(1.5) == timedelta(minutes=90)


# -- deadlines as text -----------------------------------------------------------------
def test_deadline_texts_in_english_and_german():
    d = berlin(2026, 3, 29, 20)
    assert format_local(d, BERLIN, "en") == "Sunday, 29 March 2026, 20:00 CEST"
    assert format_local(d, "Europe/Berlin", "de") == "Sonntag, 29. März 2026, 20:00 Uhr MESZ"
    assert format_utc(d, "de") == "Sonntag, 29. März 2026, 18:00 Uhr UTC"
    assert format_deadline(berlin(2026, 12, 1, 0, 30), BERLIN, "de") == \
        "Dienstag, 1. Dezember 2026, 00:30 Uhr MEZ (Montag, 30. November 2026, 23:30 Uhr UTC)"
    assert format_deadline(d, BERLIN, "en") == "Sunday, 29 March 2026, 20:00 CEST (18:00 UTC)"


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError):
        format_utc(datetime(2026, 3, 29, 18))
    with pytest.raises(ValueError):
        sched(period="48h").next_deadline(datetime(2026, 3, 29, 18))


def test_zones_without_letters_show_their_offset():
    d = datetime(2026, 3, 29, 18, tzinfo=UTC)
    assert format_local(d, "America/Sao_Paulo", "en") == "Sunday, 29 March 2026, 15:00 UTC-03:00"


def test_durations_as_words():
    assert format_duration(timedelta(days=2, hours=3, minutes=5), "de") == "2 Tage und 3 Stunden"
    assert format_duration(timedelta(days=1, minutes=1), "en") == "1 day and 1 minute"
    assert format_duration(timedelta(seconds=20), "de") == "weniger als eine Minute"
