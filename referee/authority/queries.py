"""Read-only views for the CLI (``referee status``) and the service's log."""
from __future__ import annotations

from datetime import datetime


class Queries:
    def __init__(self, store, lookups, faults, now) -> None:
        self.store, self.lookups, self.faults, self.now = store, lookups, faults, now

    def overview(self) -> list[dict]:
        """One line's worth per match: status, turn, deadline, who is awaited."""
        out = []
        for match in self.store.matches():
            turn = self.store.current_turn(match["id"])
            subs = self.store.submissions(match["id"], turn["number"]) if turn else {}
            try:
                info = self.lookups.deadline_info(match, turn) if turn and turn["status"] == "open" else None
            except Exception:  # a match whose schedule fails is shown, flagged, not the end of the list
                info = None
            out.append({
                "id": match["id"], "game": match["game"], "version": match["version"], "status": match["status"],
                "turn": turn["number"] if turn else None,
                "deadline": info["local"] if info else None, "deadline_utc": info["at"] if info else None,
                "awaiting": sorted(p for p in (turn["awaiting"] if turn else {}) if p not in subs),
                "in": sorted(subs), "waiting": sorted(self.store.waits(match["id"], turn["number"])) if turn else [],
                "outbox_queued": len(self.store.outbox(match["id"], status="queued")),
                "outbox_failed": len(self.store.outbox(match["id"], status="failed")),
                "faults": self.store.faults(match["id"]),
            })
        return out

    def set_aside(self) -> dict:
        """What was set aside after unexpected errors, for ``referee status``:
        faults per stage (all matches and none) and failed outbox rows."""
        by_stage: dict[str, int] = {}
        for fault in self.store.faults():
            by_stage[fault["stage"]] = by_stage.get(fault["stage"], 0) + 1
        return {"faults": by_stage, "outbox_failed": len(self.store.outbox(status="failed"))}

    def next_due(self) -> datetime | None:
        """The earliest moment a tick has something to do (a deadline end or a reminder), for a sleeping loop."""
        moments = []
        for match in self.store.matches("running"):
            with self.faults.guarded("next_due", match["id"], match["id"]):  # one broken match sleeps no one else
                turn = self.store.current_turn(match["id"])
                if turn and turn["status"] == "open" and turn["deadline"]:
                    deadline = datetime.fromisoformat(turn["deadline"])
                    timing = self.lookups.timing(match)
                    moments.append(deadline + timing.schedule.grace)
                    reminder = timing.schedule.next_reminder(deadline, opened_at=datetime.fromisoformat(turn["opened"]))
                    if reminder is not None and reminder > self.now():
                        moments.append(reminder)
        return min(moments) if moments else None
