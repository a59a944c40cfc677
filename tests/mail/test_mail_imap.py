"""ImapSource against the real Dovecot of the test session."""
from __future__ import annotations

import socket
import threading
import time
from datetime import UTC

import pytest
from mail_samples import SAMPLES, UMLAUTS, html_only, latin1_orders, simple

from referee.mail.errors import MailSourceError
from referee.mail.imap_source import ImapSource
from referee.mail.inbound import parse_inbound


@pytest.fixture
def source(mailservers):
    src = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee",
                     mailservers.password("referee"), backoff=0.01)
    yield src
    src.close()


def _ids(raws):
    return [parse_inbound(raw).message_id for raw in raws]


def test_every_sample_survives_append_and_fetch(mailservers, source):
    for build in SAMPLES.values():
        mailservers.append("referee", build())
    mailservers.append("referee", html_only())
    fetched = {parse_inbound(raw).message_id: parse_inbound(raw) for _, raw in source.fetch()}
    assert len(fetched) == len(SAMPLES) + 1
    for name, build in SAMPLES.items():
        local = parse_inbound(build())
        remote = fetched[local.message_id]
        assert (remote.text, remote.attachments, remote.subject, remote.sender) == \
            (local.text.replace("\r\n", "\n"), local.attachments, local.subject, local.sender), name
        document = remote.attachments[0][1] if remote.attachments else remote.text
        expected = latin1_orders() if name == "latin1" else None
        assert (expected or UMLAUTS[1]) in document, name
    assert "Zölle senken" in fetched["<html@players.test>"].text


def test_fetch_peeks_and_done_moves_to_outcome_folders(mailservers, source):
    for n in range(3):
        mailservers.append("referee", simple(msgid=f"<m{n}@players.test>"))
    got = source.fetch()
    assert _ids(raw for _, raw in got) == [f"<m{n}@players.test>" for n in range(3)]
    assert [r for r, _ in source.fetch()] == [r for r, _ in got]  # not done: fetched again
    with mailservers.dovecot.imap("referee") as client:
        client.select_folder("INBOX", readonly=True)
        assert client.search(["SEEN"]) == []  # BODY.PEEK leaves \Seen alone
    source.done(got[0][0], "processed")
    source.done(got[1][0], "refused")
    source.done(got[2][0], "ignored")
    source.done(got[2][0], "ignored")  # again: nothing left to move, no error
    assert source.fetch() == []
    assert _ids(mailservers.messages("referee", "Referee/Processed")) == ["<m0@players.test>"]
    assert _ids(mailservers.messages("referee", "Referee/Refused")) == ["<m1@players.test>"]
    assert _ids(mailservers.messages("referee", "Referee/Ignored")) == ["<m2@players.test>"]


def test_limit_and_chunks_keep_uid_order(mailservers):
    for n in range(7):
        mailservers.append("referee", simple(msgid=f"<c{n}@players.test>"))
    src = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee",
                     mailservers.password("referee"), chunk=3)
    try:
        got = src.fetch(limit=5)
        assert _ids(raw for _, raw in got) == [f"<c{n}@players.test>" for n in range(5)]
        src.done_many([ref for ref, _ in got], "processed")
        assert _ids(raw for _, raw in src.fetch()) == ["<c5@players.test>", "<c6@players.test>"]
        assert len(mailservers.messages("referee", "Referee/Processed")) == 5
    finally:
        src.close()


def test_uidvalidity_change_moves_the_right_mail(mailservers):
    a, b = simple(msgid="<a@players.test>"), simple(msgid="<b@players.test>", body="bee\r\n")
    mailservers.append("referee", a, "Orders")
    mailservers.append("referee", b, "Orders")
    src = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee",
                     mailservers.password("referee"), folder="Orders")
    try:
        got = src.fetch()
        before = src.uidvalidity
        with mailservers.dovecot.imap("referee") as client:  # recreated: UIDs start again
            client.delete_folder("Orders")
            client.create_folder("Orders")
            client.append("Orders", b)  # b now has the UID a had
            client.append("Orders", a)
        src.done(got[0][0], "processed")  # ref of a
        assert src.uidvalidity != before
        assert _ids(mailservers.messages("referee", "Referee/Processed")) == ["<a@players.test>"]
        assert _ids(mailservers.messages("referee", "Orders")) == ["<b@players.test>"]
        (ref, raw), = src.fetch()
        assert ref.startswith(f"{src.uidvalidity}:") and parse_inbound(raw).message_id == \
            "<b@players.test>"
    finally:
        src.close()


def test_idle_wakes_wait_on_a_delivery(mailservers, source):
    assert source.fetch() == []
    delay = 0.3
    timer = threading.Timer(delay, mailservers.dovecot.deliver,
                            ("referee@referee.test", simple(msgid="<idle@players.test>")))
    start = time.monotonic()
    timer.start()
    source.wait(20)
    elapsed = time.monotonic() - start
    timer.join()
    assert delay <= elapsed < 5, elapsed  # IDLE reports ~0.5 s after delivery
    assert _ids(raw for _, raw in source.fetch()) == ["<idle@players.test>"]
    start = time.monotonic()
    source.wait(20)  # mail not done yet: returns at once
    assert time.monotonic() - start < 0.5


def test_wait_times_out_when_quiet(source):
    start = time.monotonic()
    source.wait(0.5)
    assert 0.45 <= time.monotonic() - start < 3


def test_reconnects_after_connection_loss(mailservers, source):
    mailservers.append("referee", simple(msgid="<r1@players.test>"))
    assert len(source.fetch()) == 1
    source._client._imap.sock.shutdown(socket.SHUT_RDWR)  # the server "went away"
    got = source.fetch()
    assert _ids(raw for _, raw in got) == ["<r1@players.test>"] and source.reconnects == 1
    source.done(got[0][0], "processed")
    assert source.fetch() == []


def test_gives_up_with_a_clear_error_after_n_failures():
    with socket.socket() as holder:  # a port where nothing answers
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
    sleeps: list[float] = []
    src = ImapSource("127.0.0.1", port, "referee", "pw", max_failures=4, backoff=0.5,
                     max_backoff=1.5, sleep=sleeps.append)
    with pytest.raises(MailSourceError, match="unreachable after 4 attempts"):
        src.fetch()
    assert sleeps == [0.5, 1.0, 1.5]


def test_wrong_password_fails_at_once(mailservers):
    sleeps: list[float] = []
    src = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee", "wrong",
                     sleep=sleeps.append)
    with pytest.raises(MailSourceError, match="login"):
        src.fetch()
    assert sleeps == []


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_tls_connections(mailservers, security):
    port = mailservers.dovecot.imaps_port if security == "ssl" else mailservers.dovecot.imap_port
    mailservers.append("referee", simple(msgid="<tls@players.test>"))
    src = ImapSource("localhost", port, "referee", mailservers.password("referee"),
                     security=security, ssl_context=mailservers.ssl_context())
    try:
        assert _ids(raw for _, raw in src.fetch()) == ["<tls@players.test>"]
    finally:
        src.close()
    untrusting = ImapSource("localhost", port, "referee", mailservers.password("referee"),
                            security=security, max_failures=1)
    with pytest.raises(MailSourceError):  # self-signed and not trusted
        untrusting.fetch()


def test_bounce_through_smtp_is_recognised(mailservers):
    dsn = simple(sender="MAILER-DAEMON@mx.players.test", msgid="<dsn@mx.players.test>")
    mailservers.send("", ["referee@referee.test"], dsn)  # MAIL FROM:<> as bounces have
    raw, = mailservers.wait_messages("referee", 1)
    mail = parse_inbound(raw)
    assert mail.return_path == "" and mail.automatic == "bounce"


def test_without_idle_wait_sleeps(mailservers):
    sleeps: list[float] = []
    src = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee",
                     mailservers.password("referee"), idle=False, sleep=sleeps.append)
    try:
        src.wait(7.5)
        assert sleeps == [7.5]
        mailservers.append("referee", simple())
        src.wait(7.5)  # mail waiting: no sleep at all
        assert sleeps == [7.5]
    finally:
        src.close()


def test_mail_flagged_deleted_by_another_client_is_not_fetched(mailservers, source):
    mailservers.append("referee", simple(msgid="<keep@players.test>"))
    uid = mailservers.append("referee", simple(msgid="<gone@players.test>"))
    with mailservers.dovecot.imap("referee") as client:
        client.select_folder("INBOX")
        client.delete_messages([uid])  # \Deleted, not yet expunged
    assert _ids(raw for _, raw in source.fetch()) == ["<keep@players.test>"]


def test_incoming_gives_size_internaldate_and_only_the_head_of_an_over_size_mail(mailservers, source):
    from datetime import datetime, timezone
    when = datetime(2026, 3, 4, 8, 0, tzinfo=UTC)
    big = simple(msgid="<big@players.test>", body="x" * 300_000 + "\r\n")
    mailservers.append("referee", big, when=when)
    mailservers.append("referee", simple(msgid="<small@players.test>"))
    small_mail, big_mail = sorted(source.incoming(max_bytes=256_000), key=lambda m: m.size)
    assert big_mail.size == len(big) and big_mail.arrived == when
    assert big_mail.raw == big[:big.index(b"\r\n\r\n") + 4]   # the header section only
    assert parse_inbound(small_mail.raw).message_id == "<small@players.test>"
    assert small_mail.arrived is not None and small_mail.arrived.tzinfo is not None
