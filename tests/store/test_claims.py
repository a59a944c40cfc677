"""The claims several workers take on one PostgreSQL store, seen from two
stores (two workers' pools) at once: a mail, a match, outbox rows."""
from __future__ import annotations

import signal
import subprocess
import sys
import threading
from datetime import UTC, datetime

import pytest

from referee.store import open_store

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def two(postgres):
    url = postgres.new_schema()
    a, b = open_store(url), open_store(url)
    yield a, b
    a.close()
    b.close()


def test_a_mail_being_handled_is_left_and_a_handled_one_is_done(two):
    a, b = two
    with a.transaction():
        assert a.claim_mail("<m@x>", "h", NOW) is True
        assert b.claim_mail("<m@x>", "h", NOW) is None   # busy: left to a, not waited for
        a.mark_processed("<m@x>", "h", "processed", None, NOW)
    with b.transaction():
        assert b.claim_mail("<m@x>", "h", NOW) is False
    assert b.processed("<m@x>", "h") == "processed"


def test_a_mail_whose_worker_died_is_taken_by_the_next(two):
    a, b = two
    with pytest.raises(RuntimeError):
        with a.transaction():
            assert a.claim_mail("<m@x>", "h", NOW)
            raise RuntimeError("killed")   # rolled back, as a dropped connection is
    with b.transaction():
        assert b.claim_mail("<m@x>", "h", NOW) is True


def test_a_match_being_closed_is_passed_over_and_a_mail_for_it_waits(two):
    a, b = two
    a.add_match(id="m1", game="g", version="1", spec={}, seed="1", status="running", gm_email="gm@x",
                gm_key_hash="h", created=NOW)
    waited = threading.Event()
    with a.transaction():
        assert a.claim_match("m1", wait=False)
        with b.transaction():
            assert b.claim_match("m1", wait=False) is False

        def mail_for_it():
            with b.transaction():
                b.claim_match("m1")   # waits until a commits
                waited.set()
        t = threading.Thread(target=mail_for_it)
        t.start()
        t.join(1.0)
        assert not waited.is_set()
    t.join(10)
    assert waited.is_set()


HOLDER = """
import sys, time
from referee.store import open_store
store = open_store(sys.argv[1])
with store.transaction():
    store.claim_match("m1", wait=False)
    print("held", flush=True)
    time.sleep(600)
"""


def test_a_match_held_by_a_dead_close_worker_is_free_once_its_session_is_ended(two):
    # the holder is stopped, not killed: its connection stays open, so only ending the session frees the match
    a, b = two
    a.add_match(id="m1", game="g", version="1", spec={}, seed="1", status="running", gm_email="gm@x",
                gm_key_hash="h", created=NOW)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, a.location], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        holder.send_signal(signal.SIGSTOP)
        with b.transaction():
            assert b.claim_match("m1", wait=False) is False
        b.end_sessions([holder.pid])
        with b.transaction():
            assert b.claim_match("m1", wait=False) is True
    finally:
        holder.kill()
        holder.wait(10)


def test_two_workers_claiming_the_outbox_at_once_never_share_a_row(two):
    a, b = two
    for i in range(300):
        a.enqueue(f"reply:{i:03}", None, "x@example.org", b"x", NOW)
    got: dict[str, list[str]] = {"a": [], "b": []}

    def worker(store, name):
        while True:
            rows = store.claim_due(NOW, 20, name, lambda *_: False)
            if not rows:
                return
            got[name] += [r["dedupe"] for r in rows]
    threads = [threading.Thread(target=worker, args=(s, n)) for s, n in ((a, "a"), (b, "b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not set(got["a"]) & set(got["b"])
    assert len(got["a"]) + len(got["b"]) == 300
    assert {r["claimed_by"] for r in a.outbox()} <= {"a", "b"}
