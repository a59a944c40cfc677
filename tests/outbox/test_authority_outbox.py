"""The outbox: retries with backoff, permanent failures recorded, nothing sent twice."""
from __future__ import annotations

from datetime import timedelta

from referee_kit import SPEC, clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.mail.errors import PermanentMailError, TemporaryMailError
from referee.outbox.sender import MAX_ATTEMPTS, backoff

NO_OBSERVER = dict(SPEC, observers=[])   # the welcomes counted here: three players and the GM


class FlakySink:
    def __init__(self, fail_times: int = 0, permanent_for: str | None = None) -> None:
        self.fail_times, self.permanent_for, self.sent = fail_times, permanent_for, []

    def send(self, msg) -> None:
        if self.permanent_for and self.permanent_for in msg["To"]:
            raise PermanentMailError("550 no such user", code=550)
        if self.fail_times:
            self.fail_times -= 1
            raise TemporaryMailError("421 try later", code=421)
        self.sent.append(msg)


def test_backoff_doubles_and_is_capped():
    assert [backoff(n) for n in (1, 2, 3)] == [timedelta(minutes=1), timedelta(minutes=2), timedelta(minutes=4)]
    assert backoff(30) == timedelta(hours=6)


def test_temporary_failure_retries_later_and_sends_once(ref, clock):
    ref.create_match(NO_OBSERVER)
    sink = FlakySink(fail_times=3)                  # four welcome mails: three fail, the fourth goes
    first = ref.send_pending(sink)
    assert first.sent == 1 and first.retrying == 3
    assert ref.send_pending(sink).sent == 0          # not due yet
    clock.advance(minutes=1, seconds=1)
    assert ref.send_pending(sink).sent == 3
    assert ref.send_pending(sink).sent == 0
    assert len(sink.sent) == 4 and len({m["Message-ID"] for m in sink.sent}) == 4
    assert all(e["status"] == "sent" for e in ref.store.outbox("toy1"))


def test_permanent_failure_is_recorded_and_not_retried(ref, clock):
    ref.create_match(NO_OBSERVER)
    sink = FlakySink(permanent_for="bob@example.org")
    report = ref.send_pending(sink)
    assert report.failed == 1 and report.sent == 3
    [failed] = ref.store.outbox("toy1", status="failed")
    assert failed["recipient"] == "bob@example.org" and "550" in failed["last_error"]
    clock.advance(days=1)
    assert ref.send_pending(sink).sent == 0


def test_gives_up_after_max_attempts(ref, clock):
    ref.create_match(NO_OBSERVER)
    sink = FlakySink(fail_times=10_000)
    for _ in range(MAX_ATTEMPTS):
        ref.send_pending(sink)
        clock.advance(hours=7)
    assert len(ref.store.outbox("toy1", status="failed")) == 4
    assert sink.sent == []


def test_a_dedupe_key_is_queued_once(ref):
    with ref.store.transaction():
        assert ref.queue("k1", None, "x@example.org", "s", "t")
        assert not ref.queue("k1", None, "x@example.org", "s", "other")
    assert len(ref.store.outbox()) == 1


def test_messages_claimed_by_a_live_worker_are_left_alone(ref, clock):
    """The service and a CLI command sending at once never send the same message."""
    import os
    import socket
    ref.create_match(NO_OBSERVER)
    host = socket.gethostname()
    with ref.store.transaction():
        for e in ref.store.outbox("toy1")[:2]:
            ref.store._exec("UPDATE outbox SET status='sending', claimed_by=?, claimed_at=? WHERE id=?",
                            (f"{host}:{os.getppid()}:abcd", clock().isoformat(), e["id"]))
    sink = FlakySink()
    assert ref.send_pending(sink).sent == 2          # the other two
    assert len(ref.store.outbox("toy1", status="sending")) == 2
    clock.advance(minutes=16)                        # a claim that old counts as lost
    assert ref.send_pending(sink).sent == 2
    assert len(sink.sent) == 4 and len({m["Message-ID"] for m in sink.sent}) == 4


def test_a_dead_workers_claims_are_taken_over_at_once(ref, clock):
    import socket
    import subprocess
    import sys
    ref.create_match(NO_OBSERVER)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with ref.store.transaction():
        for e in ref.store.outbox("toy1"):
            ref.store._exec("UPDATE outbox SET status='sending', claimed_by=?, claimed_at=? WHERE id=?",
                            (f"{socket.gethostname()}:{dead.stdout.strip()}:abcd", clock().isoformat(), e["id"]))
    assert ref.send_pending(FlakySink()).sent == 4
