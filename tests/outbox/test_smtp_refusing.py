"""The SMTP server refusing, then accepting again (the real aiosmtpd front of the
test mail servers, answering DATA with 4xx or 5xx): nothing is lost, nothing is
sent twice."""
from __future__ import annotations

from email import message_from_bytes, policy

import pytest
from hardkit import SPEC, clock, make_referee, toy_registered

from referee.mail.sink import SmtpSink
from referee.outbox.patient_sink import PatientSink


@pytest.fixture
def table(mailservers, tmp_path, clock):
    s = mailservers
    ref = make_referee(tmp_path, clock)
    seats = [("ann", "alice"), ("bob", "bob"), ("cyd", "carol")]
    spec = dict(SPEC, gm=s.address("gm"), observers=[s.address("observer")],
                players=[{"id": seat, "name": seat.title(), "email": s.address(user)} for seat, user in seats])
    ref.create_match(spec)   # five welcome mails queued: three players, the GM and the observer
    yield ref, PatientSink(SmtpSink(s.host, s.smtp.port, security="plain")), s
    ref.store.close()


def delivered(s) -> list[tuple[str, str]]:
    """(recipient, Message-ID) of every message the server took."""
    return sorted((c.rcpts[0], message_from_bytes(c.raw, policy=policy.default)["Message-ID"]) for c in s.captured)


@pytest.mark.parametrize("refusal", ["451 4.3.0 queue full, try later", "554 5.3.0 mail system in maintenance"])
def test_refused_then_accepted_loses_nothing_and_sends_nothing_twice(table, clock, refusal):
    ref, sink, s = table
    s.smtp.fail_data(refusal)
    report = ref.send_pending(sink)
    assert (report.sent, report.retrying, report.failed) == (0, 5, 0)
    assert s.captured == []
    rows = ref.store.outbox()
    assert all(r["status"] == "queued" and r["attempts"] == 1 for r in rows)
    assert all(refusal.split()[0] in r["last_error"] for r in rows)
    clock.advance(minutes=2)
    assert ref.send_pending(sink).retrying == 5            # still refusing: waited out again
    s.smtp.fail_data(None)                                  # the server recovers
    assert ref.send_pending(sink).sent == 0                 # the backoff is honoured ...
    clock.advance(minutes=3)
    assert ref.send_pending(sink).sent == 5                 # ... then everything goes, once
    clock.advance(hours=7)
    assert ref.send_pending(sink).sent == 0
    got = delivered(s)
    assert len(got) == 5 and len({mid for _, mid in got}) == 5
    assert sorted(r for r, _ in got) == sorted([s.address("alice"), s.address("bob"), s.address("carol"),
                                                s.address("gm"), s.address("observer")])
    assert all(r["status"] == "sent" for r in ref.store.outbox())


def test_a_refused_recipient_stays_final_and_the_others_go(table, clock):
    ref, sink, s = table
    s.smtp.fail_rcpt(s.address("bob"), "550 5.1.1 no such mailbox")
    report = ref.send_pending(sink)
    assert (report.sent, report.failed) == (4, 1)
    (failed,) = ref.store.outbox(status="failed")
    assert failed["recipient"] == s.address("bob") and "550" in failed["last_error"]
    clock.advance(hours=1)
    assert ref.send_pending(sink).sent == 0                 # never retried, never sent twice
    assert len(s.captured) == 4


def test_a_message_refused_for_good_is_set_aside_after_the_last_try(table, clock):
    ref, sink, s = table
    s.smtp.fail_data("554 5.7.1 rejected")
    for _ in range(10):
        ref.send_pending(sink)
        clock.advance(hours=7)
    assert len(ref.store.outbox(status="failed")) == 5 and s.captured == []
