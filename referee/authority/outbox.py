"""The outbox worker: send what is queued, retry with backoff, never send twice.

Each message is sent, then its result recorded in its own transaction.  The
one gap no store can close is a crash after the server accepted a message
and before that commit: the message is sent again on restart, with the same
Message-ID (derived from its dedupe key), so mail clients fold the two.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from referee.authority import crash
from referee.mail.errors import PermanentMailError, TemporaryMailError

MAX_ATTEMPTS = 10
FIRST_RETRY = timedelta(minutes=1)
LONGEST_WAIT = timedelta(hours=6)
SECRET_KINDS = ("welcome:", "gm_welcome:")   # mails that carry a key: their text is dropped once sent


def backoff(attempts: int) -> timedelta:
    """Wait before the next try after ``attempts`` failed ones: 1, 2, 4 ... minutes, at most 6 hours."""
    return min(FIRST_RETRY * (2 ** max(attempts - 1, 0)), LONGEST_WAIT)


@dataclass
class SendReport:
    sent: int = 0
    retrying: int = 0
    failed: int = 0


class Outbox:
    def send_pending(self, sink, limit: int = 500) -> SendReport:
        report, scrubbed = SendReport(), False
        for entry in self.store.due(self.now(), limit):
            msg = self.build_message(entry["message"])
            crash.point("outbox.before_send")
            try:
                sink.send(msg)
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
            crash.point("outbox.after_send")
            scrub = entry["dedupe"].startswith(SECRET_KINDS)
            with self.store.transaction():
                self.store.record_attempt(entry["id"], "sent", None, self.now(), self.now(), scrub=scrub)
            scrubbed |= scrub
            report.sent += 1
        if scrubbed:
            self.store.checkpoint()
        return report
