"""Issue 16, finding 10: lateness is judged by when the mail reached the server
(IMAP INTERNALDATE, Maildir delivery time), not when it was read, and only
within bounds: not in the future, not before the turn opened; never the
sender's Date: header."""
from __future__ import annotations

import os
from datetime import timedelta

from bounded_referee import REFEREE, SPEC, START, bid, clock, keys_of, raw_mail, ref  # noqa: F401 (fixtures)

from referee.app.service import Service
from referee.mail.imap_source import ImapSource
from referee.mail.inbound import parse_inbound
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource

DEADLINE = START + timedelta(hours=48)   # grace 30 minutes


def test_finding10_orders_that_arrived_in_time_are_accepted_after_an_outage(ref, clock, tmp_path, mailservers):
    ref.create_match(SPEC)
    keys = keys_of(ref, tmp_path / "out")
    in_time = raw_mail("ann@example.org", bid("ann", keys["ann"]), message_id="<ann-in-time@players.example>")
    too_late = raw_mail("bob@example.org", bid("bob", keys["bob"]), message_id="<bob-late@players.example>")
    mailservers.append("referee", in_time, when=DEADLINE - timedelta(hours=1))
    mailservers.append("referee", too_late, when=DEADLINE + timedelta(hours=1))
    clock.advance(hours=50)   # the service was down over the deadline and its grace
    source = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee",
                        mailservers.password("referee"), backoff=0.01)
    try:
        report = Service(ref, source, MaildirSink(tmp_path / "out"), address=REFEREE).poll_once()
    finally:
        source.close()
    assert report.outcomes == {"processed": 1, "refused": 1}
    assert set(ref.store.submissions("toy1", 1)) == {"ann"}


def test_finding10_maildir_delivery_time_counts(ref, clock, tmp_path):
    ref.create_match(SPEC)
    keys = keys_of(ref, tmp_path / "out")
    source = MaildirSource(tmp_path / "in")
    path = tmp_path / "in" / "new" / "ann.mail"
    path.write_bytes(raw_mail("ann@example.org", bid("ann", keys["ann"])))
    delivered = (DEADLINE - timedelta(minutes=5)).timestamp()
    os.utime(path, (delivered, delivered))
    clock.advance(hours=60)
    report = Service(ref, source, MaildirSink(tmp_path / "out"), address=REFEREE).poll_once()
    assert report.outcomes == {"processed": 1}


def _late_reason(ref, clock, tmp_path, received) -> str:
    ref.create_match(SPEC)
    keys = keys_of(ref, tmp_path / "out")
    clock.advance(hours=50)
    mail = parse_inbound(raw_mail("ann@example.org", bid("ann", keys["ann"])), received=received)
    return ref.handle(mail).reason


def test_finding10_an_arrival_in_the_future_is_not_believed(ref, clock, tmp_path):
    assert _late_reason(ref, clock, tmp_path, START + timedelta(days=30)) == "turn.late"


def test_finding10_an_arrival_before_the_turn_opened_is_not_believed(ref, clock, tmp_path):
    assert _late_reason(ref, clock, tmp_path, START - timedelta(hours=1)) == "turn.late"


def test_finding10_the_senders_date_header_is_not_believed(ref, clock, tmp_path):
    ref.create_match(SPEC)
    keys = keys_of(ref, tmp_path / "out")
    clock.advance(hours=50)
    raw = raw_mail("ann@example.org", bid("ann", keys["ann"]))
    raw = raw.replace(b"Subject:", b"Date: Mon, 02 Mar 2026 10:00:00 +0000\r\nSubject:", 1)
    assert ref.handle(parse_inbound(raw)).reason == "turn.late"
