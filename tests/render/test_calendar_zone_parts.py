"""The deadline calendar makes a zone's VTIMEZONE once per window (referee/render/calendar.py):
a calendar built with the kept component is the same text as one built with a fresh one,
the zone named before the event, and the kept components stay few; hostile titles read
back from the calendar as they were given."""
from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

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
    fresh = []
    for case in cases:
        calendar._zone_part.cache_clear()
        fresh.append(calendar.deadline_ics(**case))
    assert any("BEGIN:VTIMEZONE" in w for w in fresh) and any("BEGIN:VTIMEZONE" not in w for w in fresh)
    for case, text in zip(cases, fresh):
        assert calendar.deadline_ics(**case) == text == calendar.deadline_ics(**case)   # from the kept part
        if "BEGIN:VTIMEZONE" in text:
            assert text.index("END:VTIMEZONE") < text.index("BEGIN:VEVENT")


def test_the_kept_zone_parts_stay_few():
    start = datetime(2026, 1, 1, 9, tzinfo=UTC)
    for day in range(100):
        calendar.deadline_ics(match_id="m", title="t", turn=1, deadline=start + timedelta(days=day), zone="Europe/Berlin",
                              organizer="r@x.test", domain="x.test", issued=start)
    assert 0 < calendar._zone_part.cache_info().currsize <= 64


@pytest.mark.parametrize("title", ["Länder, Städte; Dörfer", "a" * 30 + ",;" * 20, "é" * 90, "back\\slash",
                                   "line\nbreak", "Tom & Jerry's <b>\"x\"", "日本語のタイトル" * 6])
def test_hostile_titles_read_back_as_given(title):
    text = calendar.deadline_ics(match_id="m1", title=title, turn=2, zone="Europe/Berlin", organizer="r@x.test",
                                 domain="x.test", deadline=datetime(2026, 3, 27, 9, tzinfo=UTC),
                                 issued=datetime(2026, 3, 25, 9, tzinfo=UTC))
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    event = Calendar.from_ical(text).walk("VEVENT")[0]
    assert str(event["SUMMARY"]) == f"Deadline: {title}, turn 2"
