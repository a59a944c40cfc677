"""No turn is flagged archived before the names of its record (orders.yaml, turn.json,
renamed into place after the close's commit) are durable (``close_flags.PendingFlags``):
a pass's closes have their turn folders fsynced in one round, then are flagged in one
transaction; a close outside a pass is flagged, after its folder's fsync, before it
returns; a pass that dies in between leaves its turns to the repair, which writes their
record again and flags them, with nothing lost."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from referee_kit import Clock, clock, game, make_referee, outbox, ref, toy_league, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.app.referee import Recipe
from referee.archive import record as archive_files
from referee.store import location_of
from referee.turns.flags import PendingFlags
from referee.turns.workers import ClosePool

MATCHES = 5


def trap(monkeypatch, ref) -> list[tuple]:
    """Events in order: ("fsync", turn folder, what it names then, archived then) for every
    folder fsynced, and ("flag", [(match, number)]) for every archived flag set."""
    events: list[tuple] = []
    real_durable, real_folder = archive_files.durable, archive_files.sync_folder
    store = ref.store

    def synced(path: str) -> None:
        name = os.path.basename(path)
        if name.startswith("t") and name[1:].isdigit():
            row = store.turn(os.path.basename(os.path.dirname(path)), int(name[1:]))
            events.append(("fsync", path, sorted(os.listdir(path)), bool(row and row["archived"])))

    def durable(fds, folders=()):
        real_durable(fds, folders)   # the trap notes what was made durable once it is
        for fd in folders:
            synced(os.readlink(f"/proc/self/fd/{fd}"))

    def sync_folder(folder):
        real_folder(folder)
        synced(str(folder))
    monkeypatch.setattr(archive_files, "durable", durable)
    monkeypatch.setattr(archive_files, "sync_folder", sync_folder)
    real_one, real_many = store.set_archived, store.set_archived_many
    monkeypatch.setattr(store, "set_archived", lambda m, n, result=None: (
        events.append(("flag", [(m, n)])), real_one(m, n, result))[-1])
    monkeypatch.setattr(store, "set_archived_many", lambda turns: (
        events.append(("flag", list(turns))), real_many(turns))[-1])
    return events


def check_every_flag_after_its_fsync(ref, events: list[tuple]) -> set[tuple[str, int]]:
    """Every flagged turn's folder was fsynced, naming its record, before the flag; the flagged turns."""
    durable, flagged = set(), set()
    for event in events:
        if event[0] == "fsync":
            _, path, names, archived = event
            if {"orders.yaml", "turn.json"} <= set(names):
                durable.add(path)
        else:
            for m, n in event[1]:
                assert str(ref.archive.turn_dir(m, n)) in durable, (m, n)
                flagged.add((m, n))
    return flagged


def league(root: Path, matches: int = MATCHES):
    return toy_league(root, Clock(), matches, seed="flags")


def test_a_pass_flags_its_closes_after_one_fsync_round_of_their_folders_in_one_transaction(tmp_path, monkeypatch):
    ref = league(tmp_path)
    events = trap(monkeypatch, ref)
    report = ref.tick()
    assert report.closed == [(f"toy{i}", 1) for i in range(MATCHES)]
    assert check_every_flag_after_its_fsync(ref, events) == set(report.closed)
    flags = [e for e in events if e[0] == "flag"]
    assert flags == [("flag", report.closed)]   # one flag call for the whole pass
    last = [e for e in events if e[0] == "fsync"][-MATCHES:]
    assert sorted(e[1] for e in last) == sorted(str(ref.archive.turn_dir(m, n)) for m, n in report.closed)
    assert not any(e[3] for e in last)   # none flagged before the round
    assert ref.store.take_unarchived() == []


def test_a_long_pass_flags_every_so_many_closes(tmp_path, monkeypatch):
    ref = league(tmp_path)
    monkeypatch.setattr(PendingFlags, "EVERY", 2)
    events = trap(monkeypatch, ref)
    report = ref.tick()
    assert [len(e[1]) for e in events if e[0] == "flag"] == [2, 2, 1]
    assert check_every_flag_after_its_fsync(ref, events) == set(report.closed)


def test_a_forced_close_is_flagged_when_it_returns_after_its_folder_is_fsynced(ref, outbox, game, monkeypatch):
    events = trap(monkeypatch, ref)
    assert ref.force("toy1") == "turn 1 closed"
    assert ref.store.turn("toy1", 1)["archived"]
    assert check_every_flag_after_its_fsync(ref, events) == {("toy1", 1)}
    assert ref.closing.flags.turns == []


def test_a_close_called_directly_is_flagged_when_it_returns(tmp_path, monkeypatch):
    ref = league(tmp_path, 1)
    events = trap(monkeypatch, ref)
    assert ref.close_turn("toy0") == 1
    assert ref.store.turn("toy0", 1)["archived"]
    assert check_every_flag_after_its_fsync(ref, events) == {("toy0", 1)}


def record_of(ref, m: str, n: int) -> dict[str, bytes]:
    folder = ref.archive.turn_dir(m, n)
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_pass_refused_its_fsync_leaves_its_turns_to_the_repair_which_writes_and_flags_them(tmp_path, monkeypatch):
    """The round after placing fails (the power goes, as far as the flag knows): no turn is
    flagged, every close of the pass stands, and the next tick's repair writes the record again
    (here: lost with the names a power loss would take) and flags the turns, the same bytes."""
    ref = league(tmp_path)
    real = archive_files.durable

    def refuse(fds, folders=()):
        if not fds:   # the flags' round (a close's staging syncs files too)
            raise OSError(5, "Input/output error")
        real(fds, folders)
    monkeypatch.setattr(archive_files, "durable", refuse)
    report = ref.tick()
    assert report.closed == [(f"toy{i}", 1) for i in range(MATCHES)] and report.failed == []
    assert [t["archived"] for m, _ in report.closed for t in ref.store.turns(m)] == [0, 0] * MATCHES
    assert sorted(f["item"] for f in ref.store.faults() if f["stage"] == "archive") == \
        sorted(f"{m}:{n}" for m, n in report.closed)
    before = {turn: record_of(ref, *turn) for turn in report.closed}
    queued = sorted(e["dedupe"] for e in ref.store.outbox())
    for m, n in report.closed[::2]:   # the record's names a power loss took
        for name in ("orders.yaml", "turn.json"):
            (ref.archive.turn_dir(m, n) / name).unlink()
    monkeypatch.setattr(archive_files, "durable", real)
    events = trap(monkeypatch, ref)
    ref.tick()
    assert check_every_flag_after_its_fsync(ref, events) == set(report.closed)
    assert ref.store.take_unarchived() == [] and ref.store.faults() == []
    assert {turn: record_of(ref, *turn) for turn in report.closed} == before   # reports and records, byte for byte
    assert sorted(e["dedupe"] for e in ref.store.outbox()) == queued
    for m, n in report.closed:   # the orders the close resolved, as the store keeps them
        orders = yaml.safe_load((ref.archive.turn_dir(m, n) / "orders.yaml").read_text(encoding="utf-8"))
        assert orders == ref.store.turn(m, n)["result"]["orders"] and len(orders) == 3


def test_a_pass_that_dies_before_flagging_flags_nothing(tmp_path, monkeypatch):
    ref = league(tmp_path, 2)

    class Died(BaseException):   # as a kill would: nothing after it runs, no fault noted
        pass

    def die(turns):
        raise Died
    monkeypatch.setattr(ref.store, "set_archived_many", die)
    with pytest.raises(Died):
        ref.tick()
    assert [ref.store.turn(f"toy{i}", 1)["status"] for i in range(2)] == ["resolved"] * 2
    assert [ref.store.turn(f"toy{i}", 1)["archived"] for i in range(2)] == [0, 0]
    monkeypatch.undo()
    ref.tick()
    assert [ref.store.turn(f"toy{i}", 1)["archived"] for i in range(2)] == [1, 1]


def test_a_turn_a_live_process_holds_unflagged_is_not_taken_by_another_process_repair(tmp_path):
    """Another process's repair leaves a turn this (live) process closed and has not flagged yet;
    this process's own flush flags it."""
    ref = league(tmp_path, 1)
    with ref.closing.flags.batch():
        assert ref.close_turn("toy0") == 1
        assert ref.closing.flags.turns == [("toy0", 1)] and not ref.store.turn("toy0", 1)["archived"]
        other = subprocess.run(
            [sys.executable, "-c", "import sys; from referee.store import open_store;"
             " print(open_store(sys.argv[1]).take_unarchived())", location_of(ref.store)],
            capture_output=True, text=True, check=True)
        assert other.stdout.strip() == "[]"
    assert ref.store.turn("toy0", 1)["archived"]


def test_a_repair_that_takes_a_turn_held_unflagged_writes_the_same_bytes_and_both_flag_it(tmp_path):
    """If a repair took it anyway (held past archiving.GRACE), its rewrite is the same bytes by
    atomic renames, and the held flag flushed afterwards sets the same flag."""
    ref = league(tmp_path, 1)
    with ref.closing.flags.batch():
        ref.close_turn("toy0")
        placed = record_of(ref, "toy0", 1)
        assert ref.store.take_unarchived() == [{"match": "toy0", "number": 1}]   # this process's own: taken
        ref.closing.archive_turn("toy0", 1)
        assert ref.store.turn("toy0", 1)["archived"]
        assert record_of(ref, "toy0", 1) == placed
    assert ref.store.turn("toy0", 1)["archived"] and ref.store.take_unarchived() == []
    assert record_of(ref, "toy0", 1) == placed


def test_close_workers_flag_their_closes_by_the_end_of_the_pass(tmp_path):
    """Each worker flags what it closed once the pass's folders are fsynced (one round, one transaction);
    nothing is left for the repair."""
    ref = league(tmp_path)
    pool = ClosePool(Recipe.of(ref), 2)
    try:
        report = ref.tick(pool=pool)
    finally:
        pool.shutdown()
    assert report.closed == [(f"toy{i}", 1) for i in range(MATCHES)]
    assert all(ref.store.turn(m, n)["archived"] for m, n in report.closed)
    assert all((ref.archive.turn_dir(m, n) / "turn.json").exists() for m, n in report.closed)
    assert ref.store.take_unarchived() == []


def test_set_archived_many_flags_exactly_the_turns_named(tmp_path):
    """Each (match, number) pair is one turn: no crossing of one pair's match with another's number,
    and a list longer than one statement's part flags its last turn too."""
    ref = league(tmp_path, 3)
    ref.tick()   # turn 1 of each closed and flagged; turn 2 of each open, unflagged
    absent = [(f"nobody{i}", 9) for i in range(250)]
    ref.store.set_archived_many([("toy0", 2), ("toy1", 1)] + absent + [("toy2", 2)])
    assert {(m, t["number"]): t["archived"] for m in ("toy0", "toy1", "toy2") for t in ref.store.turns(m)} == {
        ("toy0", 1): 1, ("toy0", 2): 1, ("toy1", 1): 1, ("toy1", 2): 0, ("toy2", 1): 1, ("toy2", 2): 1}
    ref.store.set_archived_many([])   # nothing to flag: no statement
