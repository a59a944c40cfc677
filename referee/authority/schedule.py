"""Deadline arithmetic for a match: pure, aware datetimes, ``zoneinfo``.

A match file's ``schedule:`` is read into ``Schedule``.  What the words mean:

* ``first_deadline`` — local date-time in ``timezone`` (``2026-03-29 20:00``)
  or ISO with an offset.  Turn 1 closes then.
* ``period`` — ``48h``, ``7d``, ``1d12h``, ``90m``, ``2w``, ISO ``P2D``; a
  bare number means hours.  **A whole number of days is wall-clock days**: a
  ``24h``/``7d`` game keeps its local time of day across a DST change
  (20:00 stays 20:00, the turn is 23 or 25 real hours long).  Any other
  period is elapsed time (``36h`` is always 36 real hours).
* ``weekdays`` + ``time`` — deadlines fall on these weekdays at this local
  time (``[mon, thu]``, ``"20:00"``; German day names work too).  A turn
  lasts at least ``min_turn`` (default 12h): a turn closed early or late
  gets the first slot after ``closed_at + min_turn``.
* Local times that do not exist (the spring-forward gap, 02:30 in Berlin on
  the last Sunday of March) move forward by the gap (03:30 CEST); local times
  that exist twice (autumn) mean the first of the two (CEST).
* ``grace`` — after the deadline the turn stays open for the players still
  awaited: orders arriving in grace are taken as on time.  The turn closes
  when grace ends, or as soon as every awaited player is in (a ``wait``
  request holds only until the deadline).  Grace never moves the schedule.
* ``reminders`` — offsets before the deadline (``["24h", "2h"]``) at which the
  players still awaited are reminded.
* ``early_close`` — close before the deadline once every awaited player has
  valid orders and nobody asked to wait.
* Early close: with a period, the next turn's deadline counts from the close
  (as the Diplomacy judges do); closing at or after the deadline counts from
  the deadline, so late ticks do not drift the schedule.
* Pause at P, resume at R: the open deadline moves by R − P; later deadlines
  follow from it.  ``extend`` moves it by a duration.

Every datetime going in must be aware; every datetime coming out is in UTC,
because Python adds to and subtracts same-zone datetimes on the wall clock
(``20:00 CET + 36h`` would be 35 real hours across the spring change).
``Schedule.local`` and the ``format_*`` helpers (``referee.render.deadline_text``)
show them in the match zone.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from datetime import time as TimeOfDay
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, TypeAdapter, field_validator, model_validator

UTC = UTC
DAY = timedelta(days=1)
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_NAMES = {
    **{name: i for i, name in enumerate(WEEKDAYS)},
    **{name: i for i, name in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday",
                                          "saturday", "sunday"))},
    **{name: i for i, name in enumerate(("montag", "dienstag", "mittwoch", "donnerstag", "freitag",
                                          "samstag", "sonntag"))},
    **{name: i for i, name in enumerate(("mo", "di", "mi", "do", "fr", "sa", "so"))},
    "tu": 1, "we": 2, "th": 3, "su": 6, "sonnabend": 5,
}
_UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(w|d|h|m|s)", re.I)
_TIMEDELTA = TypeAdapter(timedelta)

CloseReason = Literal["early", "complete", "deadline"]


# -- parsing -------------------------------------------------------------------------
class ScheduleError(ValueError):
    """A schedule's fault in English (the message) and German (``german``): a GM reads it in
    the match file's language."""

    def __init__(self, english: str, german: str) -> None:
        super().__init__(english)
        self.german = german


def parse_duration(value: Any) -> timedelta:
    """``"48h"``, ``"1d12h"``, ``"90m"``, ``"2w"``, ISO ``"PT2H"``, ``"01:30:00"``,
    a ``timedelta``, or a number of hours."""
    if isinstance(value, timedelta):
        return value
    if isinstance(value, bool):
        raise ScheduleError("a duration such as '48h' or '7d'", "eine Dauer wie '48h' oder '7d'")
    if isinstance(value, (int, float)):
        return timedelta(hours=value)
    text = str(value).strip().lower().replace(" ", "")
    if re.fullmatch(r"(?:\d+(?:\.\d+)?[wdhms])+", text):
        return timedelta(seconds=sum(float(n) * _UNITS[u] for n, u in _DURATION.findall(text)))
    try:
        return _TIMEDELTA.validate_python(str(value).strip())
    except ValueError:
        raise ScheduleError(f"'{value}' is not a duration such as '48h', '7d' or '1d12h'",
                            f"'{value}' ist keine Dauer wie '48h', '7d' oder '1d12h'") from None


def parse_time(value: Any) -> TimeOfDay:
    """``"20:00"``, a ``time``, or minutes after midnight (YAML 1.1 reads 20:00 as 1200)."""
    if isinstance(value, TimeOfDay):
        return value.replace(tzinfo=None)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 24 * 60:
        return TimeOfDay(value // 60, value % 60)
    m = re.fullmatch(r"(\d{1,2})[:.](\d{2})(?::(\d{2}))?", str(value).strip())
    if not m:
        raise ScheduleError(f"'{value}' is not a time of day such as '20:00'", f"'{value}' ist keine Uhrzeit wie '20:00'")
    return TimeOfDay(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


def parse_weekday(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 6:
        return value
    name = str(value).strip().lower().rstrip(".")
    if name not in _DAY_NAMES:
        raise ScheduleError(f"'{value}' is not a weekday such as mon, thu or Montag",
                            f"'{value}' ist kein Wochentag wie Montag, Donnerstag oder mon")
    return _DAY_NAMES[name]


def localize(wall: datetime, zone: ZoneInfo) -> datetime:
    """A local wall time as an aware datetime: a time in the spring gap moves
    forward by the gap, a doubled autumn time is the first (fold=0)."""
    aware = wall.replace(tzinfo=zone, fold=0)
    return aware.astimezone(UTC).astimezone(zone)


def _u(moment: datetime) -> datetime:
    """UTC, the only zone where ``+`` and ``-`` are exact (Python adds to and
    subtracts same-zone datetimes on the wall clock)."""
    if moment.tzinfo is None:
        raise ValueError("deadline arithmetic needs aware datetimes")
    return moment.astimezone(UTC)


def _ceil_minute(moment: datetime) -> datetime:
    if moment.second or moment.microsecond:
        moment = moment.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return moment


# -- the schedule ---------------------------------------------------------------------
class Schedule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    timezone: str = "UTC"
    first_deadline: datetime | None = None   # None: the first turn runs one period from the start
    period: timedelta | None = None
    weekdays: tuple[int, ...] | None = None     # 0 = Monday
    time: TimeOfDay | None = None
    grace: timedelta = timedelta(0)
    reminders: tuple[timedelta, ...] = ()
    early_close: bool = True
    min_turn: timedelta = timedelta(hours=12)

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: Any) -> Any:
        if not isinstance(raw, dict):
            return raw
        data = dict(raw)
        zone_name = str(data.get("timezone") or "UTC")
        try:
            zone = ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            raise ScheduleError(f"unknown time zone '{zone_name}' (use e.g. Europe/Berlin)",
                                f"unbekannte Zeitzone '{zone_name}' (etwa Europe/Berlin)") from None
        first = data.get("first_deadline")
        if isinstance(first, date) and not isinstance(first, datetime):
            first = datetime.combine(first, TimeOfDay(0))
        if isinstance(first, str):
            try:
                first = datetime.fromisoformat(first.strip())
            except ValueError:
                raise ScheduleError(f"first_deadline '{first}' is not a date-time such as 2026-03-29 20:00",
                                    f"first_deadline '{first}' ist kein Zeitpunkt wie 2026-03-29 20:00") from None
        if isinstance(first, datetime):
            data["first_deadline"] = localize(first, zone) if first.tzinfo is None else first.astimezone(zone)
        for name in ("period", "grace", "min_turn"):
            if data.get(name) is not None:
                data[name] = parse_duration(data[name])
        if data.get("reminders") is not None:
            items = data["reminders"]
            data["reminders"] = tuple(sorted((parse_duration(x) for x in (
                items if isinstance(items, (list, tuple)) else [items])), reverse=True))
        if data.get("weekdays") is not None:
            days = data["weekdays"]
            if isinstance(days, str):
                days = [d for d in re.split(r"[\s,;/]+", days) if d]
            data["weekdays"] = tuple(sorted({parse_weekday(d) for d in days}))
        if data.get("time") is not None:
            data["time"] = parse_time(data["time"])
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Schedule:
        if (self.period is None) == (self.weekdays is None):
            raise ScheduleError("give either 'period' (e.g. 48h) or 'weekdays' with 'time', not both or neither",
                                "gib entweder 'period' (etwa 48h) oder 'weekdays' mit 'time' an, nicht beides und nicht keins")
        if self.period is not None and self.period <= timedelta(0):
            raise ScheduleError("'period' must be positive", "'period' muss größer als null sein")
        if self.weekdays is not None and not self.weekdays:
            raise ScheduleError("'weekdays' needs at least one day", "'weekdays' braucht mindestens einen Tag")
        if self.weekdays is not None and self.time is None and self.first_deadline is None:
            raise ScheduleError("'weekdays' needs a 'time' such as 20:00", "'weekdays' braucht eine 'time' wie 20:00")
        if self.grace < timedelta(0) or any(r <= timedelta(0) for r in self.reminders):
            raise ScheduleError("'grace' must not be negative and reminders must be positive",
                                "'grace' darf nicht negativ sein, und Erinnerungen müssen größer als null sein")
        return self

    @field_validator("first_deadline")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ScheduleError("first_deadline needs a time zone", "first_deadline braucht eine Zeitzone")
        return value

    # -- basics ---------------------------------------------------------------------
    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def wall_days(self) -> int | None:
        """Days per turn when the period is a whole number of days, else None."""
        if self.period is None or self.period % DAY:
            return None
        return self.period // DAY

    @property
    def slot_time(self) -> TimeOfDay:
        if self.time is not None or self.first_deadline is None:
            return self.time or TimeOfDay(0)
        return self.first_deadline.astimezone(self.zone).time().replace(tzinfo=None)

    def local(self, moment: datetime) -> datetime:
        return moment.astimezone(self.zone)

    def _at(self, wall: datetime) -> datetime:
        return _u(localize(wall, self.zone))

    def _wall(self, moment: datetime) -> datetime:
        """The local wall time ``moment`` stands for: a deadline pushed out of
        the spring gap (03:30) still stands for its nominal slot time (02:30)."""
        local = self.local(moment)
        nominal = datetime.combine(local.date(), self.slot_time)
        return nominal if self._at(nominal) == _u(moment) else local.replace(tzinfo=None)

    def _add_period(self, base: datetime) -> datetime:
        days = self.wall_days
        if days is not None:
            return self._at(self._wall(base) + timedelta(days=days))
        return _u(base) + self.period

    def next_slot(self, after: datetime) -> datetime:
        """The first deadline strictly after ``after``: the next weekday slot,
        or the next deadline of the undisturbed period series."""
        after = _u(after)
        if self.weekdays is None:
            moment = self.first()
            while moment <= after:
                moment = self._add_period(moment)
            return moment
        day = self.local(after).date()
        for offset in range(0, 9):
            when = day + timedelta(days=offset)
            if when.weekday() in self.weekdays:
                slot = self._at(datetime.combine(when, self.slot_time))
                if slot > after:
                    return slot
        raise AssertionError("a weekly slot always exists within 8 days")

    def first(self) -> datetime:
        if self.first_deadline is None:
            raise ValueError("this schedule has no first_deadline; use opening_deadline(now)")
        return _u(self.first_deadline)

    def opening_deadline(self, now: datetime) -> datetime:
        """Turn 1's deadline for a match started at ``now``: ``first_deadline``
        if it is still at least ``min_turn`` away (period schedules: one
        period), else the first slot after that."""
        now = _u(now)
        if self.first_deadline is not None and self.first() >= now + self._shortest():
            return self.first()
        if self.weekdays is None and self.first_deadline is None:
            return _ceil_minute(self._add_period(now))
        return self.next_slot(now + self._shortest())

    def _shortest(self) -> timedelta:
        return self.min_turn if self.weekdays is not None else min(self.min_turn, self.period)

    def deadline_for(self, turn: int) -> datetime:
        """Turn ``turn``'s deadline (1-based) if every turn ran to its deadline
        and nothing was paused or extended."""
        if turn < 1:
            raise ValueError("turns are numbered from 1")
        moment = self.first()
        for _ in range(turn - 1):
            moment = self._add_period(moment) if self.weekdays is None else self.next_slot(moment + self.min_turn)
        return moment

    def next_deadline(self, closed_at: datetime, deadline: datetime | None = None) -> datetime:
        """The next turn's deadline after a turn with ``deadline`` closed at
        ``closed_at`` (without ``deadline``: counted from the close)."""
        closed_at = _u(closed_at)
        deadline = closed_at if deadline is None else _u(deadline)
        if self.weekdays is not None:
            return self.next_slot(closed_at + self.min_turn)
        if closed_at < deadline:  # early close: count from the close
            return _ceil_minute(self._add_period(closed_at))
        return self._add_period(deadline)

    def resume(self, deadline: datetime, paused_at: datetime, resumed_at: datetime) -> datetime:
        """The open deadline after a pause (see ``shift_for_pause``)."""
        return shift_for_pause(deadline, paused_at, resumed_at)

    # -- during a turn -----------------------------------------------------------------
    def accepts_orders(self, deadline: datetime, now: datetime) -> bool:
        """Orders are taken until the deadline plus grace."""
        return _u(now) < _u(deadline) + self.grace

    def is_late(self, deadline: datetime, now: datetime) -> bool:
        return _u(now) >= _u(deadline)

    def close_due(self, deadline: datetime, now: datetime, *, all_in: bool,
                  waiting: bool = False) -> CloseReason | None:
        """Why the turn should close now, or None: ``"early"`` (everyone in
        before the deadline, early close on, nobody waiting), ``"complete"``
        (everyone in during grace), ``"deadline"`` (deadline + grace passed)."""
        deadline, now = _u(deadline), _u(now)
        if now >= deadline + self.grace:
            return "deadline"
        if now >= deadline:
            return "complete" if all_in else None
        if self.early_close and all_in and not waiting:
            return "early"
        return None

    def due_reminders(self, deadline: datetime, now: datetime, already_sent: Iterable[Any] = (),
                      opened_at: datetime | None = None) -> list[timedelta]:
        """Reminder offsets due at ``now`` and not yet sent (largest first).

        An offset is due from ``deadline - offset`` until the deadline.  Offsets
        whose moment lies before ``opened_at`` are never due (a 24h reminder
        on a 6h turn).  After downtime several may be due at once: send one
        reminder and record all of them as sent."""
        sent = {parse_duration(x) for x in already_sent}
        deadline, now = _u(deadline), _u(now)
        opened_at = None if opened_at is None else _u(opened_at)
        due = []
        for offset in self.reminders:
            moment = deadline - offset
            if offset in sent or not moment <= now < deadline:
                continue
            if opened_at is not None and moment < opened_at:
                continue
            due.append(offset)
        return due

    def next_reminder(self, deadline: datetime, already_sent: Iterable[Any] = (),
                      opened_at: datetime | None = None) -> datetime | None:
        """When the next reminder falls due (for a service that sleeps until then)."""
        sent = {parse_duration(x) for x in already_sent}
        deadline = _u(deadline)
        opened_at = None if opened_at is None else _u(opened_at)
        moments = [deadline - o for o in self.reminders
                   if o not in sent and (opened_at is None or deadline - o >= opened_at)]
        return min(moments) if moments else None


# -- pause, resume, extend -----------------------------------------------------------
def shift_for_pause(deadline: datetime, paused_at: datetime, resumed_at: datetime) -> datetime:
    """The open deadline after a pause from ``paused_at`` to ``resumed_at``."""
    paused_at, resumed_at = _u(paused_at), _u(resumed_at)
    if resumed_at < paused_at:
        raise ValueError("a pause cannot end before it began")
    return _u(deadline) + (resumed_at - paused_at)


def extend(deadline: datetime, by: Any) -> datetime:
    """The deadline moved later by a duration (``"24h"``, a timedelta, hours)."""
    amount = parse_duration(by)
    if amount <= timedelta(0):
        raise ValueError("an extension must be positive")
    return _u(deadline) + amount


# deadlines as words live beside the arithmetic; imported here for the callers of old
from referee.render.deadline_text import format_deadline, format_duration, format_local, format_utc  # noqa: E402,F401
