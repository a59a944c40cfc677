"""What every part of the authority shares: store, archive, renderer, clock,
the queueing of outgoing mail, and small look-ups on a match."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Mapping

from referee import checks, pictures, registry
from referee.archive import Archive
from referee.authority.timing import Timing
from referee.calendar import deadline_ics
from referee.contract import GameRules
from referee.mail.compose import compose
from referee.mail.wire import compose_bytes, envelope_of
from referee.render import Renderer


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Settings:
    address: str = "referee@localhost"          # From: of every mail, and where players write
    gm_keys: Mapping[str, str] = field(default_factory=dict)  # address -> key allowed to create matches
    rate_limit_per_hour: int = 30
    default_lang: str = "en"

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"


class Base:
    def __init__(self, store, archive_root: str | Path, renderer: Renderer | None = None,
                 clock: Callable[[], datetime] | None = None, settings: Settings | None = None,
                 intake=None) -> None:
        self.store = store
        self.archive = Archive(Path(archive_root))
        self.renderer = renderer or Renderer()
        self.clock = clock or utcnow
        self.settings = settings or Settings()
        self._intake = intake
        self._states: dict[tuple, object] = {}
        self._timings: dict[str, Timing] = {}

    @property
    def intake(self):
        if self._intake is None:
            import referee.intake as intake_module
            self._intake = intake_module
        return self._intake

    def now(self) -> datetime:
        t = self.clock()
        if t.tzinfo is None:
            raise ValueError("the clock must return aware datetimes")
        return t.astimezone(timezone.utc)

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

    def calendar_part(self, match: dict, turn: dict | None, lang: str, ended: bool = False) -> str | None:
        """The next deadline as an .ics part (referee/calendar.py), cancelled once
        the match has ended; None while no deadline runs (a paused match)."""
        deadline = datetime.fromisoformat(turn["deadline"]) if turn and turn.get("deadline") else None
        if deadline is None and not ended:
            return None
        spec = match["spec"]
        return deadline_ics(match_id=match["id"], title=spec.get("title") or self.rules(match).title,
                            turn=turn["number"] if turn else None, deadline=deadline,
                            zone=spec.get("timezone") or "UTC", organizer=self.settings.address,
                            domain=self.settings.domain, issued=self.now(), lang=lang,
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

    def still_awaited(self, match_id: str, turn: dict) -> list[str]:
        subs = self.store.submitted(match_id, turn["number"])  # ids only: no orders decoded
        return [p for p in turn["awaiting"] if p not in subs]

    # -- outgoing mail ------------------------------------------------------
    def queue(self, dedupe: str, match_id: str | None, to: str, subject: str, text: str,
              html: str | None = None, *, reply_to=None, auto: str = "auto-generated",
              picture: str | None = None, calendar: str | None = None) -> bool:
        """Queue a rendered message once per dedupe key.  The outbox keeps the
        rendered parts; the MIME message is assembled when it is sent.  Its
        Message-ID follows from the dedupe key, so a message rebuilt after a
        crash is the same message.  ``picture`` is the board's SVG (kept as
        text, turned into PNG when sent; the HTML names it ``cid:board-picture``),
        ``calendar`` an iCalendar part."""
        digest = hashlib.sha256(dedupe.encode()).hexdigest()[:32]
        parts = {"from": self.settings.address, "to": to, "subject": subject, "text": text, "html": html,
                 "auto": auto, "date": self.now().isoformat(),
                 # the match in the id: a reply to this mail names it in In-Reply-To (the [match] tag of a refusal)
                 "message_id": f"<{digest}{'.' + match_id if match_id else ''}@{self.settings.domain}>",
                 "in_reply_to": None, "references": []}
        if picture is not None:
            cid = f"board.{digest}@{self.settings.domain}"
            parts.update(picture=picture, picture_cid=f"<{cid}>",
                         html=html.replace(PICTURE_CID, f"cid:{cid}") if html is not None else None)
        if calendar is not None:
            parts["calendar"] = calendar
        if reply_to is not None:  # only ids that can go into a header: the sender wrote them
            refs = [r for r in reply_to.references if checks.message_id(r)]
            parts.update(auto="auto-replied", references=refs,
                         in_reply_to=reply_to.message_id if checks.message_id(reply_to.message_id) else None)
        data = json.dumps(parts, ensure_ascii=False).encode("utf-8")
        return self.store.enqueue(dedupe, match_id, to, data, self.now())

    def wire_message(self, data: bytes) -> tuple[bytes, str, list[str]]:
        """(wire bytes, MAIL FROM, RCPT TO) of a queued entry: the very bytes
        ``build_message`` would serialise to, made without EmailMessage."""
        p = json.loads(data)
        raw = compose_bytes(p["from"], p["to"], p["subject"], p["text"], p["html"], auto=p["auto"],
                            domain=self.settings.domain, message_id=p["message_id"],
                            date=datetime.fromisoformat(p["date"]), in_reply_to=p["in_reply_to"],
                            references=p["references"], **_extras(p))
        return (raw, *envelope_of(p["from"], [p["to"]]))

    def build_message(self, data: bytes):
        """The outgoing message (``EmailMessage``, SMTP policy) from a queued entry."""
        p = json.loads(data)
        return compose(p["from"], p["to"], p["subject"], p["text"], p["html"], auto=p["auto"],
                       domain=self.settings.domain, message_id=p["message_id"],
                       date=datetime.fromisoformat(p["date"]), in_reply_to=p["in_reply_to"],
                       references=p["references"], **_extras(p))


PICTURE_CID = "cid:board-picture"   # what a report's HTML calls the picture until it is queued


def _extras(p: dict) -> dict:
    """The picture (PNG, rendered from the queued SVG) and calendar parts of a queued message."""
    png = pictures.cached_png(p["picture"]) if p.get("picture") else None
    return {"picture": png, "picture_cid": p.get("picture_cid") if png else None, "calendar": p.get("calendar")}
