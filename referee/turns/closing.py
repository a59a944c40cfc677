"""Closing turns: reminders, due and early closes, resolution, reports, archive;
and the GM's force, preview and rollback.

Every close goes one way (``close_turn``), whoever asks: a tick in this process, a GM's
force, a close worker (``turns/workers.py``).  It is worked out as a pure plan with nothing
locked (``close_compute``: re-validate, default the missing, resolve with the turn seed,
views, every report with its public parts rendered once per language), its reports (and
the turn's record: orders.yaml, turn.json) written and synced in hidden files of the
turn's folder, then stored in one short transaction (``close_commit``) that checks under
the match's claim that nothing it read has changed, moves the reports into place, adds the
next turn and queues every report under a dedupe key; a close worker's transaction also
ends its claim on the turn (``store.closing.end_claim``), so a claim that expired meanwhile
commits nothing.  If something changed the close is worked out again, the last try (and a
GM's force under a mail's transaction) wholly under the claim.  The record gets its names
after the commit; the turn is flagged archived once those names are durable too: within a
pass, its folder is fsynced with the other closes' in one round and all are flagged in one
transaction (``close_flags.PendingFlags``); a close outside a pass is flagged before it
returns.  So a crash at any point either repeats the whole close (nothing was committed)
or only the record's writing (the repair writes it from what was committed, durably, and
flags it).
"""
from __future__ import annotations

import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime

from referee.archive import staging as archive_close
from referee.authority.gate.bot_orders import BotOrders
from referee.authority.matches.dropouts import Dropouts
from referee.authority.order_mail import schema_url
from referee.authority.wording import Refusal
from referee.game_api.contract import GM, Rng
from referee.outbox.refs import report_name
from referee.pictures import board as pictures
from referee.runtime import crash, gc_policy
from referee.store import bots as bot_rows
from referee.store import closing as close_rows
from referee.turns.commit import CloseCommit, Verdict, committed_record, stripe, turn_json
from referee.turns.compute import CloseCompute, kept_of
from referee.turns.flags import PendingFlags

TRIES = 3   # a close's tries: the last one wholly under the match's claim (nothing can change meanwhile)


@dataclass
class TickReport:
    closed: list[tuple[str, int]] = field(default_factory=list)
    reminded: int = 0
    failed: list[tuple[str, int]] = field(default_factory=list)
    more: bool = False   # the pass stopped at its budget; the next tick goes on where it stopped
    due: list[tuple[str, int]] = field(default_factory=list)   # ``tick(close=False)``: noted, not closed
    bots: int = 0        # bot orders stored by ``play_bots``


class Closing:
    """Everything that ends a turn: the tick's due and early closes and reminders,
    the GM's force, preview and rollback, and writing (and repairing) the archive.
    Its dependencies are all in its constructor, so a worker that only closes
    turns needs nothing else."""

    def __init__(self, store, archive, renderer, lookups, queue, faults, notices, now, allow=None,
                 pictures_later: bool = False, wait=None) -> None:
        self.store, self.archive, self.renderer, self.lookups = store, archive, renderer, lookups
        self.queue, self.faults, self.notices, self.now = queue, faults, notices, now
        # (match_id, forced) -> False holds the close: the close guard and the snapshot before it (Referee)
        self.allow = allow
        self.wait = wait   # () -> None, before each close: the service's closing thread lets mail go first
        # a close worker's closes note their pictures' SVGs here (drawn once its closes are done), not render them
        self.drawn: list[str] | None = [] if pictures_later else None
        self.dropouts = Dropouts(store, renderer, lookups, queue, now)   # issue 18: missed turns counted at each close
        self.compute = CloseCompute(store, renderer, lookups, now)
        self.committer = CloseCommit(self, self.dropouts)
        self.flags = PendingFlags(store, archive, faults)   # turns placed, flagged once their names are durable
        self.bots = BotOrders(store, archive, lookups, faults, now)   # issue 35: bot seats decide in the tick
        self._bots_owe: dict[str, list[dict]] = {}

    _tick_cursor: str | None = None   # the last match a pass cut short by its budget looked at

    @gc_policy.closing_pass()   # fewer collections while a pass allocates (restored after it)
    def tick(self, budget: float | None = None, close: bool = True) -> TickReport:
        """One pass over every running match: close what is due, remind who is late.
        Each match, close, reminder and archive repair in a guard of its own.
        ``budget``: stop after so many seconds and go on from there next time, so
        that the service reads and answers mail while a league closes.
        ``close=False``: the due turns are noted in ``due`` (the close workers close them), not closed."""
        with self.flags.batch():   # the pass's closes flagged together, after one fsync round
            return self._tick(budget, close)

    def _tick(self, budget: float | None, close: bool) -> TickReport:
        report, start = TickReport(), time.monotonic()
        if self._tick_cursor is None:
            self.repair_archive()
        self._bots_owe = bot_rows.undecided(self.store)   # issue 35: one query; empty without bot seats
        now = self.now()
        left = [m for m in self.store.matches("running")
                if self._tick_cursor is None or m["id"] > self._tick_cursor]
        for i, match in enumerate(left):
            with self.faults.guarded("tick", match["id"], match["id"]):
                self._tick_match(match, now, report, close)
            self._tick_cursor = match["id"]
            if budget is not None and i + 1 < len(left) and time.monotonic() - start > budget:
                report.more = True   # at least one match a call: a pass always ends
                return report
        self._tick_cursor = None
        return report

    def _tick_match(self, match: dict, now, report: TickReport, close: bool) -> None:
        turn = self.store.current_turn(match["id"])
        if turn is None or turn["status"] != "open" or not turn["deadline"]:
            return
        timing = self.lookups.timing(match)
        deadline = datetime.fromisoformat(turn["deadline"])
        owed = self._bots_owe.get(match["id"])
        if owed and self._bots_now(match, turn, owed, timing, deadline, now):
            self.bots.play(match["id"], self._bots_owe.pop(match["id"]))
        item = f"{match['id']}:{turn['number']}.{turn['rev']}"
        # past deadline and grace a turn closes whoever is in or waiting: the orders and wait flags
        # are read only when they can matter (a close due "early" or "complete")
        due = timing.close_due(deadline, now, False, True)
        if due is None:
            all_in = not self.lookups.still_awaited(match["id"], turn)
            due = all_in and timing.close_due(deadline, now, True, bool(self.store.waits(match["id"], turn["number"])))
        if due and not close:
            report.due.append((match["id"], turn["number"]))
        elif due:
            with self.faults.guarded("close", item, match["id"], turn["number"]) as guard:
                closed = self.close_turn(match["id"], turn["number"])
            if guard.failed:  # the turn stays open and is tried again next tick
                report.failed.append((match["id"], turn["number"]))
            elif closed is not None:   # its fault, if any, was cleared in the close's transaction
                report.closed.append((match["id"], turn["number"]))
        else:
            with self.faults.guarded("remind", item, match["id"], turn["number"]), self.store.transaction():
                report.reminded += self._remind(match, turn, now, deadline, timing)

    def _bots_now(self, match, turn, owed, timing, deadline, now) -> bool:
        """Whether the match's bots decide in the pass, before its turn is looked at (issue 35): when the
        turn is past its deadline, or waits for nobody but them (an early close then comes at once).
        Else they decide after the pass's closes (``play_bots``), so no close waits for a bot's search."""
        if timing.close_due(deadline, now, False, True) is not None:
            return True
        return set(self.lookups.still_awaited(match["id"], turn)) <= {row["player"] for row in owed}

    def play_bots(self, budget: float | None = None) -> TickReport:
        """Every bot that owes orders for an open turn decides (those of the turns the pass just
        opened too): the turn opening, not its close, pays for the search.  Each match in a guard of
        its own; ``budget``: stop after so many seconds (``more``: the rest next time)."""
        report, start = TickReport(), time.monotonic()
        self._bots_owe = {}
        for match_id, rows in sorted(bot_rows.undecided(self.store).items()):
            if budget is not None and time.monotonic() - start > budget:
                report.more = True
                break
            with self.faults.guarded("tick", match_id, match_id):
                report.bots += self.bots.play(match_id, rows)
        return report

    def _remind(self, match, turn, now, deadline, timing) -> int:
        offset = timing.due_reminder(deadline, now, datetime.fromisoformat(turn["opened"]))
        if offset is None:
            return 0
        count = 0
        names = self.lookups.names(match["id"])
        for pid in self.lookups.still_awaited(match["id"], turn):
            player = self.store.player(match["id"], pid)
            lang = self.lookups.lang_of(match, player)
            rules = self.lookups.rules(match)
            subject, text = self.renderer.mail(
                "reminder", lang, match=self.lookups.match_ctx(match, rules), player=player,
                turn=turn["number"], deadline=self.lookups.deadline_info(match, turn, lang),
                awaited=[names[p]["name"] for p in self.lookups.still_awaited(match["id"], turn)],
                order_form=rules.order_form(rules.load(turn["state"]), pid, lang),
                schema_url=schema_url(self.lookups.settings.site_url, match["id"], turn["awaiting"].get(pid)))
            key = f"remind:{match['id']}:{turn['number']}.{turn['rev']}:{pid}:{int(offset.total_seconds())}"
            count += self.queue.queue(key, match["id"], player["email"], subject, text)
        return count

    # -- closing: the one way every close goes ------------------------------------
    def force(self, match_id: str, meant: int | None = None) -> str:
        """Close the open turn now; ``meant``: the turn the GM saw open (a mailed close)."""
        self.bots.play(match_id)   # issue 35: a bot seat the tick has not looked at yet decides first
        number, just_closed = self._close(match_id, meant, True, None)
        if number is None:
            if just_closed is not None:   # another worker closed it while this one waited for it
                raise Refusal("gm.just_closed", turn=just_closed)
            done = self.store.turn(match_id, meant) if meant is not None else None
            if done is not None and done["status"] != "open":   # closed before the GM's mail was read
                raise Refusal("gm.just_closed", turn=meant)
            raise Refusal("gm.no_open_turn", what="close", what_de="Schließen")
        return f"turn {number} closed"

    def allowed(self, match_id: str, forced: bool = False) -> bool:
        """Whether the close guard lets the match close now (and the pass's snapshot is taken)."""
        return self.allow is None or self.allow(match_id, forced)

    def close_turn(self, match_id: str, number: int | None = None, forced: bool = False,
                   owner: str | None = None) -> int | None:
        """Close and resolve the open turn; None if there is none (already closed;
        ``number``: the turn the caller saw open, which another worker may have closed) or it is held.
        ``owner``: the close worker whose claim on the turn (``store.closing.claim_due``) the commit ends."""
        return self._close(match_id, number, forced, owner)[0]

    def _close(self, match_id: str, number: int | None, forced: bool, owner: str | None) -> tuple[int | None, int | None]:
        """(the turn closed or None, the turn another worker closed under a forced close or None)."""
        if self.wait is not None:
            self.wait()
        if not self.allowed(match_id, forced):
            return None, None
        held = self.store.in_transaction()   # a GM's force by mail: under the mail's transaction
        seen = None   # the open turn the last try worked out
        for attempt in range(TRIES):
            locked = held or attempt == TRIES - 1
            with self.store.transaction() if locked else nullcontext():
                if locked and not self.store.claim_match(match_id, wait=forced):   # another worker is closing it
                    return None, None
                plan = self.compute.plan(match_id, number)
                if plan is None:   # closed meanwhile (after a try that found things changed), or none open
                    return None, seen if forced else None
                seen = plan.turn["number"]
                verdict, placed = self._commit(plan, forced, owner, locked)
            if verdict is None:
                return self._after_commit(match_id, plan, placed), None
            if verdict is Verdict.GONE:
                return None, seen if forced else None
            if verdict is Verdict.BUSY:
                return None, None
        return None, None   # not reached: the last try is under the claim

    def _commit(self, plan, forced: bool, owner: str | None, locked: bool) -> tuple[Verdict | None, bool]:
        """The plan's files staged and synced, then stored in one short transaction if nothing it
        read has changed (``locked``: worked out under the claim, nothing could); what it staged and
        did not place is removed.  (The verdict, whether its reports were placed.)"""
        lock = stripe(self.archive, plan.match["id"], plan.turn["number"])
        # under the store's lock the stripe only if free: waiting for it there could wait for ever
        got = lock.acquire(blocking=not locked)
        staged = None
        try:
            if got:
                staged = self.committer.stage(plan)
            if not locked:
                crash.point("close.staged")
            with self.store.transaction():
                verdict = None if locked else self.committer.check(plan, forced)
                if verdict is None and owner is not None and not close_rows.end_claim(self.store, plan.match["id"], owner):
                    verdict = Verdict.GONE   # the claim expired and another worker holds the turn now
                if verdict is None:
                    self.committer.store_plan(plan, staged)
        finally:
            archive_close.discard_staged(staged or [])   # what was not placed (a close given up)
            if got:
                lock.release()
        return verdict, staged is not None

    def _after_commit(self, match_id: str, plan, placed: bool) -> int:
        """``placed``: the close's reports are in the archive (else the stored result holds them)."""
        crash.point("close.committed")
        number = plan.turn["number"]
        svgs = plan.result["pictures"].values()
        if self.drawn is None:
            pictures.prerender(svgs)   # PNGs made on another core while this one goes on
        else:
            self.drawn.extend(svgs)   # a close worker draws them once its closes are done
        # the turn stands whatever happens to its archive; the next tick writes it again
        named = False
        with self.faults.guarded("archive", f"{match_id}:{number}", match_id, number):
            if placed and archive_close.place_record(self.archive, match_id, number):   # staged with the reports
                named = True
            else:
                self.archive_turn(match_id, number, committed=committed_record(plan) if placed else None)
        if named:   # flagged once its folder is fsynced: at the pass's end, or now outside a pass
            self.flags.add(match_id, number)
        return number

    # -- archive --------------------------------------------------------------
    def archive_turn(self, match_id: str, number: int, committed: tuple[dict, dict] | None = None) -> None:
        """Write the turn's record (orders.yaml, turn.json) after its commit; its reports are
        in the archive already, unless the disk refused them at the close: then the stored
        result holds their bodies until they are written here.  ``committed``: (turn, result)
        as the close just stored them (``committed_record``), not read back from the store."""
        turn, result = committed if committed is not None else (t := self.store.turn(match_id, number), t["result"])
        reports = {}
        for who, m in result["mails"].items():
            if "text" in m:
                name = report_name(who, m["lang"])
                reports[f"{name}.txt"], reports[f"{name}.html"] = m["text"], m["html"]
        self.archive.write_turn(match_id, number, result["orders"], turn_json(match_id, number, turn, result),
                                reports)   # durable when it returns
        kept = None
        if reports:   # what the store keeps: no report bodies, the archive has them now
            kept = dict(result, mails=kept_of(result["mails"]))
            if self.store.turn(match_id, number + 1) is not None:   # the next turn holds the state
                kept.pop("state", None)
        self._archived(match_id, number, kept)

    def _archived(self, match_id: str, number: int, kept: dict | None) -> None:
        """Flag the turn archived (its files durable already), ``kept``: its result without bodies."""
        crash.point("archive.written")
        with self.store.transaction():
            self.store.set_archived(match_id, number, kept)

    def repair_archive(self) -> None:
        """Write what a crash (or a full disk) kept from the archive; retried every tick."""
        for row in self.store.take_unarchived():
            item = f"{row['match']}:{row['number']}"
            with self.faults.guarded("archive", item, row["match"], row["number"]) as guard:
                self.archive_turn(row["match"], row["number"])
            if not guard.failed:
                self.store.clear_fault("archive", item)

    # -- GM: preview and rollback ------------------------------------------------
    def preview(self, match_id: str, tag: str | None = None) -> str:
        """Resolve the open turn as it stands, persist nothing, mail the GM's report to the GM."""
        with self.store.transaction():
            match = self.store.match(match_id)
            turn = self.store.current_turn(match_id)
            if turn["status"] != "open":
                raise Refusal("gm.no_open_turn", what="preview", what_de="Vorausschauen")
            rules = self.lookups.rules(match)
            state = rules.load(turn["state"])
            orders, _, missing = self.compute.orders_for(rules, state, match_id, turn)
            res = rules.resolve(state, orders, Rng(turn["seed"]))
            m = self.compute.render(match, turn, rules, res, missing, None, GM, self.lookups.lang_of(match))
            self.queue.queue(f"preview:{match_id}:{turn['number']}.{turn['rev']}:{tag or self.now().isoformat()}",
                             match_id, match["gm_email"], "[preview] " + m["subject"], m["text"], m["html"],
                             picture=m.get("picture"))
        return f"preview of turn {turn['number']} sent to the GM"

    def rollback(self, match_id: str) -> str:
        """Undo the last resolved turn: it opens again (paused, orders kept), the next one is dropped."""
        with self.store.transaction():
            resolved = [t for t in self.store.turns(match_id) if t["status"] == "resolved"]
            if not resolved:
                raise Refusal("gm.no_resolved_turn")
            last = resolved[-1]
            current = self.store.current_turn(match_id)
            # the deadline the GM gave the dropped turn (an extend since) stays; without one a fresh one on resume
            deadline = None
            if current["number"] == last["number"] + 1:
                deadline = datetime.fromisoformat(current["deadline"]) if current["deadline"] else None
                self.store.delete_turn(match_id, current["number"])
            self.store.reopen_turn(match_id, last["number"], deadline=deadline)
            self.store.set_match_status(match_id, "paused", paused_at=self.now())
            self.notices.notify_all(match_id, "rolled_back")
        self.archive.set_aside(match_id, last["number"], last["rev"])
        return f"turn {last['number']} is open again; the match is paused until you resume it"

