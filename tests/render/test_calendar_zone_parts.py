"""The deadline calendar keeps a zone's VTIMEZONE text once written (referee/render/calendar.py):
a calendar built with it is the same text as one icalendar writes whole."""
from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from referee.render import calendar


def test_a_calendar_with_the_kept_zone_part_is_the_calendar_written_whole():
    cases = [dict(match_id="m1", title="Länder <&> \"x\"", turn=4, zone=zone, organizer="referee@x.test", domain="x.test",
                  deadline=datetime(2026, 3, 27, 9, tzinfo=UTC) + timedelta(days=day), lang=lang, ended=ended,
                  issued=datetime(2026, 3, 25, 9, tzinfo=UTC))
             for zone, lang, ended, day in itertools.product(
                 ["Europe/Berlin", "UTC", "America/St_Johns", "Australia/Lord_Howe"], ["en", "de"], [False, True],
                 [0, 2, 190])]
    whole = []
    for case in cases:
        calendar._ZONE_PARTS.clear()
        whole.append(calendar.deadline_ics(**case))
    assert any("BEGIN:VTIMEZONE" in w for w in whole) and any("BEGIN:VTIMEZONE" not in w for w in whole)
    for case, text in zip(cases, whole):
        assert calendar.deadline_ics(**case) == text
        assert calendar.deadline_ics(**case) == text   # from the kept part
    assert calendar._ZONE_PARTS and len(calendar._ZONE_PARTS) <= 64


def test_the_kept_zone_parts_stay_few():
    start = datetime(2026, 1, 1, 9, tzinfo=UTC)
    for day in range(100):
        calendar.deadline_ics(match_id="m", title="t", turn=1, deadline=start + timedelta(days=day), zone="Europe/Berlin",
                              organizer="r@x.test", domain="x.test", issued=start)
    assert 0 < len(calendar._ZONE_PARTS) <= 64
