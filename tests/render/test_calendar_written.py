"""The deadline calendar written by hand (referee/render/calendar.py ``_written``) is the text icalendar
writes: each case is built first with the zone's VTIMEZONE not yet known (icalendar's own way,
which learns it), then again (written by hand where it can), and the two must be equal."""
from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from referee.render import calendar

TITLES = ["Ratsspiel 17", "Länder, Städte; Dörfer", "a" * 30 + ",;" * 20, "é" * 90, "Tom & Jerry's <b>\"x\"",
          "back\\slash", "care^t", "line\nbreak", "cr\rhere", "\\N escape", "zero\u200bwidth", "tab\there",
          "\ud800 lone", "日本語のタイトル" * 6, "", " ", "x" * 200]
ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Etc/GMT+3",
         "Etc/UTC", "GMT", "America/Argentina/Buenos_Aires"]
REMINDERS = [None, timedelta(minutes=30), timedelta(minutes=90), timedelta(seconds=45), timedelta(days=1),
             timedelta(hours=26), timedelta(microseconds=1500)]
ISSUED = datetime(2026, 3, 25, 9, 0, 7, 250, tzinfo=UTC)


def icalendars_and_written(**case) -> tuple[str, str]:
    calendar._ZONE_PARTS.clear()
    try:
        theirs = calendar.deadline_ics(**case)
    except UnicodeEncodeError:   # a lone surrogate: icalendar refuses it, and so must the written way
        with pytest.raises(UnicodeEncodeError):
            calendar.deadline_ics(**case)
        return "", ""
    return theirs, calendar.deadline_ics(**case)


@pytest.mark.parametrize("title", TITLES)
def test_hostile_titles_and_match_ids_give_icalendars_text(title):
    # every length from 0 to 79 of a prefix puts each escape of the title at every fold position
    for n, lang, ended in itertools.product(range(0, 80, 3), ["en", "de", "fr"], [False, True]):
        case = dict(match_id=f"m-{'x' * n},{title[:5]}", title=("y" * n) + title, turn=4, zone="Europe/Berlin",
                    organizer="referee@x.test", domain="x.test", deadline=datetime(2026, 3, 29, 18, 5, 9, tzinfo=UTC),
                    lang=lang, ended=ended, issued=ISSUED)
        theirs, mine = icalendars_and_written(**case)
        assert mine == theirs, case


@pytest.mark.parametrize("zone", ZONES)
def test_every_kind_of_zone_and_reminder_gives_icalendars_text(zone):
    for day, reminder, ended, no_deadline in itertools.product([0, 4, 190], REMINDERS, [False, True], [False, True]):
        deadline = None if no_deadline else datetime(2026, 3, 27, 23, 59, 59, 999, tzinfo=UTC) + timedelta(days=day)
        case = dict(match_id="m1", title="Deadline, title", turn=day + 1, zone=zone, organizer="ref+gm@x.test",
                    domain="x.test", deadline=deadline, lang="de", ended=ended, issued=ISSUED, reminder=reminder)
        theirs, mine = icalendars_and_written(**case)
        assert mine == theirs, case


def test_odd_organizers_give_icalendars_text():
    for organizer in ["referee@x.test", "a,b@x.test", "a;b@x.test", "\"q\"@x.test", "ä@x.test", "a b@x.test"]:
        case = dict(match_id="m1", title="t", turn=1, zone="UTC", organizer=organizer, domain="x.test",
                    deadline=datetime(2026, 3, 27, 9, tzinfo=UTC), lang="en", issued=ISSUED)
        theirs, mine = icalendars_and_written(**case)
        assert mine == theirs, organizer


def test_a_close_s_usual_calendars_are_written_without_icalendar():
    # what reports carry: a known zone, a plain title, a reminder under a day, and the cancelled form
    for zone, ended, reminder in itertools.product(["UTC", "Europe/Berlin", "America/New_York"], [False, True],
                                                   [None, timedelta(minutes=45)]):
        case = dict(match_id="m-0001", title="Ratsspiel, Runde 3", turn=3, zone=zone, organizer="referee@x.test",
                    domain="x.test", deadline=datetime(2026, 6, 1, 18, tzinfo=UTC), lang="de", ended=ended,
                    issued=ISSUED, reminder=reminder)
        theirs, _ = icalendars_and_written(**case)
        w = calendar.WORDS["de"]
        from zoneinfo import ZoneInfo
        start = case["deadline"].astimezone(ZoneInfo(zone))
        written = calendar._written(case["match_id"], case["title"], 3, zone, case["organizer"], "x.test", ISSUED, w,
                                    reminder, ended, start, calendar._ZONE_PARTS.get(calendar._window(zone, start)))
        assert written == theirs
