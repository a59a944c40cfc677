"""The close guard: a turn about to close with many more players missing than
usual is held, and the GM asked to close it as it stands or to extend.

Eressea aborts such runs: a whole table silent at once is more often a lost
mailbox, a broken mail route or a wrong deadline than a table that gave up.
The threshold is the match file's ``close_guard:`` (default: more than half of
the awaited players missing where the last turn had everyone in).  A held turn
shows in ``referee status`` (a ``held`` line) until it closes or its deadline
moves; the GM's ``close`` (by mail or ``referee gm MATCH close``) closes it.
"""
from __future__ import annotations

import json
import logging

from referee.authority.matches.spec import close_guard_of
from referee.store.meta import MetaFacts

log = logging.getLogger("referee.close_guard")
STAGE = "held"   # the row in the faults table that ``referee status`` shows


def _key(match_id: str) -> str:
    return f"held:{match_id}"


class CloseGuard:
    def __init__(self, store, renderer, lookups, queue, now) -> None:
        self.store, self.renderer, self.lookups, self.queue, self.now = store, renderer, lookups, queue, now

    def allows(self, match_id: str, forced: bool = False) -> bool:
        """May the open turn of ``match_id`` close now?  A close the GM asked for always may."""
        turn = self.store.current_turn(match_id)
        if turn is None or turn["status"] != "open":
            return True
        if forced:
            self.release(match_id)
            return True
        match = self.store.match(match_id)
        options = close_guard_of(match["spec"])
        awaited = [p for p in turn["awaiting"] if not p.startswith("@")]   # the GM's own stages are not counted
        missing = [p for p in self.lookups.still_awaited(match_id, turn) if not p.startswith("@")]
        # the share is of the whole table: in a stage that awaits only some players (one player's
        # plan, a retreat) their silence is no sign of a lost mailbox or a broken route
        # (the seats are read only when the awaited alone do not settle it: most closes have everyone in)
        if not options.hold or not awaited or len(missing) <= options.missing_share * len(awaited) \
                or len(missing) <= options.missing_share * len(self.store.player_names(match_id)):
            self.release(match_id)
            return True
        before = self.store.turn(match_id, turn["number"] - 1)
        if before is None or before["status"] != "resolved" or not before["result"]:
            return True   # no usual to compare with (the first turn)
        usual = [p for p in before["result"].get("missing", []) if not p.startswith("@")]
        if len(usual) > options.usual_missing:
            return True
        self._hold(match, turn, awaited, missing, len(usual))
        return False

    def _hold(self, match: dict, turn: dict, awaited: list, missing: list, usual: int) -> None:
        stamp = f"{turn['number']}.{turn['rev']}:{turn['deadline']}"
        with self.store.transaction():
            held = MetaFacts(self.store).get(_key(match["id"]))
            if held is not None and json.loads(held).get("stamp") == stamp:
                return   # held already; the GM was asked once
            now = self.now()
            MetaFacts(self.store).set(_key(match["id"]), json.dumps({"stamp": stamp, "turn": turn["number"],
                                                               "since": now.isoformat(), "missing": missing}))
            for fault in self.store.faults(match["id"]):
                if fault["stage"] == STAGE:   # a hold of an earlier deadline
                    self.store.clear_fault(STAGE, fault["item"])
            self.store.note_fault(STAGE, f"{match['id']}:{turn['number']}.{turn['rev']}", match["id"],
                                  f"close held: {len(missing)} of {len(awaited)} awaited sent no orders; "
                                  "the GM decides (close or extend)", now)
            names = self.lookups.names(match["id"])
            lang = self.lookups.lang_of(match)
            subject, text = self.renderer.mail(
                "close_held", lang, match=self.lookups.match_ctx(match, self.lookups.rules(match)),
                turn=turn["number"], missing=[names[p]["name"] for p in missing if p in names],
                awaited=len(awaited), usual=usual, deadline=self.lookups.deadline_info(match, turn, lang))
            self.queue.queue(f"close_held:{match['id']}:{stamp}", match["id"], match["gm_email"], subject, text)
        log.warning("%s: turn %s held: %d of %d awaited missing", match["id"], turn["number"], len(missing),
                    len(awaited))

    def held(self, match_id: str) -> dict | None:
        """The hold on the match's open turn, if one stands (its deadline unchanged since)."""
        held = MetaFacts(self.store).get(_key(match_id))
        if held is None:
            return None
        data = json.loads(held)
        turn = self.store.current_turn(match_id)
        if turn is None or turn["status"] != "open" or data.get("stamp") != f"{turn['number']}.{turn['rev']}:{turn['deadline']}":
            return None
        return data

    def release(self, match_id: str) -> None:
        rows = [f for f in self.store.faults(match_id) if f["stage"] == STAGE]
        if MetaFacts(self.store).get(_key(match_id)) is None and not rows:
            return
        with self.store.transaction():
            MetaFacts(self.store).delete(_key(match_id))
            for fault in rows:
                self.store.clear_fault(STAGE, fault["item"])

    def sweep(self) -> None:
        """Drop holds that no longer stand: the turn closed, was rolled back, or the GM moved its deadline."""
        for fault in self.store.faults():
            if fault["stage"] == STAGE and fault["match"] and self.held(fault["match"]) is None:
                self.release(fault["match"])

