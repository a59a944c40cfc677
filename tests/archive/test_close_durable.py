"""A close's report files are durable before the close commits (issue 8): the store
keeps no copy of a report body, so a power loss right after the commit must not
lose them.  The staged files' data is synced before the transaction, their final
names (the folder) before the commit; a disk that refuses the sync keeps the bodies
in the store, as a disk that refuses the write does."""
from __future__ import annotations

import os

import pytest
from referee_kit import clock, game, make_referee, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive import record as archive_files
from referee.archive import staging as archive_close
from referee.runtime import crash


def test_every_report_and_the_record_are_synced_before_the_commit_and_the_reports_names_too(
        ref, outbox, game, tmp_path, clock, monkeypatch):
    """The reports' names are durable before the close commits; the turn's record (orders.yaml,
    turn.json) is synced in the same round, before the commit, before its names exist (placed
    after the commit): no power loss can leave an empty turn.json behind an archived flag."""
    other = make_referee(tmp_path, clock)   # reads what is committed, from a connection of its own
    synced, folders = [], []
    real_sync, real_folder = archive_files._sync_data, archive_files.sync_folder

    def sync(fd: int) -> None:
        synced.append(os.path.basename(os.readlink(f"/proc/self/fd/{fd}")))
        real_sync(fd)

    def folder_sync(folder) -> None:
        if folder.name == "t001":   # when names are made durable: what is in place, what is committed
            turn = other.store.turn("toy1", 1)
            folders.append((sorted(f for f in os.listdir(folder) if not f.startswith(".")),
                            turn["status"], bool(turn["archived"])))
        real_folder(folder)
    monkeypatch.setattr(archive_files, "_sync_data", sync)
    monkeypatch.setattr(archive_files, "sync_folder", folder_sync)
    try:
        assert ref.force("toy1") == "turn 1 closed"
        turn_dir = ref.archive.turn_dir("toy1", 1)
        reports = sorted(os.listdir(turn_dir / "reports"))
        assert len(reports) == 10   # 3 players, the public report, the GM; text and HTML each
        pid = os.getpid()
        assert sorted(synced) == sorted(reports + [f".orders.yaml.{pid}.tmp", f".turn.json.{pid}.tmp"])
        inbox = ["inbox"] if (turn_dir / "inbox").exists() else []
        assert folders == [(inbox + ["reports"], "open", False)]   # every report in place, not yet committed
        assert other.store.turn("toy1", 1)["archived"]
        assert [f for f in os.listdir(turn_dir) if f.startswith(".")] == []   # nothing staged left
    finally:
        other.store.close()


def test_a_disk_that_refuses_the_sync_keeps_the_bodies_in_the_store_until_the_record_is_written(
        ref, outbox, game, monkeypatch):
    real_sync, real_point, committed = archive_files._sync_data, crash.point, []

    def refuse(fd: int) -> None:   # while the close stages its files; the disk is well again after the commit
        if not committed:
            raise OSError(5, "Input/output error")
        real_sync(fd)
    monkeypatch.setattr(archive_files, "_sync_data", refuse)

    def point(name: str) -> None:
        if name == "close.committed":
            committed.append(ref.store.turn("toy1", 1)["result"]["mails"]["ann"])
        real_point(name)
    monkeypatch.setattr(crash, "point", point)
    assert ref.force("toy1") == "turn 1 closed"
    folder = ref.archive.turn_dir("toy1", 1) / "reports"
    for at in (folder, folder.parent):
        assert not [f for f in os.listdir(at) if f.startswith(".")]   # no staged file left
    [kept] = committed   # committed with the body, as the archive had no durable copy
    assert kept["text"] == (folder / "ann.en.txt").read_text(encoding="utf-8")
    assert "text" not in ref.store.turn("toy1", 1)["result"]["mails"]["ann"]   # dropped once written


def test_a_committed_close_looks_for_no_staged_file_after_placing_them(ref, outbox, game, monkeypatch):
    """Placing empties the staged list: the discard after the commit asks the disk for nothing."""
    looked = []
    real = archive_close.discard_staged
    monkeypatch.setattr(archive_close, "discard_staged", lambda staged: looked.extend(staged) or real(staged))
    assert ref.force("toy1") == "turn 1 closed"
    assert looked == []
    folder = ref.archive.turn_dir("toy1", 1) / "reports"
    assert len(os.listdir(folder)) == 10 and not [f for f in os.listdir(folder) if f.startswith(".")]


def test_durable_syncs_every_file_and_raises_what_one_refused_after_all_ended(tmp_path, monkeypatch):
    fds = [os.open(tmp_path / f"f{i}", os.O_WRONLY | os.O_CREAT, 0o600) for i in range(9)]
    bad = fds[4]
    synced = []
    real = archive_files._sync_data

    def sync(fd: int) -> None:
        if fd == bad:
            raise OSError(28, "No space left on device")
        real(fd)
        synced.append(fd)
    monkeypatch.setattr(archive_files, "_sync_data", sync)
    try:
        archive_files.durable(fds)
        raised = None
    except OSError as exc:
        raised = exc
    finally:
        for fd in fds:
            os.close(fd)
    assert raised is not None and raised.errno == 28
    assert sorted(synced) == sorted(fd for fd in fds if fd != bad)   # none still running when it returned


def test_closes_on_two_threads_get_their_own_answers(tmp_path, monkeypatch):
    import threading
    real = archive_files._sync_data
    refusing: set[int] = set()

    def sync(fd: int) -> None:
        if fd in refusing:
            raise OSError(5, "Input/output error")
        real(fd)
    monkeypatch.setattr(archive_files, "_sync_data", sync)
    outcomes: dict[str, list] = {"good": [], "bad": []}

    def run(name: str, rounds: int = 40) -> None:
        for r in range(rounds):
            fds = [os.open(tmp_path / f"{name}{r}.{i}", os.O_WRONLY | os.O_CREAT, 0o600) for i in range(5)]
            if name == "bad":
                refusing.add(fds[2])
            try:
                archive_files.durable(fds)
                outcomes[name].append("ok")
            except OSError:
                outcomes[name].append("refused")
            finally:
                refusing.difference_update(fds)
                for fd in fds:
                    os.close(fd)
    threads = [threading.Thread(target=run, args=(n,)) for n in ("good", "bad")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes == {"good": ["ok"] * 40, "bad": ["refused"] * 40}


def test_folders_a_close_makes_have_their_names_synced_with_the_reports_before_placing(tmp_path, monkeypatch):
    """A close whose match has no folder for the turn yet makes it: its name (in the match's
    folder) and that of ``reports/`` (in the turn's) are synced in the round of the files' data."""
    root = tmp_path / "turns"
    root.mkdir()
    (root / "m1").mkdir()
    synced = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)
    monkeypatch.setattr(archive_files.os, "fsync", fsync)
    staged = archive_close.stage_reports(archive_files.Archive(root), "m1", 1, {"a.en.txt": "a", "b.en.txt": "b"})
    held = root / "m1" / "t001" / f".reports.{os.getpid()}.tmp"
    assert sorted(synced) == [str(root / "m1"), str(held)]   # t001's name, and the reports' names in their folder
    assert len(staged) == 2
    synced.clear()
    archive_close.place_staged(staged)
    assert synced == [str(root / "m1" / "t001")]   # one rename: the folder's name
    assert sorted(os.listdir(root / "m1" / "t001" / "reports")) == ["a.en.txt", "b.en.txt"]
    assert os.listdir(root / "m1" / "t001") == ["reports"]


def test_a_reports_folder_an_earlier_close_left_is_swept_when_placing(tmp_path):
    """A close that never committed left a report for a reader gone since and a dead process's
    staged file; the next close of the turn finds the folder there and removes both."""
    archive = archive_files.Archive(tmp_path)
    folder = archive.turn_dir("m1", 1) / "reports"
    folder.mkdir(parents=True)
    (folder / "gone.en.txt").write_text("left")
    (folder / ".a.en.txt.1.tmp").write_text("left")
    staged = archive_close.stage_reports(archive, "m1", 1, {"a.en.txt": "a"})
    archive_close.place_staged(staged)
    assert os.listdir(folder) == ["a.en.txt"]


def test_a_turn_folder_the_disk_will_not_sync_commits_nothing_and_the_next_close_stores_it_once(
        ref, outbox, game, monkeypatch):
    """A refused sync of the reports' new name is raised before the commit: nothing of the close is
    stored (the turn stays open, nothing queued), no staged file is left, and the next close of the
    turn, the disk well again, stores it once."""
    real_folder, refused = archive_files.sync_folder, []

    def folder_sync(folder) -> None:
        if folder.name == "t001" and not refused:
            refused.append(folder)
            raise OSError(5, "Input/output error")
        real_folder(folder)
    monkeypatch.setattr(archive_files, "sync_folder", folder_sync)
    queued = len(ref.store.outbox())
    with pytest.raises(OSError):   # the GM's force says what the disk refused
        ref.force("toy1")
    assert refused
    assert ref.store.current_turn("toy1")["number"] == 1 and ref.store.turn("toy1", 1)["status"] == "open"
    assert len(ref.store.outbox()) == queued
    turn_dir = ref.archive.turn_dir("toy1", 1)
    assert not [p.name for p in turn_dir.rglob(".*")]   # nothing staged left behind
    assert ref.force("toy1") == "turn 1 closed"
    assert ref.store.turn("toy1", 1)["status"] == "resolved"
    reports = sorted(os.listdir(turn_dir / "reports"))
    assert len(reports) == 10 and len(ref.store.outbox()) == queued + 5
