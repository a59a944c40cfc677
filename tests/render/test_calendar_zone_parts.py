"""The deadline calendar writes a zone's VTIMEZONE once per window (referee/render/calendar.py):
a calendar with the kept text is the text icalendar writes whole (``add_missing_timezones``
over the same window), the kept texts stay few, and hostile titles read back as given."""
from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from referee.render import calendar


def test_a_calendar_with_the_kept_zone_part_is_the_calendar_made_afresh():
    cases = [dict(match_id="m1", title="Länder <&> \"x\"", turn=4, zone=zone, organizer="referee@x.test", domain="x.test",
                  deadline=datetime(2026, 3, 27, 9, tzinfo=UTC) + timedelta(days=day), lang=lang, ended=ended,
                  issued=datetime(2026, 3, 25, 9, tzinfo=UTC))
             for zone, lang, ended, day in itertools.product(
                 ["Europe/Berlin", "UTC", "America/St_Johns", "Australia/Lord_Howe"], ["en", "de"], [False, True],
                 [0, 2, 190])]
    whole = [icalendars_whole(case) for case in cases]
    assert any("BEGIN:VTIMEZONE" in w for w in whole) and any("BEGIN:VTIMEZONE" not in w for w in whole)
    for case, text in zip(cases, whole):
        calendar._zone_text.cache_clear()
        assert calendar.deadline_ics(**case) == text == calendar.deadline_ics(**case)   # the second from the kept text


def icalendars_whole(case: dict) -> str:
    """The calendar as icalendar writes it with the zone's VTIMEZONE added by icalendar itself."""
    cal = Calendar.from_ical(calendar.deadline_ics(**dict(case, zone="UTC")))
    event = cal.walk("VEVENT")[0]
    start = case["deadline"].astimezone(ZoneInfo(case["zone"]))
    for name, value in (("DTSTART", start), ("DTEND", start + calendar.LENGTH)):
        del event[name]
        event.add(name, value)
    cal.add_missing_timezones(first_date=(start - timedelta(days=400)).date(),
                              last_date=(start + timedelta(days=400)).date())
    return cal.to_ical().decode("utf-8")


def test_the_kept_zone_parts_stay_few():
    start = datetime(2026, 1, 1, 9, tzinfo=UTC)
    for day in range(100):
        calendar.deadline_ics(match_id="m", title="t", turn=1, deadline=start + timedelta(days=day), zone="Europe/Berlin",
                              organizer="r@x.test", domain="x.test", issued=start)
    assert 0 < calendar._zone_text.cache_info().currsize <= 64


@pytest.mark.parametrize("title", ["Länder, Städte; Dörfer", "a" * 30 + ",;" * 20, "é" * 90, "back\\slash",
                                   "line\nbreak", "Tom & Jerry's <b>\"x\"", "日本語のタイトル" * 6])
def test_hostile_titles_read_back_as_given(title):
    text = calendar.deadline_ics(match_id="m1", title=title, turn=2, zone="Europe/Berlin", organizer="r@x.test",
                                 domain="x.test", deadline=datetime(2026, 3, 27, 9, tzinfo=UTC),
                                 issued=datetime(2026, 3, 25, 9, tzinfo=UTC))
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    event = Calendar.from_ical(text).walk("VEVENT")[0]
    assert str(event["SUMMARY"]) == f"Deadline: {title}, turn 2"
