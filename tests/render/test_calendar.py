"""The next deadline as an RFC 5545 calendar part: read back with icalendar."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from icalendar import Calendar

from referee.render.calendar import deadline_ics, uid_of

BASE = dict(match_id="ff-winter", title="Founding Fathers", zone="Europe/Berlin", organizer="referee@example.org",
            domain="example.org", lang="en")
ISSUED = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
DEADLINE = datetime(2026, 3, 5, 19, 0, tzinfo=UTC)      # 20:00 in Berlin


def event_of(text: str):
    cal = Calendar.from_ical(text)
    events = cal.walk("VEVENT")
    assert len(events) == 1
    return cal, events[0]


def test_the_deadline_stands_in_the_matchs_zone_with_its_timezone_block():
    cal, ev = event_of(deadline_ics(**BASE, turn=3, deadline=DEADLINE, issued=ISSUED))
    start = ev.decoded("dtstart")
    assert start == DEADLINE and start.tzinfo.key == "Europe/Berlin" and start.hour == 20
    assert [tz["TZID"] for tz in cal.walk("VTIMEZONE")] == ["Europe/Berlin"]
    assert "DTSTART;TZID=Europe/Berlin:20260305T200000" in deadline_ics(**BASE, turn=3, deadline=DEADLINE, issued=ISSUED)
    assert str(ev["summary"]) == "Deadline: Founding Fathers, turn 3"


def test_a_summer_deadline_keeps_its_wall_clock_time():
    summer = datetime(2026, 7, 2, 18, 0, tzinfo=UTC)       # 20:00 CEST
    _, ev = event_of(deadline_ics(**BASE, turn=9, deadline=summer, issued=ISSUED))
    assert ev.decoded("dtstart").astimezone(ZoneInfo("Europe/Berlin")).hour == 20


def test_the_reminder_fires_the_schedules_offset_before():
    _, ev = event_of(deadline_ics(**BASE, turn=3, deadline=DEADLINE, issued=ISSUED, reminder=timedelta(hours=12)))
    alarm = ev.walk("VALARM")[0]
    assert alarm.decoded("trigger") == -timedelta(hours=12) and str(alarm["action"]) == "DISPLAY"
    assert "12 h" in str(alarm["description"])


def test_a_moved_deadline_keeps_the_uid_and_raises_the_sequence():
    _, first = event_of(deadline_ics(**BASE, turn=3, deadline=DEADLINE, issued=ISSUED))
    _, moved = event_of(deadline_ics(**BASE, turn=3, deadline=DEADLINE + timedelta(days=1),
                                     issued=ISSUED + timedelta(minutes=5)))
    assert str(first["uid"]) == str(moved["uid"]) == uid_of("ff-winter", "example.org")
    assert int(moved["sequence"]) > int(first["sequence"])
    assert moved.decoded("dtstart") - first.decoded("dtstart") == timedelta(days=1)


def test_the_end_of_the_match_cancels_the_entry():
    _, ev = event_of(deadline_ics(**BASE, turn=None, deadline=None, issued=ISSUED + timedelta(days=9), ended=True))
    assert str(ev["status"]) == "CANCELLED" and not ev.walk("VALARM")
    assert str(ev["uid"]) == uid_of("ff-winter", "example.org")


def test_german_words_and_rfc_lines():
    text = deadline_ics(**{**BASE, "lang": "de"}, turn=3, deadline=DEADLINE, issued=ISSUED, reminder=timedelta(hours=2))
    _, ev = event_of(text)
    assert str(ev["summary"]) == "Abgabeschluss: Founding Fathers, Zug 3"
    lines = text.split("\r\n")
    assert text.endswith("\r\n") and all(len(line.encode()) <= 75 for line in lines)
