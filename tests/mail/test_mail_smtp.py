"""SmtpSink against aiosmtpd fronts that deliver into the real Dovecot."""
from __future__ import annotations

import socket

import pytest
from mail_samples import ORDERS

from referee.mail.compose import compose
from referee.mail.errors import PermanentMailError, TemporaryMailError
from referee.mail.inbound import parse_inbound
from referee.mail.sink import SmtpSink


def _report(to="alice@players.test", **kw):
    return compose("referee@referee.test", to, "Bericht Runde 1 – Zölle", ORDERS,
                   "<p>Grüße</p>", auto="auto-generated", domain="referee.test", **kw)


def test_sent_mail_arrives_in_the_recipients_dovecot_inbox(mailservers):
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    try:
        msg = _report(cc=["bob@players.test"])
        sink.send(msg)
        sink.send(_report(to="carol@players.test"))  # same connection reused
    finally:
        sink.close()
    first = mailservers.wait_captured(2)[0]
    assert first.mail_from == "referee@referee.test"
    assert first.rcpts == ("alice@players.test", "bob@players.test")
    assert b"\r\n" in first.raw and first.raw.count(b"\n") == first.raw.count(b"\r\n")
    for user in ("alice", "bob"):
        raw, = mailservers.wait_messages(user, 1)
        mail = parse_inbound(raw)
        assert mail.message_id == msg["Message-ID"]
        assert mail.subject == "Bericht Runde 1 – Zölle" and mail.text == ORDERS
        assert mail.automatic == "auto-submitted"  # and so never answered if it comes back
    assert len(mailservers.wait_messages("carol", 1)) == 1


def test_bcc_goes_in_the_envelope_only(mailservers):
    msg = _report()
    msg["Bcc"] = "gm@referee.test"
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    sink.send(msg)
    sink.close()
    captured, = mailservers.wait_captured(1)
    assert "gm@referee.test" in captured.rcpts and b"Bcc" not in captured.raw
    assert msg["Bcc"] == "gm@referee.test"  # the caller's message is unchanged
    assert len(mailservers.wait_messages("gm", 1)) == 1


def test_starttls_with_auth(mailservers):
    sink = SmtpSink("localhost", mailservers.smtp_tls.port, "referee",
                    mailservers.password("referee"), security="starttls",
                    ssl_context=mailservers.ssl_context())
    sink.send(_report())
    sink.close()
    captured, = mailservers.wait_captured(1)
    assert captured.tls and captured.auth_user == "referee"
    assert len(mailservers.wait_messages("alice", 1)) == 1


def test_implicit_tls_with_auth(mailservers):
    sink = SmtpSink("localhost", mailservers.smtps.port, "referee",
                    mailservers.password("referee"), security="ssl",
                    ssl_context=mailservers.ssl_context())
    sink.send(_report())
    sink.close()
    captured, = mailservers.wait_captured(1)
    assert captured.tls and captured.auth_user == "referee"


def test_wrong_password_is_permanent(mailservers):
    sink = SmtpSink("localhost", mailservers.smtp_tls.port, "referee", "wrong",
                    security="starttls", ssl_context=mailservers.ssl_context())
    with pytest.raises(PermanentMailError) as info:
        sink.send(_report())
    assert info.value.code == 535 and mailservers.captured == []


def test_auth_without_tls_is_permanent(mailservers):
    # The server offers AUTH only after STARTTLS: a config error, not a glitch.
    sink = SmtpSink("127.0.0.1", mailservers.smtp_tls.port, "referee",
                    mailservers.password("referee"))
    with pytest.raises(PermanentMailError):
        sink.send(_report())


def test_untrusted_certificate_is_permanent(mailservers):
    sink = SmtpSink("localhost", mailservers.smtp_tls.port, "referee",
                    mailservers.password("referee"), security="starttls")
    with pytest.raises(PermanentMailError, match="certificate"):
        sink.send(_report())


def test_connection_refused_is_temporary():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
    with pytest.raises(TemporaryMailError):
        SmtpSink("127.0.0.1", port, timeout=5).send(_report())


@pytest.mark.parametrize("reply, error", [
    ("550 5.1.1 mailbox gone", PermanentMailError),
    ("451 4.3.0 try again later", TemporaryMailError),
])
def test_rcpt_refusals_are_classified(mailservers, reply, error):
    mailservers.smtp.fail_rcpt("alice@players.test", reply)
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    with pytest.raises(error) as info:
        sink.send(_report())
    assert info.value.code == int(reply[:3]) and mailservers.captured == []
    mailservers.smtp.reset()
    sink.send(_report())  # the sink recovers on the next call
    sink.close()
    assert len(mailservers.wait_captured(1)) == 1


def test_partial_refusal_is_permanent_and_names_who_got_it(mailservers):
    mailservers.smtp.fail_rcpt("bob@players.test", "550 5.1.1 no bob")
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    with pytest.raises(PermanentMailError) as info:
        sink.send(_report(cc=["bob@players.test"]))
    sink.close()
    assert info.value.delivered == ("alice@players.test",)
    assert info.value.refused == {"bob@players.test": (550, "5.1.1 no bob")}
    assert len(mailservers.wait_messages("alice", 1)) == 1


@pytest.mark.parametrize("reply, error", [
    ("554 5.6.0 content rejected", PermanentMailError),
    ("452 4.3.1 insufficient storage", TemporaryMailError),
])
def test_data_refusals_are_classified(mailservers, reply, error):
    mailservers.smtp.fail_data(reply)
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    with pytest.raises(error) as info:
        sink.send(_report())
    sink.close()
    assert info.value.code == int(reply[:3])


def test_reconnects_after_the_server_dropped_the_connection(mailservers):
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    sink.send(_report())
    sink._smtp.sock.shutdown(socket.SHUT_RDWR)
    sink.send(_report(to="bob@players.test"))
    sink.close()
    assert [c.rcpts for c in mailservers.wait_captured(2)] == \
        [("alice@players.test",), ("bob@players.test",)]


def test_unknown_local_user_is_refused_permanently(mailservers):
    with pytest.raises(PermanentMailError) as info:
        SmtpSink("127.0.0.1", mailservers.smtp.port).send(_report(to="nobody@players.test"))
    assert info.value.code == 550


def test_a_queued_message_reparsed_from_bytes_sends_unchanged(mailservers):
    # The outbox stores msg.as_bytes(policy=SMTP) and parses it back before sending.
    from email import message_from_bytes, policy
    original = _report(in_reply_to="<o1@players.test>")
    stored = original.as_bytes(policy=policy.SMTP)
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    sink.send(message_from_bytes(stored, policy=policy.SMTP))
    sink.close()
    captured, = mailservers.wait_captured(1)
    assert captured.raw == stored
    mail = parse_inbound(mailservers.wait_messages("alice", 1)[0])
    assert mail.text == ORDERS and mail.references[-2:] == ("<o1@players.test>", original["Message-ID"])


def test_passwords_never_go_out_in_clear_to_remote_hosts():
    from referee.mail.imap_source import ImapSource
    with pytest.raises(ValueError, match="unencrypted"):
        SmtpSink("mail.example.org", 587, "referee", "pw")
    with pytest.raises(ValueError, match="unencrypted"):
        ImapSource("mail.example.org", 143, "referee", "pw")
    SmtpSink("mail.example.org", 25)  # no AUTH: a relay on a trusted network is fine
    SmtpSink("mail.example.org", 587, "referee", "pw", allow_insecure=True)
    ImapSource("::1", 143, "referee", "pw")
    ImapSource("mail.example.org", 993, "referee", "pw", security="ssl")


def test_a_connected_sink_goes_to_another_process_as_a_copy_that_opens_its_own_connection(mailservers):
    """A close worker is handed the service's sink (issue 38): its live connection stays here."""
    import pickle
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    try:
        sink.send(_report())
        assert sink._smtp is not None   # connected
        copy = pickle.loads(pickle.dumps(sink))
        assert copy._smtp is None and (copy.host, copy.port) == (sink.host, sink.port)
        copy.send(_report(to="bob@players.test"))
        sink.send(_report(to="carol@players.test"))   # the original's connection is still its own
        copy.close()
    finally:
        sink.close()
    for user in ("alice", "bob", "carol"):
        assert len(mailservers.wait_messages(user, 1)) == 1
