"""A close worker's closes overlap the disk's sync with the next close's work (issue 8):
``Closing.begin_close`` works a close out and writes its files, their sync begun and not
waited for; ``finish_close`` waits for it, then stores the close as ``close_turn`` would.
A worker's batch (``close_batch.close_many``) begins each close before finishing the last.
Nothing is stored before its files are durable, nothing is stored twice, and what a begun
close leaves when it is given up is removed."""
from __future__ import annotations

import errno
import threading
from pathlib import Path

import pytest
from referee_kit import Clock, make_referee, toy_league

from referee.archive import record as archive_files
from referee.turns import batch as close_batch
from referee.turns.commit import stripe
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

MATCHES = 3


def as_worker(ref) -> None:
    """``ref`` as a close worker's (``close_pool._start``): the parent flags what its closes placed."""
    ref.closing.flags.held += 1


def watch_syncs(monkeypatch, ref, events: list) -> None:
    """Events in order: ("plan", match) as a close is worked out, ("begun", match) as its files' sync
    is handed to the sync threads, ("synced", match, turn open in the store then) once it is waited for."""
    real_start, real_plan = archive_files.durable_start, ref.closing.compute.plan

    def plan(match_id, number):
        events.append(("plan", match_id))
        return real_plan(match_id, number)

    def durable_start(fds, folders=()):
        held = next((p for p in map(lambda fd: Path(f"/proc/self/fd/{fd}").readlink(), folders)
                     if p.name.startswith(".reports.")), None)
        match_id = held.parent.parent.name if held is not None else "?"
        wait = real_start(fds, folders)
        events.append(("begun", match_id))

        def waited():
            wait()
            events.append(("synced", match_id, ref.store.current_turn(match_id)["number"] == 1))
        return waited
    monkeypatch.setattr(ref.closing.compute, "plan", plan)
    monkeypatch.setattr(archive_files, "durable_start", durable_start)


def hidden(ref, match_id: str) -> list[str]:
    turn = ref.archive.turn_dir(match_id, 1)
    return sorted(p.name for p in turn.rglob(".*")) if turn.exists() else []


def archived(ref) -> dict[str, bytes]:
    root = Path(ref.archive.root)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "/t001/" in str(p.relative_to(root)) and p.parent.name != "inbox"}


def test_a_workers_batch_works_the_next_close_out_before_waiting_for_the_last_ones_sync(tmp_path, monkeypatch):
    ref = toy_league(tmp_path, Clock(), MATCHES)
    as_worker(ref)
    events: list = []
    watch_syncs(monkeypatch, ref, events)
    out = close_batch.close_many(ref, [(f"toy{i}", 1) for i in range(MATCHES)], [])
    assert [(m, n, outcome) for m, n, outcome, _, _ in out] == [(f"toy{i}", 1, "closed") for i in range(MATCHES)]
    assert events == [("plan", "toy0"), ("begun", "toy0"),
                      ("plan", "toy1"), ("begun", "toy1"), ("synced", "toy0", True),
                      ("plan", "toy2"), ("begun", "toy2"), ("synced", "toy1", True),
                      ("synced", "toy2", True)]   # each waited for while its turn was still open: stored after
    assert [named for *_, named in out] == [[(f"toy{i}", 1)] for i in range(MATCHES)]   # for the parent to flag


def test_closes_made_in_a_batch_write_what_closes_made_one_at_a_time_write(tmp_path):
    one_by_one = toy_league(tmp_path / "one", Clock(), MATCHES)
    assert one_by_one.tick().closed == [(f"toy{i}", 1) for i in range(MATCHES)]
    batched = toy_league(tmp_path / "batch", Clock(), MATCHES)
    as_worker(batched)
    close_batch.close_many(batched, [(f"toy{i}", 1) for i in range(MATCHES)], [])
    batched.closing.flags.held -= 1
    batched.tick()   # the repair writes nothing: every record is in place (the parent flags; here the tick)
    assert archived(batched) == archived(one_by_one) and len(archived(one_by_one)) > 3 * MATCHES
    for i in range(MATCHES):
        a, b = (r.store.turn(f"toy{i}", 1)["result"] for r in (one_by_one, batched))
        assert a == b
        assert hidden(batched, f"toy{i}") == []


def test_a_close_that_raises_in_the_middle_of_a_batch_is_set_aside_and_the_batch_goes_on(tmp_path):
    ref = toy_league(tmp_path, Clock(), MATCHES)
    ref.store._exec("UPDATE turns SET state='{\"broken\": true}' WHERE match=? AND number=1", ("toy1",))
    as_worker(ref)
    out = close_batch.close_many(ref, [(f"toy{i}", 1) for i in range(MATCHES)], [])
    assert sorted((m, outcome) for m, _, outcome, _, _ in out) == [("toy0", "closed"), ("toy1", "failed"),
                                                                   ("toy2", "closed")]
    assert [ref.store.current_turn(f"toy{i}")["number"] for i in range(MATCHES)] == [2, 1, 2]
    assert [(f["stage"], f["item"]) for f in ref.store.faults()] == [("close", "toy1:1.0")]
    assert all(hidden(ref, f"toy{i}") == [] for i in range(MATCHES))


def test_a_sync_the_disk_refuses_keeps_the_report_bodies_in_the_store(tmp_path, monkeypatch):
    ref = toy_league(tmp_path, Clock(), 1)
    real_start = archive_files.durable_start

    def refused(fds, folders=()):
        wait = real_start(fds, folders)

        def fail():
            wait()
            raise OSError(errno.ENOSPC, "No space left on device")
        return fail
    monkeypatch.setattr(archive_files, "durable_start", refused)
    begun = ref.closing.begin_close("toy0", 1)
    assert ref.closing.finish_close(begun) == 1
    result = ref.store.turn("toy0", 1)["result"]
    assert "text" in result["mails"]["ann"]   # the store keeps them until the archive has them
    assert hidden(ref, "toy0") == []          # the refused files are gone
    assert not (ref.archive.turn_dir("toy0", 1) / "reports" / "ann.en.txt").exists()
    monkeypatch.setattr(archive_files, "durable_start", real_start)
    ref.tick()   # the repair writes them
    assert (ref.archive.turn_dir("toy0", 1) / "reports" / "ann.en.txt").read_text(encoding="utf-8") \
        == result["mails"]["ann"]["text"]
    assert "text" not in ref.store.turn("toy0", 1)["result"]["mails"]["ann"]


def test_a_close_another_worker_made_between_begin_and_finish_is_not_made_twice(tmp_path):
    clock = Clock()
    ref = toy_league(tmp_path, clock, 1)
    other = make_referee(tmp_path, clock)   # a second connection to the same store and archive
    try:
        begun = ref.closing.begin_close("toy0", 1)
        assert other.closing.close_turn("toy0", 1) == 1
        assert ref.closing.finish_close(begun) is None   # gone: the other's close stands
        turns = [(t["number"], t["status"]) for t in ref.store.turns("toy0")]
        assert turns == [(1, "resolved"), (2, "open")]
        rows = [r["dedupe"] for r in ref.store.outbox("toy0") if r["dedupe"].startswith("report:")]
        assert len(rows) == len(set(rows)) == 4   # 3 players and the GM, once each
        assert hidden(ref, "toy0") == []
    finally:
        other.store.close()


def test_a_begun_close_given_up_stores_nothing_and_lets_its_stripe_go(tmp_path):
    ref = toy_league(tmp_path, Clock(), 1)
    begun = ref.closing.begin_close("toy0", 1)
    assert hidden(ref, "toy0")                      # its files staged, hidden
    ref.closing.abandon(begun)
    assert hidden(ref, "toy0") == []
    assert ref.store.current_turn("toy0")["number"] == 1
    assert [r for r in ref.store.outbox("toy0") if r["dedupe"].startswith("report:")] == []
    free = []
    lock = stripe(ref.archive, "toy0", 1)
    other = threading.Thread(target=lambda: free.append(lock.acquire(timeout=5) and (lock.release() or True)))
    other.start()
    other.join()
    assert free == [True]                           # another thread may take the turn's stripe
    assert ref.closing.close_turn("toy0", 1) == 1   # and the close is made afterwards, once


@pytest.mark.parametrize("due, workers", [(128, 2), (55, 2), (7, 3), (1, 2), (0, 2)])
def test_a_part_is_handed_out_in_batches_largest_first_ending_in_single_turns(due, workers):
    turns = [(f"m{i}", 1) for i in range(due)]
    batches = close_batch.batches(turns, workers)
    assert [t for b in batches for t in b] == turns
    sizes = [len(b) for b in batches]
    assert sizes == sorted(sizes, reverse=True)
    assert not sizes or sizes[-1] == 1
    assert all(size <= max(1, due // (2 * workers)) for size in sizes)
