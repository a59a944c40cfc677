"""The next deadline as an iCalendar part (RFC 5545, built with ``icalendar``).

One event per match, always with the same UID: each mail that names the next
deadline (welcome, report, deadline change) carries it again with a higher
SEQUENCE, so a calendar that took it in moves the one entry instead of
adding another; the match's last report carries it cancelled.  The time is
given in the match's zone (with its VTIMEZONE), and a reminder fires before it.
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from icalendar import Alarm, Calendar, Event, vCalAddress

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
    # the zone's rules around the deadline only: the whole history would be kilobytes per mail
    window = _window(zone, start)
    zone_part = _ZONE_PARTS.get(window)
    fast = _written(match_id, title, turn, zone, organizer, domain, issued, w, reminder, cancelled, start, zone_part)
    if fast is not None:
        return fast
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
    if zone_part is not None:
        return cal.to_ical().decode("utf-8").replace("BEGIN:VEVENT\r\n", zone_part + "BEGIN:VEVENT\r\n", 1)
    bare = cal.to_ical().decode("utf-8")
    cal.add_missing_timezones(first_date=window[1], last_date=window[2])
    whole = cal.to_ical().decode("utf-8")
    _remember_zone_part(window, bare, whole)
    return whole


def _window(zone: str, start: datetime) -> tuple:
    return zone, (start - timedelta(days=400)).date(), (start + timedelta(days=400)).date()


# icalendar's own way costs ~1 ms a calendar (its components, properties and content lines), a
# tenth of a close's own rendering: the few shapes a deadline takes are written here instead, the
# same text as icalendar writes (tests/render/test_calendar_written.py holds it to icalendar's
# over hostile titles, every zone kind, reminders, and the cancelled form).  Anything else, and a
# zone whose VTIMEZONE is not known yet (_ZONE_PARTS), goes icalendar's way.
_PLAIN_ZONE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_/+-")
_PLAIN_ADDRESS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-@")


def _written(match_id, title, turn, zone, organizer, domain, issued, w, reminder, cancelled, start,
             part) -> str | None:
    if part is None or not set(zone) <= _PLAIN_ZONE or not set(organizer) <= _PLAIN_ADDRESS:
        return None
    if zone == "UTC" and not part:      # UTC: times with Z, no VTIMEZONE
        param, form = "", "%Y%m%dT%H%M%SZ"
    elif part.startswith(f"BEGIN:VTIMEZONE\r\nTZID:{zone}\r\n"):
        param, form = f";TZID={zone}", "%Y%m%dT%H%M%S"
    else:
        return None
    texts = [title, match_id, domain]
    if any(not _plain_text(t) for t in texts) or type(turn) not in (int, type(None)) or start.year < 1000:
        return None
    offset = None if cancelled else (reminder or DEFAULT_REMINDER)
    if offset is not None and (offset.days or offset.microseconds or offset <= timedelta(0)):
        return None   # a reminder of a day or more, or of a fraction of a second, goes icalendar's way
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "METHOD:PUBLISH"]
    event = ["BEGIN:VEVENT"]
    if cancelled:
        event.append("SUMMARY:" + _text(w["ended"].format(title=title)))
    else:
        event.append("SUMMARY:" + _text(w["summary"].format(title=title, turn=turn)))
    end = start + LENGTH
    event += [f"DTSTART{param}:{start.strftime(form)}", f"DTEND{param}:{end.strftime(form)}",
              "DTSTAMP:" + issued.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ"),
              "UID:" + _text(uid_of(match_id, domain)), f"SEQUENCE:{sequence_at(issued)}"]
    if not cancelled:
        event.append("DESCRIPTION:" + _text(w["description"].format(title=title, turn=turn, match=match_id)))
    event.append(f"ORGANIZER:mailto:{organizer}")
    event += ["STATUS:CANCELLED", "TRANSP:TRANSPARENT"] if cancelled else ["STATUS:CONFIRMED", "TRANSP:TRANSPARENT"]
    if offset is not None:
        event += ["BEGIN:VALARM", "ACTION:DISPLAY",
                  "DESCRIPTION:" + _text(w["alarm"].format(title=title, left=_left(offset, w))),
                  "TRIGGER:" + _duration(offset), "END:VALARM"]
    event.append("END:VEVENT")
    body = "\r\n".join(_fold(line) for line in lines + event) + "\r\nEND:VCALENDAR\r\n"
    return body.replace("BEGIN:VEVENT\r\n", part + "BEGIN:VEVENT\r\n", 1)


def _plain_text(t: str) -> bool:
    """No control or format characters, surrogates (not printable), backslash or caret (which
    icalendar rewrites or keeps apart when it folds): what _text and _fold take."""
    return type(t) is str and t.isprintable() and "\\" not in t and "^" not in t


def _text(value: str) -> str:
    """A TEXT value escaped as RFC 5545 3.3.11 asks (no backslash nor line break: _plain_text)."""
    return value.replace(";", "\\;").replace(",", "\\,")


def _duration(offset: timedelta) -> str:
    """A reminder of under a day before the start, as icalendar writes it: -PT2H, -PT1H30M, -PT45S."""
    hours, rest = divmod(offset.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return "-PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "") + \
        (f"{seconds}S" if seconds else "")


def _fold(line: str) -> str:
    """A content line folded before it reaches 75 octets (icalendar's limit and place), a
    continuation line starting with one space; an escape's backslash moves to the next line."""
    if len(line) < 75 and line.isascii():
        return line
    parts, current, size = [], [], 0
    for ch in line:
        n = len(ch.encode("utf-8"))
        if current and size + n >= 75:
            if len(current) > 1 and current[-1] == "\\":   # an escape (\, or \;) is not split
                parts.append("".join(current[:-1]))
                current, size = ["\\"], 1
            else:
                parts.append("".join(current))
                current, size = [], 0
        current.append(ch)
        size += n
    parts.append("".join(current))
    return "\r\n ".join(parts)


# The VTIMEZONE of a zone and window, as text: writing it out is most of a calendar's cost, and
# the reports of a close all name the same few.  Kept only if the calendar without it, with it
# put back before the event, is the same text as the calendar icalendar writes whole.
_ZONE_PARTS: dict[tuple, str] = {}


def _remember_zone_part(window: tuple, bare: str, whole: str) -> None:
    start, end = whole.find("BEGIN:VTIMEZONE\r\n"), whole.rfind("END:VTIMEZONE\r\n")
    part = whole[start:end + len("END:VTIMEZONE\r\n")] if start >= 0 and end >= 0 else ""   # UTC needs none
    if bare.replace("BEGIN:VEVENT\r\n", part + "BEGIN:VEVENT\r\n", 1) != whole:
        return
    if len(_ZONE_PARTS) >= 64:
        _ZONE_PARTS.clear()
    _ZONE_PARTS[window] = part
