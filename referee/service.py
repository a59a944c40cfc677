"""The service loop: mail in, deadlines, outbox — until told to stop.

One cycle: read every waiting mail (each handled and committed before it is
marked done at the source), close what is due, send the outbox.  Between
cycles it waits on the source (IMAP IDLE wakes it at once) at most until the
next deadline or the poll interval.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from referee.mail.errors import MailError
from referee.mail.inbound import MAX_BYTES, parse_inbound
from referee.mail.source import incoming_of

log = logging.getLogger("referee")
WAIT_SLICE = 5.0  # seconds: how soon a stop request is noticed while idling


@dataclass
class CycleReport:
    mails: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    closed: list = field(default_factory=list)
    sent: int = 0


class Service:
    def __init__(self, referee, source, sink, *, address: str, poll_interval: float = 60.0,
                 reopen_source=None) -> None:
        self.referee, self.source, self.sink = referee, source, sink
        self.address = address
        self.poll_interval = poll_interval
        self._reopen_source = reopen_source

    def poll_once(self, limit: int = 500) -> CycleReport:
        report = CycleReport()
        while True:
            finished: dict[str, list[str]] = {}
            count = 0
            # One mail in memory at a time (the source reads in bounded chunks); an
            # over-size mail comes as its header section only.
            for item in incoming_of(self.source, limit, MAX_BYTES):
                outcome = "refused"  # a mail that breaks the handling is set aside, never read again and again
                with self.referee.guarded("intake", item.ref):
                    mail = parse_inbound(item.raw, own_addresses=[self.address], size=item.size,
                                         received=item.arrived)
                    outcome = self.referee.handle(mail).outcome  # committed before the source hears of it
                finished.setdefault(outcome, []).append(item.ref)
                count += 1
                report.mails += 1
                report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
            self._done(finished)
            report.sent += self.flush()  # answers go out at once, not at the next tick
            if count < limit:
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

    def tick(self) -> CycleReport:
        report = CycleReport()
        report.closed = self.referee.tick().closed
        report.sent = self.flush()
        return report

    def flush(self, batch: int = 500) -> int:
        """Send everything the outbox has due now (it hands out ``batch`` at a time)."""
        sent = 0
        while True:
            done = self.referee.send_pending(self.sink, limit=batch)
            sent += done.sent
            if done.sent + done.retrying + done.failed < batch:
                return sent

    def cycle(self) -> CycleReport:
        report = self.poll_once()
        ticked = self.tick()
        report.closed, report.sent = ticked.closed, report.sent + ticked.sent
        return report

    def run(self, stop: threading.Event) -> None:
        failures = 0
        while not stop.is_set():
            try:
                report = self.cycle()
                failures = 0
                if report.mails or report.closed or report.sent:
                    log.info("mails %s, closed %s, sent %d", report.outcomes, report.closed, report.sent)
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
        self.source.close()

    def _idle(self, stop: threading.Event) -> None:
        left = self.poll_interval
        due = self.referee.next_due()  # deadline + grace, or a reminder
        if due is not None:
            left = max(0.5, min(left, (due - self.referee.now()).total_seconds() + 0.5))
        end = time.monotonic() + left
        while not stop.is_set():
            remaining = end - time.monotonic()
            if remaining <= 0:
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
