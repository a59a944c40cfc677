"""What every part of the authority shares: store, archive, renderer, clock,
the queueing of outgoing mail, and small look-ups on a match."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Mapping

from referee import checks, registry
from referee.archive import Archive
from referee.authority.timing import Timing
from referee.contract import GameRules
from referee.mail.compose import compose
from referee.mail.wire import compose_bytes, envelope_of
from referee.render import Renderer, inline_styles


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
              html: str | None = None, *, reply_to=None, auto: str = "auto-generated", report: dict | None = None) -> bool:
        """Queue a rendered message once per dedupe key.  The outbox keeps the
        rendered parts; the MIME message is assembled when it is sent.  Its
        Message-ID follows from the dedupe key, so a message rebuilt after a
        crash is the same message.  ``report``: the row names a turn's report
        (``closing.report_ref``) whose body is read from the archive when sent."""
        digest = hashlib.sha256(dedupe.encode()).hexdigest()[:32]
        parts = {"from": self.settings.address, "to": to, "subject": subject, "text": text, "html": html,
                 "auto": auto, "message_id": f"<{digest}@{self.settings.domain}>", "date": self.now().isoformat(),
                 "in_reply_to": None, "references": []}
        if report is not None:
            parts.update(report=report, text=None, html=None)
        if reply_to is not None:  # only ids that can go into a header: the sender wrote them
            refs = [r for r in reply_to.references if checks.message_id(r)]
            parts.update(auto="auto-replied", references=refs,
                         in_reply_to=reply_to.message_id if checks.message_id(reply_to.message_id) else None)
        data = json.dumps(parts, ensure_ascii=False).encode("utf-8")
        return self.store.enqueue(dedupe, match_id, to, data, self.now())

    def wire_message(self, data: bytes) -> tuple[bytes, str, list[str]]:
        """(wire bytes, MAIL FROM, RCPT TO) of a queued entry: the very bytes
        ``build_message`` would serialise to, made without EmailMessage."""
        p = self._parts(data)
        raw = compose_bytes(p["from"], p["to"], p["subject"], p["text"], p["html"], auto=p["auto"],
                            domain=self.settings.domain, message_id=p["message_id"],
                            date=datetime.fromisoformat(p["date"]), in_reply_to=p["in_reply_to"],
                            references=p["references"])
        return (raw, *envelope_of(p["from"], [p["to"]]))

    def build_message(self, data: bytes):
        """The outgoing message (``EmailMessage``, SMTP policy) from a queued entry."""
        p = self._parts(data)
        return compose(p["from"], p["to"], p["subject"], p["text"], p["html"], auto=p["auto"],
                       domain=self.settings.domain, message_id=p["message_id"],
                       date=datetime.fromisoformat(p["date"]), in_reply_to=p["in_reply_to"],
                       references=p["references"])

    def _parts(self, data: bytes) -> dict:
        """A queued entry's parts with a report's body filled in and the HTML's
        style sheet written inline (mail clients drop style sheets)."""
        p = json.loads(data)
        if p.get("report"):
            p["text"], p["html"] = self.report_body(p["report"])
        if p["html"]:
            p["html"] = inline_styles(p["html"])
        return p

    def report_body(self, ref: dict) -> tuple[str, str | None]:
        """(text, HTML) of a turn's report: from the archive, or, until the archive
        holds it, from the turn's result."""
        text = self.archive.read_report(ref["match"], ref["turn"], ref["rev"], ref["name"] + ".txt")
        if text is not None:
            return text, self.archive.read_report(ref["match"], ref["turn"], ref["rev"], ref["name"] + ".html")
        turn = self.store.turn(ref["match"], ref["turn"])
        m = (turn["result"] or {}).get("mails", {}).get(ref["who"], {}) if turn and turn["rev"] == ref["rev"] else {}
        if "text" not in m:
            raise LookupError(f"report {ref['name']} of {ref['match']} turn {ref['turn']}.{ref['rev']} is nowhere")
        return m["text"], m["html"]
