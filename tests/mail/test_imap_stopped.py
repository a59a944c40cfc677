"""The IMAP server stopped in the middle of a fetch (a real Dovecot, stopped with
SIGTERM after two of six mails were handled): the service reports it, loses
nothing, and when Dovecot is back reads on; every mail is answered once and
ends in the Processed folder."""
from __future__ import annotations

import logging
import mailbox
import re
import subprocess
import threading
import time

import pytest
from hardkit import SPEC, Outbox, clock, make_referee, raw_mail, text_of, toy_registered
from mailservers import running_mailservers

from referee.app.service import Service
from referee.mail.imap_source import ImapSource
from referee.mail.sink import MaildirSink


@pytest.fixture(scope="module")
def servers():
    with running_mailservers(users=("referee", "alice", "bob", "carol", "gm"), tls=False) as s:
        yield s


def session_alive(source) -> bool:
    client = getattr(source, "_client", None)
    if client is None:
        return False
    try:
        client.noop()
        return True
    except Exception:
        return False


def test_dovecot_stopped_mid_fetch_loses_nothing_and_answers_once(servers, tmp_path, clock, caplog):
    s = servers
    ref = make_referee(tmp_path, clock)
    seats = [("ann", "alice"), ("bob", "bob"), ("cyd", "carol")]
    spec = dict(SPEC, gm=s.address("gm"), observers=[],
                players=[{"id": seat, "name": seat.title(), "email": s.address(user)} for seat, user in seats])
    ref.create_match(spec)
    keys = {m["To"]: re.search(r"Your key: (\S+)|Dein Schlüssel: (\S+)", text_of(m)) for m in Outbox(ref, tmp_path / "welcome").flush()}
    keys = {to: hit.group(1) or hit.group(2) for to, hit in keys.items() if hit}
    for seat, user in seats:
        key = keys[s.address(user)]
        s.append("referee", raw_mail(s.address(user), f"match: toy1\nplayer: {seat}\nkey: {key}\nturn: 1\n"
                                                        f"orders:\n  bid: 2\n", subject="orders"))
        s.append("referee", raw_mail(s.address(user), f"match: toy1\nplayer: {seat}\nkey: {key}\ncommand: status\n",
                                     subject="status"))

    def source():
        return ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), security="plain",
                          chunk=2, max_failures=2, backoff=0.1, idle=False)

    handled, stopped = [], threading.Event()
    real = ref.handle

    def handle_then_stop_the_server(mail):
        result = real(mail)
        handled.append(mail.message_id)
        if len(handled) == 2 and not stopped.is_set():
            # the server goes away between two chunks of the fetch: its sessions are
            # ended (a stopped Dovecot lets a running imap process finish otherwise) and it stops
            kicked = subprocess.run(["/usr/bin/doveadm", "-c", str(s.dovecot.config), "kick", "referee"],
                                    capture_output=True, text=True, timeout=30)
            assert kicked.returncode == 0, kicked.stderr
            s.dovecot.stop()
            gone = time.monotonic() + 10
            while time.monotonic() < gone and session_alive(service.source):
                time.sleep(0.05)
            stopped.set()
        return result
    ref.handle = handle_then_stop_the_server

    service = Service(ref, source(), MaildirSink(tmp_path / "sent"), address="referee@referee.test",
                      poll_interval=0.5, reopen_source=source)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,))
    with caplog.at_level(logging.WARNING, logger="referee"):
        runner.start()
        try:
            assert stopped.wait(60)
            deadline = time.monotonic() + 30
            while "mail server trouble" not in caplog.text and time.monotonic() < deadline:
                time.sleep(0.1)
            assert "mail server trouble" in caplog.text       # the poller reports
            read_before = ref.outages.beats()["last_mail_read"]
            s.dovecot.start()                                  # back (on new ports: the service reopens)
            deadline = time.monotonic() + 60
            while len(s.messages("referee", "Referee/Processed")) < 6 and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            stop.set()
            runner.join(30)
    assert s.messages("referee", "INBOX") == []
    assert len(s.messages("referee", "Referee/Processed")) == 6   # nothing lost, nothing refused
    box = mailbox.Maildir(str(tmp_path / "sent"))
    replies = [box.get_message(k) for k in box.keys() if box.get_message(k)["In-Reply-To"]]
    assert len(replies) == 6 and len({m["In-Reply-To"] for m in replies}) == 6   # each answered once
    assert ref.store.submissions("toy1", 1).keys() == {"ann", "bob", "cyd"}
    # the two handled before the stop were not yet marked done: read again, answered from the store's dedupe
    assert len(handled) == 8 and len(set(handled)) == 6
    assert ref.outages.beats()["last_mail_read"] is not None and read_before is None
