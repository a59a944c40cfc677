"""The one place the authority asks about deadlines: the match file's
``schedule:`` read by ``referee.authority.schedule.Schedule``, plus the match's zone."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from referee.authority import schedule as sched


class Timing:
    def __init__(self, schedule: Mapping, tz: str, early_close: bool = True) -> None:
        data = dict(schedule)
        data.setdefault("timezone", tz)
        data.setdefault("early_close", early_close)
        self.schedule = sched.Schedule.model_validate(data)
        self.zone = self.schedule.zone
        self._texts: dict[tuple, str] = {}  # deadline texts: every mail of a turn shows the same one

    def first_deadline(self, now: datetime) -> datetime:
        """Turn 1's deadline: the match file's, or the next slot if that has passed already."""
        return _utc(self.schedule.opening_deadline(now))

    def next_deadline(self, closed_at: datetime, deadline: datetime | None) -> datetime:
        # without a deadline (a turn reopened by a rollback) it counts from closed_at
        return _utc(self.schedule.next_deadline(closed_at, deadline))

    def close_due(self, deadline: datetime, now: datetime, all_in: bool, waiting: bool) -> str | None:
        return self.schedule.close_due(deadline, now, all_in=all_in, waiting=waiting)

    def accepts_orders(self, deadline: datetime, now: datetime) -> bool:
        return self.schedule.accepts_orders(deadline, now)

    def due_reminder(self, deadline: datetime, now: datetime, opened: datetime) -> timedelta | None:
        """The latest reminder offset due now (one reminder even if a tick came late)."""
        due = self.schedule.due_reminders(deadline, now, opened_at=opened)
        return min(due) if due else None

    def shift(self, deadline: datetime, paused_at: datetime, resumed_at: datetime) -> datetime:
        return _utc(sched.shift_for_pause(deadline, paused_at, resumed_at))

    def extend(self, deadline: datetime, by: Any) -> datetime:
        return _utc(sched.extend(deadline, by))

    def local(self, t: datetime, lang: str = "en") -> str:
        return self._text("local", t, lang)

    def utc(self, t: datetime, lang: str = "en") -> str:
        """UTC, with its date only when that differs from the local date."""
        return self._text("utc", t, lang)

    def _text(self, kind: str, t: datetime, lang: str) -> str:
        key = (kind, t, lang)
        text = self._texts.get(key)
        if text is None:
            local = sched.format_local(t, self.zone, lang)
            if kind == "local":
                text = local
            else:
                both = sched.format_deadline(t, self.zone, lang)
                text = both[len(local):].strip().removeprefix("(").removesuffix(")")
            if len(self._texts) > 256:
                self._texts.clear()
            self._texts[key] = text
        return text


def _utc(t: datetime) -> datetime:
    return t.astimezone(UTC)
