"""The outbox worker: send what is queued, retry with backoff, send once in practice.

Each message is sent, then its result recorded in its own transaction (one
UPDATE, committed at once).  The one gap no store can close is a kill after the
server accepted a message and before that commit: the message is sent again
(by this worker on restart, or at once by another that sees the claim's process
gone), as the identical message: the same bytes and Message-ID (derived from its
dedupe key), so mail clients fold the two, and the Maildir sink writes a
Message-ID once.  Sending is at least once (README, docs/OPERATIONS.md).
"""
from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from referee.mail.errors import PermanentMailError, TemporaryMailError
from referee.runtime import crash
from referee.runtime.lifeline import gone
from referee.store import StoreUnavailable

log = logging.getLogger("referee.outbox")
_active: set[str] = set()   # claims this process is working on right now
CLAIM_TIMEOUT = timedelta(minutes=15)   # a claim from another machine counts as lost after this
MAX_ATTEMPTS = 10
FIRST_RETRY = timedelta(minutes=1)
LONGEST_WAIT = timedelta(hours=6)
SECRET_KINDS = ("welcome:", "gm_welcome:")
RECORD_RETRIES = (1, 2, 4, 8, 15, 30, 60, None)   # seconds between tries to record a sent message   # mails that carry a key: their text is dropped once sent


def backoff(attempts: int) -> timedelta:
    """Wait before the next try after ``attempts`` failed ones: 1, 2, 4 ... minutes, at most 6 hours."""
    return min(FIRST_RETRY * (2 ** max(attempts - 1, 0)), LONGEST_WAIT)


@dataclass
class SendReport:
    sent: int = 0
    retrying: int = 0
    failed: int = 0


class Outbox:
    """Sends what ``queue`` holds; a row that cannot be sent is set aside through ``faults``."""

    def __init__(self, store, queue, faults, now) -> None:
        self.store, self.queue, self.faults, self.now = store, queue, faults, now

    def _claim_lost(self, owner: str | None, claimed_at: str | None) -> bool:
        """A claim is lost when its process on this machine is gone, or it is old."""
        host, pid, _ = ((owner or "").split(":") + ["", "", ""])[:3]
        if host == socket.gethostname() and pid.isdigit():
            if int(pid) == os.getpid():
                return owner not in _active  # a leftover of this process, not being sent now
            if gone(int(pid)):   # a zombie too: a killed worker's parent may never reap it
                return True
        return claimed_at is None or datetime.fromisoformat(claimed_at) < self.now() - CLAIM_TIMEOUT

    def send_pending(self, sink, limit: int = 500, matches=None) -> SendReport:
        """Send up to ``limit`` due messages; ``matches``: only those matches' (a close worker sends
        the reports of its own closes, whose PNGs it holds)."""
        report = SendReport()
        owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        _active.add(owner)
        try:
            return self._send_claimed(sink, limit, owner, report, matches)
        finally:
            _active.discard(owner)

    def _record_sent(self, entry_id: int, scrub: bool) -> None:
        """The message is out: a store away for a moment (a restarted database) must
        not lose that, or the message would be sent again; so the record is retried."""
        for pause in RECORD_RETRIES:
            try:
                with self.store.transaction():
                    self.store.record_attempt(entry_id, "sent", None, self.now(), self.now(), scrub=scrub)
                return
            except StoreUnavailable:
                if pause is None:
                    raise
                log.warning("recording outbox row %s as sent failed: the store is away; again in %ds", entry_id, pause)
                time.sleep(pause)

    def _send_claimed(self, sink, limit: int, owner: str, report: SendReport, matches=None) -> SendReport:
        scrubbed = False
        send_bytes = getattr(sink, "send_bytes", None)  # skips EmailMessage where the sink can
        claimed = self.store.claim_due(self.now(), limit, owner, self._claim_lost, **({} if matches is None else
                                                                                       {"matches": matches}))
        for entry in claimed:
            try:
                # built inside the guard: a message that cannot be built is this row's
                # failure alone, never a row left 'sending' ahead of every other
                if send_bytes is None:
                    msg = self.queue.build_message(entry["message"])
                else:
                    raw, sender, rcpts = self.queue.wire_message(entry["message"])
                crash.point("outbox.before_send")
                if send_bytes is None:
                    sink.send(msg)
                else:
                    send_bytes(raw, sender, rcpts)
            except TemporaryMailError as e:
                attempts = entry["attempts"] + 1
                final = attempts >= MAX_ATTEMPTS
                with self.store.transaction():
                    self.store.record_attempt(entry["id"], "failed" if final else "queued", str(e),
                                              self.now() + backoff(attempts), None)
                report.failed += final
                report.retrying += not final
                continue
            except PermanentMailError as e:
                with self.store.transaction():
                    self.store.record_attempt(entry["id"], "failed", str(e), self.now(), None)
                report.failed += 1
                continue
            except Exception as e:  # unbuildable or refused by the sink's own checks
                log.exception("outbox row %s (%s) cannot be sent; set aside", entry["id"], entry["dedupe"])
                with self.store.transaction():
                    self.store.record_attempt(entry["id"], "failed", f"{type(e).__name__}: {e}"[:500], self.now(), None)
                    self.faults.note_fault("outbox", str(entry["id"]), e, entry.get("match"))
                report.failed += 1
                continue
            crash.point("outbox.after_send")
            scrub = entry["dedupe"].startswith(SECRET_KINDS)
            self._record_sent(entry["id"], scrub)
            scrubbed |= scrub
            report.sent += 1
        if scrubbed:
            # under the store's write lock where it has one: a connection closing turns in another
            # thread (service.close_apart) never holds the log open, so folding it in waits for nothing
            with getattr(self.store, "_lock", None) or contextlib.nullcontext():
                self.store.checkpoint()
        return report
