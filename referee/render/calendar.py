"""The next deadline as an iCalendar part (RFC 5545, built with ``icalendar``).

One event per match, always with the same UID: each mail that names the next
deadline (welcome, report, deadline change) carries it again with a higher
SEQUENCE, so a calendar that took it in moves the one entry instead of
adding another; the match's last report carries it cancelled.  The time is
given in the match's zone (with its VTIMEZONE), and a reminder fires before it.
"""
from __future__ import annotations

import functools
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from icalendar import Alarm, Calendar, Event, Timezone, vCalAddress

PRODID = "-//referee//play-by-email deadlines//EN"
EPOCH = datetime(2020, 1, 1, tzinfo=UTC)   # SEQUENCE counts seconds from here (fits 32 bits until 2088)
DEFAULT_REMINDER = timedelta(hours=2)
LENGTH = timedelta(minutes=15)

WORDS = {
    "en": {"summary": "Deadline: {title}, turn {turn}", "alarm": "Orders for {title} are due in {left}.",
           "ended": "{title} has ended", "hours": "{n} h", "minutes": "{n} min",
           "description": "Send your orders for turn {turn} of {title} ({match}) before this time."},
    "de": {"summary": "Abgabeschluss: {title}, Zug {turn}", "alarm": "Befehle für {title} sind in {left} fällig.",
           "ended": "{title} ist beendet", "hours": "{n} Std.", "minutes": "{n} Min.",
           "description": "Schicke deine Befehle für Zug {turn} von {title} ({match}) vor diesem Zeitpunkt."},
}


def uid_of(match_id: str, domain: str) -> str:
    return f"deadline.{match_id}@{domain}"


def sequence_at(issued: datetime) -> int:
    """A SEQUENCE that grows with the time a version is issued (RFC 5545 3.8.7.4)."""
    return max(int((issued - EPOCH).total_seconds()), 0)


def _left(offset: timedelta, w: dict) -> str:
    minutes = int(offset.total_seconds() // 60)
    return w["hours"].format(n=minutes // 60) if minutes % 60 == 0 else w["minutes"].format(n=minutes)


def deadline_ics(*, match_id: str, title: str, turn: int | None, deadline: datetime | None, zone: str,
                 organizer: str, domain: str, issued: datetime, lang: str = "en",
                 reminder: timedelta | None = None, ended: bool = False) -> str:
    """The calendar text (CRLF lines) for the next deadline, or its cancellation
    once the match has ended (``ended``, or no deadline left)."""
    w = WORDS.get(lang, WORDS["en"])
    cancelled = ended or deadline is None
    # a cancelled version keeps a start: some calendars drop an event without one
    start = (deadline or issued).astimezone(ZoneInfo(zone))
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    event = Event()
    event.add("uid", uid_of(match_id, domain))
    event.add("dtstamp", issued.astimezone(UTC))
    event.add("sequence", sequence_at(issued))
    event.add("organizer", vCalAddress(f"mailto:{organizer}"))
    if cancelled:
        event.add("summary", w["ended"].format(title=title))
        event.add("status", "CANCELLED")
    else:
        event.add("summary", w["summary"].format(title=title, turn=turn))
        event.add("description", w["description"].format(title=title, turn=turn, match=match_id))
        event.add("status", "CONFIRMED")
        offset = reminder or DEFAULT_REMINDER
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("trigger", -offset)
        alarm.add("description", w["alarm"].format(title=title, left=_left(offset, w)))
        event.add_component(alarm)
    event.add("dtstart", start)
    event.add("dtend", start + LENGTH)
    event.add("transp", "TRANSPARENT")    # a deadline takes no time in anyone's day
    cal.add_component(event)
    # what add_missing_timezones adds, with the zone's rules around the deadline only (the whole
    # history would be kilobytes per mail): a calendar's text is its own lines, then each
    # component's (RFC 5545 3.4), so the zone's VTIMEZONE, most of the text and of its cost, is
    # written once per zone and window and put before the event that names it
    text = cal.to_ical().decode("utf-8")
    first, last = (start - timedelta(days=400)).date(), (start + timedelta(days=400)).date()
    zones = "".join(_zone_text(tzid, first, last) for tzid in sorted(cal.get_missing_tzids()))
    return text.replace("BEGIN:VEVENT\r\n", zones + "BEGIN:VEVENT\r\n", 1) if zones else text


@functools.lru_cache(maxsize=64)
def _zone_text(tzid: str, first: date, last: date) -> str:
    """The VTIMEZONE of ``tzid`` from ``first`` to ``last`` as icalendar writes it ("" for a zone
    it does not know; the reports of a close all name the same few)."""
    try:
        return Timezone.from_tzid(tzid, first_date=first, last_date=last).to_ical().decode("utf-8")
    except ValueError:
        return ""
