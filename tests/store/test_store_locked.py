"""The store locked by another process (a real second process holding SQLite's
exclusive lock): the referee waits; past its patience it leaves the mail where
it is and tries the whole cycle again; every mail is answered once."""
from __future__ import annotations

import logging
import mailbox
import subprocess
import sys
import threading
import time

import pytest
from hardkit import REFEREE, Outbox, clock, create, make_referee, raw_mail, toy_registered

from referee.app.service import Service
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource

# SQLite's own lock, held by a second sqlite3 process (PostgreSQL's row locks: tests/store/test_claims.py)
pytestmark = pytest.mark.sqlite_file

LOCKER = r"""
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], timeout=10, isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def lock_store(path, seconds: float) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", LOCKER, str(path), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


@pytest.fixture
def table(tmp_path, clock):
    ref = make_referee(tmp_path, clock)
    out = Outbox(ref, tmp_path / "out")
    keys = create(ref, out)
    out.flush()
    inbox = mailbox.Maildir(str(tmp_path / "in"), create=True)
    for p in ("ann", "bob", "cyd"):
        inbox.add(raw_mail(f"{p}@example.org", f"match: toy1\nplayer: {p}\nkey: {keys[p]}\nturn: 1\norders:\n  bid: 2\n"))
    service = Service(ref, MaildirSource(tmp_path / "in"), MaildirSink(tmp_path / "sent"), address=REFEREE,
                      poll_interval=0.2)
    yield ref, service, tmp_path
    ref.store.close()


def answers(folder) -> list[str]:
    """Who got an answer to their orders (the reports of the early close aside)."""
    box = mailbox.Maildir(str(folder), create=True)
    return sorted(m["To"] for m in (box.get_message(k) for k in box.keys()) if m["In-Reply-To"])


def test_a_short_lock_is_waited_out(table):
    ref, service, root = table
    locker = lock_store(ref.store.path, 1.0)
    started = time.monotonic()
    report = service.poll_once()
    assert time.monotonic() - started > 0.5               # it waited for the lock ...
    assert report.outcomes == {"processed": 3}            # ... and then did everything
    assert answers(root / "sent") == ["ann@example.org", "bob@example.org", "cyd@example.org"]
    assert locker.wait(10) == 0


def test_a_long_lock_leaves_the_mail_at_the_source_and_the_next_cycle_answers_once(table):
    ref, service, root = table
    ref.store._db.execute("PRAGMA busy_timeout = 300")    # the store's patience, shortened for the test
    locker = lock_store(ref.store.path, 2.0)
    with pytest.raises(Exception, match="locked"):
        service.poll_once()
    assert answers(root / "sent") == []
    assert len(list(mailbox.Maildir(str(root / "in")).keys())) == 3   # nothing set aside, nothing moved
    assert ref.store.faults() == []                        # and no item blamed for it
    assert locker.wait(10) == 0
    service.poll_once()
    service.poll_once()                                    # read again: nothing twice
    assert answers(root / "sent") == ["ann@example.org", "bob@example.org", "cyd@example.org"]
    assert ref.store.submissions("toy1", 1).keys() == {"ann", "bob", "cyd"}


def test_the_service_loop_backs_off_and_retries_while_locked(table, caplog):
    ref, service, root = table
    ref.store._db.execute("PRAGMA busy_timeout = 200")
    locker = lock_store(ref.store.path, 2.5)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,))
    with caplog.at_level(logging.WARNING, logger="referee"):
        runner.start()
        try:
            deadline = time.monotonic() + 30
            while len(answers(root / "sent")) < 3 and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(1.0)                                # a further cycle or two: nothing more
        finally:
            stop.set()
            runner.join(20)
    assert locker.wait(10) == 0
    assert "the cycle failed" in caplog.text and "locked" in caplog.text
    assert answers(root / "sent") == ["ann@example.org", "bob@example.org", "cyd@example.org"]
    box = mailbox.Maildir(str(root / "sent"))
    everything = sorted(box.get_message(k)["To"] for k in box.keys())   # + the early close's reports, once each
    assert everything == sorted(["ann@example.org", "bob@example.org", "cyd@example.org"] * 2
                                + ["gm@example.org", "watcher@example.org"])


def test_a_close_under_a_lock_is_tried_again_and_made_once(table, clock):
    ref, service, root = table
    service.poll_once()
    ref.store._db.execute("PRAGMA busy_timeout = 200")
    clock.advance(hours=1)
    ref.store.set_wait("toy1", 1, "ann", False)
    locker = lock_store(ref.store.path, 1.5)
    with pytest.raises(Exception, match="locked"):
        ref.tick()
    assert ref.store.current_turn("toy1")["number"] == 1
    assert locker.wait(10) == 0
    assert ref.tick().closed == [("toy1", 1)] and ref.tick().closed == []
    assert [t["number"] for t in ref.store.turns("toy1")] == [1, 2]
