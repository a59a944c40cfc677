"""Absence (issue 18): ``command: absent`` with ``from:`` and ``until:`` (dates in
the match's time zone, ``until`` inclusive), bounded by the match file's
``absence: {policy, max_days, max_times}``.

Policy ``extend``: a deadline that falls in an absence moves past it, to the
same time of day on the first day back (the open turn's at once, everyone
told; a later turn's when it opens, its report says so).  Policy ``defaults``:
deadlines stay, the absent player's defaults are used and do not count as
missed turns (``dropouts.excused``).
"""
from __future__ import annotations

from datetime import date, datetime, time, timedelta

from referee.authority.replies import Handled, _at
from referee.authority.wording import Own
from referee.intake import checks
from referee.store import seats as seat_rows

MAX_MOVES = 100   # absences one deadline can be pushed past (they are few: seats x max_times)


def read_date(value) -> date | None:
    """A date as a match file or a mail gives it (YAML reads 2026-03-07 as a date), else None."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and len(value.strip()) == 10:
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def past_absences(store, match: dict, deadline: datetime | None, zone) -> datetime | None:
    """``deadline`` moved past every absence (policy ``extend``) it falls in."""
    return moved_past(store, match, deadline, zone)[0]


def moved_past(store, match: dict, deadline: datetime | None, zone) -> tuple[datetime | None, list[dict]]:
    """(``deadline`` moved past every absence it falls in, the absences it moved past)."""
    if deadline is None or (match["spec"].get("absence") or {}).get("policy") != "extend":
        return deadline, []
    rows, passed = seat_rows.absences(store, match["id"]), []
    for _ in range(MAX_MOVES):
        covering = [r for r in rows
                    if datetime.fromisoformat(r["start"]) <= deadline < datetime.fromisoformat(r["until"])]
        if not covering:
            break
        passed += covering
        deadline = _same_time_after(deadline, max(datetime.fromisoformat(r["until"]) for r in covering), zone)
    return deadline, passed


def tell_moved(parts, match_id: str, passed: list[dict]) -> None:
    """A new turn's deadline moved past absences: everyone hears who is away.
    ``parts``: anything with the authority's store, renderer, look-ups, queue,
    notices and clock (``Closing`` at a close)."""
    match = parts.store.match(match_id)
    zone = parts.lookups.timing(match).zone
    for row in passed:
        away = parts.store.player(match_id, row["player"])
        start = datetime.fromisoformat(row["start"]).astimezone(zone).date()
        until = (datetime.fromisoformat(row["until"]).astimezone(zone) - timedelta(minutes=1)).date()
        if away is not None:
            _tell_all(parts, match, away, start, until)


def _same_time_after(deadline: datetime, back: datetime, zone) -> datetime:
    """The deadline's local time of day on the first day at or after ``back``."""
    local = deadline.astimezone(zone)
    day = back.astimezone(zone).date()
    moved = datetime.combine(day, local.time().replace(tzinfo=None), tzinfo=zone)
    if moved < back:
        moved = datetime.combine(day + timedelta(days=1), local.time().replace(tzinfo=None), tzinfo=zone)
    return moved


class Absence:
    def __init__(self, store, renderer, lookups, queue, replies, notices, settings, now) -> None:
        self.store, self.renderer, self.lookups, self.queue = store, renderer, lookups, queue
        self.replies, self.notices, self.settings, self.now = replies, notices, settings, now

    def declare(self, mail, match, player, env, doc) -> Handled:
        lang = self.lookups.lang_of(match, player)
        rule = match["spec"].get("absence")

        def refuse(code: str, arg: str = "command", **params) -> Handled:
            return self.replies.refuse(mail, match, lang, [Own(code, params, *_at(doc, arg))], player=player,
                                       code=code)

        if not rule:
            return refuse("absence.off")
        if "from" not in env.args or "until" not in env.args:
            return refuse("absence.needs")
        days: dict[str, date] = {}
        for arg in ("from", "until"):
            day = read_date(env.args[arg])
            if day is None:
                return refuse("absence.bad_date", arg, value=checks.echo(env.args[arg]))
            days[arg] = day
        start_day, until_day = days["from"], days["until"]
        timing = self.lookups.timing(match)
        zone, now = timing.zone, self.now()
        if until_day < start_day:
            return refuse("absence.order", "until", start=start_day.isoformat(), until=until_day.isoformat())
        if start_day < now.astimezone(zone).date():
            return refuse("absence.past", "from", start=start_day.isoformat())
        asked = (until_day - start_day).days + 1
        if asked > int(rule["max_days"]):
            return refuse("absence.too_long", "until", days=rule["max_days"], asked=asked)
        if start_day - now.astimezone(zone).date() > checks.MAX_AHEAD - timedelta(days=int(rule["max_days"])):
            return refuse("absence.too_far", "from", days=(checks.MAX_AHEAD - timedelta(days=int(rule["max_days"]))).days)
        taken = seat_rows.absences(self.store, match["id"], player["id"])
        if len(taken) >= int(rule["max_times"]):
            return refuse("absence.too_many", count=len(taken))
        start = datetime.combine(start_day, time(0), tzinfo=zone)
        back = datetime.combine(until_day + timedelta(days=1), time(0), tzinfo=zone)
        seat_rows.add_absence(self.store, match["id"], player["id"], start, back, now)
        moved = self._move_open_deadline(match, player, start_day, until_day)
        info = {"start": start_day.isoformat(), "until": until_day.isoformat(), "policy": rule["policy"],
                "moved": timing.local(moved, lang) if moved else None}
        subject, text = self.renderer.mail("seat_done", lang, **self.notices.status_ctx(match, player),
                                           command="absent", absence=info)
        self.replies.reply(mail, match, player, subject, text)
        return Handled("processed", "absent", match["id"], player["id"])

    def _move_open_deadline(self, match, player, start_day: date, until_day: date) -> datetime | None:
        """Policy ``extend``: the open turn's deadline, if it falls in the absence, moves
        past it and every seat, the GM and the observers are told; else None."""
        turn = self.store.current_turn(match["id"])
        if turn is None or turn["status"] != "open" or not turn["deadline"]:
            return None
        old = datetime.fromisoformat(turn["deadline"])
        new = past_absences(self.store, match, old, self.lookups.timing(match).zone)
        if new is None or new == old:
            return None
        self.store.set_deadline(match["id"], turn["number"], new)
        self._tell_all(match, player, start_day, until_day)
        return new

    def _tell_all(self, match, away: dict, start_day: date, until_day: date) -> None:
        _tell_all(self, self.store.match(match["id"]), away, start_day, until_day)


def _tell_all(parts, match, away: dict, start_day: date, until_day: date) -> None:
    """Every seat, the GM and the observers: who is away, and the deadline that moved."""
    lookups = parts.lookups
    turn = parts.store.current_turn(match["id"])
    readers = [(p["email"], lookups.lang_of(match, p), p) for p in parts.store.players(match["id"])]
    readers.append((match["gm_email"], lookups.lang_of(match), None))
    readers += [(o["email"], o["lang"] or lookups.lang_of(match), None) for o in parts.store.observers(match["id"])]
    stamp = f"{turn['number']}.{turn['rev']}:{away['id']}:{start_day.isoformat()}"
    for address, lang, reader in readers:
        subject, text = parts.renderer.mail("absence_notice", lang, **parts.notices.status_ctx(match, reader),
                                            away=away, start=start_day.isoformat(), until=until_day.isoformat())
        calendar = lookups.calendar_part(match, turn, lang, parts.now()) if reader is not None else None
        parts.queue.queue(f"absence:{match['id']}:{stamp}:{address}", match["id"], address, subject, text,
                          calendar=calendar)
