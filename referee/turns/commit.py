"""The close's short write transaction (issue 8).  A close worked out by
``close_compute`` is stored only if, under the match's claim, everything it read
is still so (``store.closing.inputs``): then its staged reports move into the
archive, the next turn is added, missed turns counted, every report queued and
the result stored, without any report body (the archive holds them).  Else the
caller works the close out again, or gives way to the worker that closed it."""
from __future__ import annotations

import threading
import zlib
from enum import Enum

from referee.archive import staging as archive_close
from referee.authority.matches.absence import tell_moved
from referee.game_api import fastjson
from referee.outbox.refs import report_ref
from referee.runtime import crash
from referee.store import closing as close_rows
from referee.store.rows import encoded_parts, joined
from referee.turns.compute import Plan


class Verdict(Enum):
    CLOSED = "closed"      # stored and committed
    GONE = "gone"          # the turn worked out is not the open one any more (another worker closed it)
    CHANGED = "changed"    # still open, but what the close read has changed since: work it out again
    BUSY = "busy"          # another worker holds the match: it is closing it (a tick gives way)


# Two threads of one process closing one turn would share the staged files' names (they are
# named per process): a lock per turn folder, striped, keeps them apart.
_STRIPES = [threading.RLock() for _ in range(64)]


def stripe(archive, match_id: str, number: int) -> threading.RLock:
    return _STRIPES[zlib.crc32(str(archive.turn_dir(match_id, number)).encode()) % len(_STRIPES)]


def turn_json(match_id: str, number: int, turn, result) -> dict:
    """What a turn's turn.json holds, of its stored turn and result."""
    return {"match": match_id, "turn": number, "rev": turn["rev"], "seed": turn["seed"],
            "hash": result["hash"], "log": result["log"], "outcome": result["outcome"],
            "missing": result["missing"], "closed": turn["closed"]}


class CloseCommit:
    """Stores a worked-out close; ``parts`` is the ``Closing`` (store, look-ups,
    queue, renderer, notices and clock, for the absence notices)."""

    def __init__(self, parts, dropouts) -> None:
        self.parts, self.dropouts = parts, dropouts
        self.store, self.archive, self.queue = parts.store, parts.archive, parts.queue

    def stage(self, plan: Plan, wait: bool = True) -> archive_close.Staged | None:
        """Write the close's reports next to their places in the archive, synced (the store will
        not hold them); None when the disk refuses them (a write or a sync): the bodies then stay
        in the stored result until ``archive_turn`` writes them.  ``wait=False``: the sync begun,
        not waited for (``synced`` waits)."""
        plan.result_parts = encoded_parts(plan.result)   # encoded once: the record's now, stored by store_plan
        record = committed_record(plan)   # the turn's record as archive_turn writes it: staged and synced too
        if record is not None:
            turn, result = record
            record = result["orders"], turn_json(plan.match["id"], plan.turn["number"], turn, result)
        try:
            return archive_close.stage_reports(self.archive, plan.match["id"], plan.turn["number"], plan.reports(),
                                               record, wait=wait)
        except OSError:
            return None

    @staticmethod
    def synced(staged: archive_close.Staged | None) -> archive_close.Staged | None:
        """``staged`` once its sync is done (``stage(wait=False)``); None if the disk refused it
        (its files removed), as ``stage`` gives."""
        if staged is None:
            return None
        try:
            staged.synced()
        except OSError:
            return None
        return staged

    def check(self, plan: Plan, forced: bool) -> Verdict | None:
        """Claim the match and compare; None: the close may be stored (call in a transaction)."""
        match_id = plan.match["id"]
        if not self.store.claim_match(match_id, wait=False):
            if not forced:
                return Verdict.BUSY
            self.store.claim_match(match_id, wait=True)   # the GM's close waits for the other worker's
        if close_rows.inputs(self.store, match_id) == plan.inputs:
            return None   # the match's row and its newest turn too: still the open turn worked out
        turn = self.store.current_turn(match_id)
        match = self.store.match(match_id)
        if match is None or turn is None or match["status"] == "ended" or turn["status"] != "open" \
                or turn["number"] != plan.turn["number"]:
            return Verdict.GONE
        return Verdict.CHANGED

    def store_plan(self, plan: Plan, staged: archive_close.Staged | None) -> None:
        """Everything the close writes, in the caller's transaction, the match claimed and checked."""
        match, turn, match_id = plan.match, plan.turn, plan.match["id"]
        if staged is not None:
            archive_close.place_staged(staged)
        crash.point("close.placed")
        if plan.ended:
            self.store.set_match_status(match_id, "ended")
        else:
            self.store.add_turn(**plan.next_turn)
            tell_moved(self.parts, match_id, plan.away)   # issue 18: a deadline moved past an absence, everyone told
        self.dropouts.after_close(match, turn, plan.missing)
        tag = f"{match_id}:{turn['number']}.{turn['rev']}"
        with self.store.enqueue_batch():   # the close's reports in one statement, not one each
            for key, to, who, calendar in plan.sends:
                m = plan.mails[who]
                # the row names the report: its body is sent from the archive, its picture from the result
                self.queue.queue(f"report:{tag}:{key}", match_id, to, m["subject"], "", None, calendar=calendar,
                                 report=report_ref(match_id, turn["number"], turn["rev"], who, m), page=m.get("page"))
        # each entry encoded once (by stage, for the record it staged): stored joined, and read back
        # for the turn's record (committed_record); a close whose staging the disk refused keeps the bodies
        if staged is None or not plan.result_parts:
            plan.result_parts = encoded_parts(plan.result if staged is not None else dict(plan.result, mails=plan.mails))
        self.store.resolve_turn(match_id, turn["number"], joined(plan.result_parts), plan.now)
        self.store.clear_fault("close", tag)   # here, not in a transaction of its own after the close
        crash.point("close.before_commit")


def committed_record(plan) -> tuple[dict, dict] | None:
    """(turn, result) of a close whose reports were placed, as ``archive_turn`` would read them
    back from the store: the turn's rev, seed and closed text, and the result's parts the
    record holds through the store's JSON (key order, lists for tuples, str keys), without
    the state and pictures that the record does not hold (not decoded again).  None if the
    result holds a report body (the store's copy is then read and rewritten without it)."""
    r = plan.result
    if any("text" in m for m in r["mails"].values()):
        return None
    # the record's parts alone, read back from the texts the store was given (store_plan encoded each
    # entry once): cheaper than decoding the stored text, which holds the pictures' SVGs as well
    parts = getattr(plan, "result_parts", None)   # a record worked out apart from a close has none
    result = fastjson.loads(joined({k: parts[k] for k in _RECORDED}) if parts
                            else fastjson.dumps_sorted({k: r[k] for k in _RECORDED}))
    return {"rev": plan.turn["rev"], "seed": plan.turn["seed"], "closed": close_rows.stored_time(plan.now)}, result


_RECORDED = ("orders", "hash", "log", "outcome", "missing", "mails")   # what archive_turn reads of a result
