"""Outages: a deadline the referee (or its mailbox) was down across is moved, not closed blindly.

The service notes in the store's ``meta`` table when it last ticked and when it
last read the whole mailbox.  A tick that finds either older than a match's
outage threshold (its grace, and at least the match file's ``outage.after``)
while that match's deadline passed meanwhile does not close the turn: the
deadline moves by the time lost plus the grace, and every player, the GM and
the observers are told (as DPjudge and njudge do).  Nobody is defaulted for
mail the referee could not read.

Watching is for a referee on the wall clock (``Settings.watch_outages``); a
simulated clock (the demo, most tests) jumps by design.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from referee.authority.matches.spec import outage_of
from referee.authority.schedule import parse_duration
from referee.store.meta import MetaFacts

log = logging.getLogger("referee.outage")
LAST_TICK, LAST_READ = "last_tick", "last_mail_read"
SHORTEST = timedelta(minutes=1)   # the least ``outage.after`` a match file may give


def _moment(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:   # a meta row written by hand: no heartbeat rather than a broken tick
        return None


class Outages:
    def __init__(self, store, renderer, lookups, queue, notices, faults, now, watch: bool = True) -> None:
        self.store, self.renderer, self.lookups, self.queue = store, renderer, lookups, queue
        self.notices, self.faults, self.now, self.watch = notices, faults, now, watch

    # -- heartbeats ----------------------------------------------------------
    def mail_read(self) -> None:
        """The whole mailbox was read just now."""
        with self.store.transaction():
            MetaFacts(self.store).set(LAST_READ, self.now().isoformat())

    def beats(self) -> dict[str, datetime | None]:
        return {k: _moment(MetaFacts(self.store).get(k)) for k in (LAST_TICK, LAST_READ)}

    # -- the check at every tick, before anything closes -----------------------
    def check(self) -> list[tuple[str, int]]:
        """Move the deadlines an outage ran across; then note this tick.  Returns (match, turn) moved."""
        now = self.now()
        beats = self.beats()
        moved: list[tuple[str, int]] = []
        if self.watch and any(t is not None and now - t > SHORTEST for t in beats.values()):
            for match in self.store.matches("running"):
                with self.faults.guarded("tick", match["id"], match["id"]):
                    number = self._check_match(match, beats, now)
                    if number is not None:
                        moved.append((match["id"], number))
        with self.store.transaction():
            MetaFacts(self.store).set(LAST_TICK, now.isoformat())
        return moved

    def _check_match(self, match: dict, beats: dict, now: datetime) -> int | None:
        options = outage_of(match["spec"])
        if not options.extend:
            return None
        turn = self.store.current_turn(match["id"])
        if turn is None or turn["status"] != "open" or not turn["deadline"]:
            return None
        grace = self.lookups.timing(match).schedule.grace
        threshold = max(grace, parse_duration(options.after))
        key = f"outage:{match['id']}:{turn['number']}.{turn['rev']}"
        moved_at = _moment(MetaFacts(self.store).get(key))   # an outage already made up for counts from then
        gaps = {kind: max(t, moved_at) if moved_at else t for kind, t in beats.items() if t is not None}
        gaps = {kind: t for kind, t in gaps.items() if now - t > threshold}
        if not gaps:
            return None
        kind, start = min(gaps.items(), key=lambda kv: (kv[1], kv[0] != LAST_TICK))
        deadline = datetime.fromisoformat(turn["deadline"])
        if not (now >= deadline and start < deadline + grace):
            return None   # the deadline is still ahead, or it closed before the outage began
        if not self.lookups.still_awaited(match["id"], turn) and not self.store.waits(match["id"], turn["number"]):
            return None   # everyone's orders are in: closing loses nobody anything
        new = deadline + (now - start) + grace
        with self.store.transaction():
            current = self.store.current_turn(match["id"])
            if (current["number"], current["rev"], current["deadline"]) != (turn["number"], turn["rev"], turn["deadline"]):
                return None   # another worker moved or closed it meanwhile
            self.store.set_deadline(match["id"], turn["number"], new)
            MetaFacts(self.store).set(key, now.isoformat())
            self._tell(match, "mailbox" if kind == LAST_READ else "service", start, now, deadline)
        log.warning("%s: turn %s: the %s was down since %s; deadline moved to %s", match["id"], turn["number"],
                    "mailbox" if kind == LAST_READ else "referee", start.isoformat(), new.isoformat())
        return turn["number"]

    def _tell(self, match: dict, kind: str, start: datetime, now: datetime, old: datetime) -> None:
        """Every seat, the GM and every observer, each in their language, with the new deadline."""
        match = self.store.match(match["id"])
        turn = self.store.current_turn(match["id"])
        timing = self.lookups.timing(match)
        lang_of = self.lookups.lang_of
        readers = [(p["id"], p["email"], lang_of(match, p), p) for p in self.store.players(match["id"])]
        readers.append(("@gm", match["gm_email"], lang_of(match), None))
        readers += [(None, o["email"], o["lang"] or lang_of(match), None) for o in self.store.observers(match["id"])]
        for viewer, address, lang, player in readers:
            subject, text = self.renderer.mail(
                "outage", lang, **self.notices.status_ctx(match, player), down=kind,
                since=timing.local(start, lang), until=timing.local(now, lang), old_deadline=timing.local(old, lang))
            calendar = self.lookups.calendar_part(match, turn, lang, now) if player is not None else None
            self.queue.queue(f"outage:{match['id']}:{turn['number']}.{turn['rev']}:{now.isoformat()}:"
                             f"{viewer or 'observer:' + address}", match["id"], address, subject, text, calendar=calendar)
