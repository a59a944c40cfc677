"""The service loop: mail in, deadlines, outbox — until told to stop.

One cycle: read every waiting mail (each handled and committed before it is
marked done at the source), close what is due, send the outbox.  Between
cycles it waits on the source (IMAP IDLE wakes it at once) at most until the
next deadline or the poll interval.

``close_apart``: ``run`` closes turns apart from the mail loop, so a league
whose deadlines fall together never holds up the answer to a mail; the loop
then only reads mail and sends.  A thread of its own, on a connection of its
own to the store (a second ``Referee``: all shared state is in the store),
decides what is due and reminds; the closes themselves run in ``close_workers``
worker processes (``referee/turns/workers.py``; default one per core), which claim the due turns in the store, so they
neither hold this process's interpreter lock nor its core; once a pass's closes
are done the workers make its board pictures' PNGs (``close_pictures``), and a report this loop
sends before its PNG is made renders it here.  ``close_workers=0``:
the thread closes the turns itself.  A close is one transaction either way; a
mail being handled goes first between two closes (``_mail_first``, shared with
the workers).
"""
from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime

from referee.mail.errors import MailError
from referee.mail.inbound import MAX_BYTES, parse_inbound
from referee.mail.source import incoming_of

log = logging.getLogger("referee")
WAIT_SLICE = 5.0  # seconds: how soon a stop request is noticed while idling
WORK_SLICE = 1.0  # seconds of closing, then of sending, before the mailbox is read again
SEND_SLICE = 0.25  # seconds of sending between mailbox reads while turns close apart


CRON_POOL_FROM = 48   # turns past their deadline from which ``referee tick`` starts close workers: two workers
# take ~2 s to start (imports, templates, fonts) and save ~50 ms of wall a turn (close, picture, mail) on two cores


def past_deadline(referee, enough: int) -> int:
    """Open turns of running matches whose deadline has passed, counted up to ``enough``."""
    now, count = referee.now(), 0
    for match in referee.store.matches("running"):
        turn = referee.store.current_turn(match["id"])
        if turn is not None and turn["status"] == "open" and turn["deadline"] \
                and datetime.fromisoformat(turn["deadline"]) <= now:
            count += 1
            if count >= enough:
                break
    return count


@dataclass
class CycleReport:
    mails: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    closed: list = field(default_factory=list)
    sent: int = 0
    more: bool = False   # closes or mail left for the next cycle: no idling


class Service:
    def __init__(self, referee, source, sink, *, address: str, poll_interval: float = 60.0,
                 reopen_source=None, close_apart: bool = False, close_workers: int | None = None) -> None:
        self.referee, self.source, self.sink = referee, source, sink
        self.address = address
        self.poll_interval = poll_interval
        self._reopen_source = reopen_source
        self.close_apart = close_apart
        self.close_workers = close_workers   # None: one per core; 0: the closing thread closes itself
        self._pool = None   # the close workers (referee.turns.workers.ClosePool), started with the closing thread
        self._closer: threading.Thread | None = None
        self._closed_some = threading.Event()   # the closing thread queued reports: stop idling
        self._wake_closer = threading.Event()   # mail came in (an early close may be due) or the loop stops
        # set while the loop handles mail: the closing thread and the close workers wait (a process-shared flag)
        self._mail_first = multiprocessing.get_context("spawn").Event()
        self._stopping = threading.Event()   # the run's stop, once the closing thread starts

    def poll_once(self, limit: int = 500, budget: float | None = None) -> CycleReport:
        """Handle every waiting mail and send the answers (``budget``: seconds of
        sending at most, answers first; the rest is sent in the next cycle)."""
        report = CycleReport()
        while True:
            finished: dict[str, list[str]] = {}
            count = 0
            # One mail in memory at a time (the source reads in bounded chunks); an
            # over-size mail comes as its header section only.
            for item in incoming_of(self.source, limit, MAX_BYTES):
                self._mail_first.set()   # a closing thread apart lets this mail go first
                outcome = "refused"  # a mail that breaks the handling is set aside, never read again and again
                with self.referee.guarded("intake", item.ref):
                    mail = parse_inbound(item.raw, own_addresses=[self.address], size=item.size,
                                         received=item.arrived)
                    outcome = self.referee.handle(mail).outcome  # committed before the source hears of it
                if outcome != "taken":   # another worker is handling it and moves it when done
                    finished.setdefault(outcome, []).append(item.ref)
                count += 1
                report.mails += 1
                report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
            self._done(finished)
            try:
                sent, more = self._flush(budget)  # answers go out at once, not at the next tick
            finally:
                self._mail_first.clear()
            report.sent += sent
            report.more |= more
            if count < limit:
                self.referee.mail_read()   # the whole mailbox read: the outage watch's heartbeat
                return report

    def _done(self, finished: dict[str, list[str]]) -> None:
        """Mark a batch done at the source: one MOVE per outcome where the
        source can (a crash before this only means the mails are seen again,
        and the store's dedupe answers them once)."""
        many = getattr(self.source, "done_many", None)
        for outcome, refs in sorted(finished.items()):
            if many is not None:
                many(refs, outcome)
            else:
                for ref in refs:
                    self.source.done(ref, outcome)

    def tick(self, budget: float | None = None, workers: bool = False) -> CycleReport:
        """Close what is due and send; ``budget``: seconds of each at most (a league
        whose deadlines fall together closes over several cycles, and the mail read
        between them is answered meanwhile).  ``workers`` (``referee tick``, the cron path):
        with ``CRON_POOL_FROM`` turns or more past their deadline, close them in close workers
        (every core; they draw the PNGs and send their closes' mail too), then send the rest here."""
        report = CycleReport()
        ticked, sent = self._tick_in_workers() if workers and budget is None else (None, 0)
        if ticked is None:
            ticked = self.referee.tick(budget, bots=False)
        report.closed = ticked.closed
        report.sent, more = self._flush(budget)
        report.sent += sent
        # the bots of the turns just opened decide once their reports are out, not before (issue 35)
        played = self.referee.play_bots(budget) if not ticked.more else None
        report.more = more or ticked.more or bool(played and played.more)
        return report

    def _tick_in_workers(self) -> tuple:
        """A whole pass closed by a pool of close workers started for it, and the mails they sent
        ((None, 0): too few due, or ``close_workers: 0``, or a store a second connection cannot
        see: the pass runs in process).  Each worker sends its own closes' mail on its core once
        its PNGs are made, sooner than this process after them (docs/INTERNALS.md); a sink that
        does not pickle stays here, and this process sends it all."""
        from referee.app.referee import Recipe
        from referee.turns.workers import ClosePool
        if self.close_workers == 0:
            return None, 0
        if past_deadline(self.referee, CRON_POOL_FROM) < CRON_POOL_FROM:
            return None, 0
        recipe = Recipe.of(self.referee)
        if recipe is None:
            return None, 0
        pool = ClosePool(recipe, self.close_workers, sink=self.sink)
        try:
            ticked = self.referee.tick(pool=pool, bots=False)
            while ticked.more:   # a worker died: the rest at once (each turn closes once)
                more = self.referee.tick(pool=pool, bots=False)
                ticked.closed += more.closed
                ticked.failed += more.failed
                ticked.more = more.more
            pool.pictures_made()   # the workers' PNGs made and their mail sent (or the PNGs kept here for the flush)
        finally:
            pool.shutdown()
        return ticked, pool.sent

    def flush(self, batch: int = 500) -> int:
        """Send everything the outbox has due now (it hands out ``batch`` at a time)."""
        return self._flush(None, batch)[0]

    def _flush(self, budget: float | None, batch: int = 500) -> tuple[int, bool]:
        """(sent, whether some is left) after sending for at most ``budget`` seconds."""
        sent, start = 0, time.monotonic()
        if budget is not None:
            # small batches: the budget is looked at between them (a report may wait for its picture's PNG,
            # so between the reads of a mailbox with closes apart: one message at a time)
            batch = 50 if budget >= WORK_SLICE else 1 if budget <= SEND_SLICE else 10
        while True:
            done = self.referee.send_pending(self.sink, limit=batch)
            sent += done.sent
            if done.sent + done.retrying + done.failed < batch:
                return sent, False
            if budget is not None and time.monotonic() - start > budget:
                return sent, True

    def cycle(self, budget: float | None = None) -> CycleReport:
        report = self.poll_once(budget=budget)
        ticked = self.tick(budget)
        report.closed, report.sent = ticked.closed, report.sent + ticked.sent
        report.more |= ticked.more
        return report

    def run(self, stop: threading.Event) -> None:
        failures = 0
        while not stop.is_set():
            try:
                if self.close_apart and self._closing_apart(stop):
                    self._closed_some.clear()
                    report = self.poll_once(budget=SEND_SLICE)   # the closing thread ticks
                    if report.mails:
                        self._wake_closer.set()   # the last orders of a turn close it early
                else:
                    report = self.cycle(WORK_SLICE)
                failures = 0
                if report.mails or report.closed or report.sent:
                    log.info("mails %s, closed %s, sent %d", report.outcomes, report.closed, report.sent)
                if not report.more:
                    self._idle(stop)
            except MailError as e:
                failures += 1
                pause = min(2 ** failures, 300)
                log.warning("mail server trouble (%s); trying again in %ds", e, pause)
                stop.wait(pause)
                self._reopen()
            except Exception:  # every item has its own guard; this is the store or a bug: keep serving
                failures += 1
                pause = min(2 ** failures, 60)
                log.exception("the cycle failed; trying again in %ds", pause)
                stop.wait(pause)
        if self._closer is not None:
            self._wake_closer.set()
            if self._pool is not None:
                self._pool.cancel()   # closes not started wait for the next start; those under way finish
            self._closer.join(timeout=60)
        if self._pool is not None:
            self._pool.shutdown()
        self.source.close()

    # -- closing apart (close_apart): a thread deciding, worker processes closing ------------
    def _closing_apart(self, stop: threading.Event) -> bool:
        """Whether the closing thread runs (started here the first time, again if it died)."""
        if self._closer is None or not self._closer.is_alive():
            self._stopping = stop
            closer = self._second_referee()
            if closer is None:
                return False
            if self._pool is None and self.close_workers != 0:
                self._pool = self._close_pool(closer)
            self._closer = threading.Thread(target=self._close_loop, args=(closer, stop), name="referee-closing",
                                            daemon=True)
            self._closer.start()
        return True

    def _second_referee(self):
        """A ``Referee`` on a connection of its own to the same store and archive
        (None where the store cannot be opened twice: then the loop closes turns itself)."""
        from referee.app.referee import Referee
        from referee.render.renderer import Renderer
        from referee.store import location_of, open_store
        ref = self.referee
        location = location_of(ref.store)
        if location is None:   # a second connection would see another database
            return None
        try:
            store = open_store(location)
        except Exception:
            log.exception("a second connection to the store failed; closing in the mail loop")
            return None
        if hasattr(store, "share_writes"):   # SQLite
            # one lock for both connections' write transactions: a waiting writer gets the lock when
            # it is let go (SQLite's busy handler polls, and back-to-back closes would starve it)
            store.share_writes(ref.store)
        return Referee(store, ref.archive.root, renderer=Renderer(getattr(ref.renderer, "extra_dirs", ())),
                       clock=None if getattr(ref, "wall_clock", False) else ref.now, settings=ref.settings,
                       before_each_close=self._let_mail_go_first)

    def _let_mail_go_first(self) -> None:
        """Before each close of the closing thread: mail being handled goes first (a close holds the
        store's write lock for its transaction, and the answer to a mail needs that lock too)."""
        while self._mail_first.is_set() and not self._stopping.is_set():
            self._stopping.wait(0.01)

    def _close_pool(self, closer):
        """The close workers, built like ``closer`` (None where they cannot be: the thread closes)."""
        from referee.app.referee import Recipe
        from referee.turns.workers import ClosePool
        recipe = Recipe.of(closer)
        if recipe is None:
            return None
        # no sink for the workers: this loop sends, answers among them, and would claim reports whose
        # PNGs only a worker holds (the cron pass sends from its workers: _tick_in_workers)
        return ClosePool(recipe, self.close_workers, mail_first=self._mail_first)

    def _close_loop(self, closer, stop: threading.Event) -> None:
        """Close what is due, in slices, and wait for the next deadline (or a poll interval)."""
        from referee.runtime import gc_policy
        from referee.turns.worker import warm_renderer
        if self._pool is None:   # this thread closes: templates compiled now, not in the first close
            warm_renderer(closer.renderer)
        gc_policy.settle()   # start-up's and warming's objects never walked by the collector again
        if self._pool is not None:   # the workers let mail go first themselves
            try:
                try:
                    self._pool.start()   # started now, not at the first deadline (a spawned worker takes seconds)
                except Exception:   # the tick starts them anew and says why
                    log.exception("starting the close workers failed")
                self._closing(closer, stop)
            finally:
                closer.store.close()
            return
        try:
            self._closing(closer, stop)
        finally:
            closer.store.close()

    def _closing(self, closer, stop: threading.Event) -> None:
        failures = 0
        while not stop.is_set():
            try:
                # with workers a part of the due turns a call (ClosePool.tick): this thread only waits for them
                ticked = closer.tick(None, pool=self._pool) if self._pool is not None else closer.tick(WORK_SLICE)
                failures = 0
                if ticked.closed or ticked.reminded:
                    self._closed_some.set()
                    log.info("closed %s", ticked.closed)
                if ticked.more:
                    continue
                due = closer.next_due()
                left = self.poll_interval
                if due is not None:
                    left = max(0.5, min(left, (due - closer.now()).total_seconds() + 0.5))
                self._wake_closer.wait(left)
                self._wake_closer.clear()
            except Exception:   # each item has its own guard; this is the store or a bug: keep closing
                failures += 1
                pause = min(2 ** failures, 60)
                log.exception("closing failed; trying again in %ds", pause)
                stop.wait(pause)

    def _idle(self, stop: threading.Event) -> None:
        left = self.poll_interval
        due = None if self._closer is not None else self.referee.next_due()  # deadline + grace, or a reminder
        if due is not None:
            left = max(0.5, min(left, (due - self.referee.now()).total_seconds() + 0.5))
        end = time.monotonic() + left
        while not stop.is_set():
            remaining = end - time.monotonic()
            if remaining <= 0 or self._closed_some.is_set():   # reports to send
                return
            before = time.monotonic()
            self.source.wait(min(WAIT_SLICE, remaining))
            if time.monotonic() - before < min(WAIT_SLICE, remaining) - 0.05:
                return  # woken early: new mail

    def _reopen(self) -> None:
        if self._reopen_source is None:
            return
        try:
            self.source.close()
        except Exception:  # the old connection is gone anyway
            pass
        self.source = self._reopen_source()
