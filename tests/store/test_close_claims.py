"""The close workers' queue (issues 34, 38), on SQLite and on PostgreSQL, seen from two
stores (two workers) at once: no turn is claimed by two workers, a claim expires, a dead
worker's claim is taken at once, and a close whose claim expired commits nothing."""
from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from storefix import backend, location, store_at  # noqa: F401  (the fixtures, on both backends)

from referee.store import closing as close_rows
from referee.store import open_store

TURNS = [(f"m{i:03d}", 1) for i in range(60)]


@pytest.fixture
def two(store_at):
    """Two connections to one store: a SQLite file, or a PostgreSQL schema (storefix's backends)."""
    return store_at(), store_at()


def test_two_workers_claiming_at_once_never_claim_one_turn_both(two):
    a, b = two
    close_rows.queue_due(a, TURNS)
    got: dict[str, list] = {"a": [], "b": []}
    start = threading.Barrier(2)

    def claim(name: str, store) -> None:
        start.wait()
        while taken := close_rows.claim_due(store, f"host:{name}", 3):
            got[name].extend(taken)
            for match_id, _ in taken:   # closed: the close's transaction ends the claim
                with store.transaction():
                    assert close_rows.end_claim(store, match_id, f"host:{name}")
    threads = [threading.Thread(target=claim, args=(n, s)) for n, s in (("a", a), ("b", b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not set(got["a"]) & set(got["b"])   # no turn claimed by both
    assert sorted(got["a"] + got["b"]) == TURNS   # and every one by one of them
    assert close_rows.queued(a) == []


def test_a_claim_held_is_passed_over_and_an_expired_one_is_taken_by_the_next_worker(two):
    a, b = two
    close_rows.queue_due(a, TURNS[:2])
    assert close_rows.claim_due(a, "elsewhere:1", 1, lease=0.5) == [TURNS[0]]
    assert close_rows.claim_due(b, "elsewhere:2", 5) == [TURNS[1]]   # the held one passed over
    assert close_rows.claim_due(b, "elsewhere:2", 5) == []
    time.sleep(0.6)
    assert close_rows.claim_due(b, "elsewhere:2", 5) == [TURNS[0]]   # expired: the next worker's
    with a.transaction():
        assert not close_rows.end_claim(a, TURNS[0][0], "elsewhere:1")   # the first commits nothing
    with b.transaction():
        assert close_rows.end_claim(b, TURNS[0][0], "elsewhere:2")


def test_a_claim_of_a_dead_process_of_this_host_is_taken_at_once(two):
    a, b = two
    close_rows.queue_due(a, TURNS[:1])
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    host = close_rows.worker_name().rpartition(":")[0]
    assert close_rows.claim_due(a, f"{host}:{dead}", 1) == [TURNS[0]]   # as a worker that died since
    assert close_rows.claim_due(b, "elsewhere:2", 1) == [TURNS[0]]   # not waiting for its claim to expire


def test_queueing_a_turn_again_leaves_its_claim_and_a_new_turn_replaces_it(two):
    a, b = two
    close_rows.queue_due(a, TURNS[:1])
    assert close_rows.claim_due(a, "elsewhere:1", 1) == [TURNS[0]]
    close_rows.queue_due(b, TURNS[:1])   # another service's tick notes the same due turn
    assert close_rows.claim_due(b, "elsewhere:2", 1) == []
    close_rows.queue_due(b, [(TURNS[0][0], 2)])   # its next turn is due (the first closed elsewhere)
    assert close_rows.claim_due(b, "elsewhere:2", 1) == [(TURNS[0][0], 2)]


def test_freeing_a_dead_workers_claims_gives_them_to_the_next_worker(two):
    a, b = two
    close_rows.queue_due(a, TURNS[:3])
    assert len(close_rows.claim_due(a, "elsewhere:1", 3)) == 3
    close_rows.free_claims(b, ["elsewhere:1"])
    assert close_rows.claim_due(b, "elsewhere:2", 5) == TURNS[:3]


def test_queueing_due_turns_does_not_wait_on_a_worker_stopped_in_the_middle_of_its_commit(postgres):
    """PostgreSQL (SQLite's open write transaction holds the whole file): a close worker stopped
    inside its commit holds its queue row; another service's tick still queues its due turns."""
    url = postgres.new_schema()
    a, b = open_store(url), open_store(url)
    try:
        close_rows.queue_due(a, TURNS[:2])
        assert close_rows.claim_due(a, "elsewhere:1", 1) == [TURNS[0]]
        queued = threading.Event()
        with a.transaction():   # the close's transaction, its claim ended, not committed (the worker stopped)
            assert close_rows.end_claim(a, TURNS[0][0], "elsewhere:1")
            tick = threading.Thread(target=lambda: (close_rows.queue_due(b, TURNS[:3] + [(TURNS[1][0], 2)]),
                                                    queued.set()))
            tick.start()
            assert queued.wait(10)   # not waiting for the stopped worker
            tick.join()
        assert sorted(r["match"] for r in close_rows.queued(a)) == [TURNS[1][0], TURNS[2][0]]
        assert [r["turn"] for r in close_rows.queued(a) if r["match"] == TURNS[1][0]] == [2]
    finally:
        a.close()
        b.close()
