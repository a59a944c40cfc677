"""What every part of the authority shares: the settings, the clock (``aware``)
and small look-ups on a match (``Lookups``)."""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from referee.authority.timing import Timing
from referee.game_api import registry
from referee.game_api.contract import GameRules
from referee.mail.senderauth import Trust


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class Settings:
    address: str = "referee@localhost"          # From: of every mail, and where players write
    gm_keys: Mapping[str, str] = field(default_factory=dict)  # address -> key allowed to create matches
    rate_limit_per_hour: int = 30
    default_lang: str = "en"
    # -- hardening (issue 13, ops) --
    watch_outages: bool = False   # move deadlines an outage ran across (on for a wall-clock referee: app.py)
    auto_backup: object = None    # a referee.store.backup_auto.AutoBackup: a snapshot before every close (None: off)
    # issue 13: what the operator trusts of a sender (referee.yaml authentication/strangers)
    trust: Trust = field(default_factory=Trust)
    site_url: str | None = None   # public address of the match sites (order forms name their schemas)

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"


def aware(clock: Callable[[], datetime] | None) -> Callable[[], datetime]:
    """``now()`` of every part: the clock's time in UTC; a naive time is refused."""
    clock = clock or utcnow

    def now() -> datetime:
        t = clock()
        if t.tzinfo is None:
            raise ValueError("the clock must return aware datetimes")
        return t.astimezone(UTC)
    return now


class Lookups:
    """Small read-only look-ups on a match, with the caches they keep (parsed
    schedules, the states turns opened with); every part that words a mail or
    judges a deadline asks this one object."""

    def __init__(self, store, settings: Settings) -> None:
        self.store, self.settings = store, settings
        self._states: dict[tuple, object] = {}
        self._timings: dict[str, Timing] = {}

    # -- look-ups ---------------------------------------------------------
    def rules(self, match: dict) -> GameRules:
        return registry.get(match["game"])

    def timing(self, match: dict) -> Timing:
        spec = match["spec"]
        args = (spec.get("schedule") or {}, spec.get("timezone", "UTC"), spec.get("early_close", True))
        key = json.dumps(args, sort_keys=True, default=str)
        timing = self._timings.get(key)
        if timing is None:  # a schedule is validated once, not on every mail
            timing = self._timings[key] = Timing(*args)
        return timing

    def lang_of(self, match: dict, player: dict | None = None) -> str:
        if player is not None and player.get("lang"):
            return player["lang"]
        return match["spec"].get("language") or self.settings.default_lang

    def deadline_info(self, match: dict, turn: dict, lang: str | None = None) -> dict | None:
        if not turn or not turn.get("deadline"):
            return None
        t = datetime.fromisoformat(turn["deadline"])
        timing, lang = self.timing(match), lang or self.lang_of(match)
        return {"local": timing.local(t, lang), "utc": timing.utc(t, lang), "at": t}

    def calendar_part(self, match: dict, turn: dict | None, lang: str, issued: datetime,
                      ended: bool = False) -> str | None:
        """The next deadline as an .ics part (referee/render/calendar.py), cancelled once
        the match has ended; None while no deadline runs (a paused match)."""
        deadline = datetime.fromisoformat(turn["deadline"]) if turn and turn.get("deadline") else None
        if deadline is None and not ended:
            return None
        from referee.render.calendar import deadline_ics  # icalendar only where a mail carries a deadline

        spec = match["spec"]
        return deadline_ics(match_id=match["id"], title=spec.get("title") or self.rules(match).title,
                            turn=turn["number"] if turn else None, deadline=deadline,
                            zone=spec.get("timezone") or "UTC", organizer=self.settings.address,
                            domain=self.settings.domain, issued=issued, lang=lang,
                            reminder=min(self.timing(match).schedule.reminders, default=None), ended=ended)

    def turn_state(self, rules, match_id: str, turn: dict):
        """The game state a turn opened with, loaded once per turn (it never
        changes while the turn is open); for reading only — closing loads its own.
        A hit must also match the stored text: after a rollback the next turn is
        made again under the same number and rev, maybe by another process."""
        key = (match_id, turn["number"], turn["rev"], rules.name, rules.version)
        raw = turn.raw("state") if hasattr(turn, "raw") else None
        held = self._states.get(key)
        if held is not None and raw is not None and held[0] == raw:
            return held[1]
        state = rules.load(turn["state"])
        if raw is not None:
            if len(self._states) > 64:
                self._states.clear()
            self._states[key] = (raw, state)
        return state

    def names(self, match_id: str) -> dict[str, dict]:
        return {pid: {"name": name} for pid, name in self.store.player_names(match_id).items()}

    def match_ctx(self, match: dict, rules) -> dict:
        spec = match["spec"]
        return {"id": match["id"], "title": spec.get("title") or rules.title, "game": match["game"],
                "lang": spec.get("language", "en"), "timezone": spec.get("timezone", "UTC")}

    def still_awaited(self, match_id: str, turn: dict) -> list[str]:
        subs = self.store.submitted(match_id, turn["number"])  # ids only: no orders decoded
        return [p for p in turn["awaiting"] if p not in subs]
