"""How a close's files reach the archive (issue 8): the reports under their own names in a
hidden folder that one rename puts in place; the turn's record (orders.yaml, turn.json)
staged with them and placed after the commit; every file durable before the flag that
says the turn is archived, on the repair's path too."""
from __future__ import annotations

import json
import os

from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive import record as archive_files
from referee.archive import staging as archive_close

ORDERS = {"ann": {"orders": {"bid": 3}, "source": "player"}}
TURN = {"match": "m1", "turn": 1, "seed": 7, "hash": "ab" * 32, "log": []}


def spy_syncs(monkeypatch):
    """What is synced, as it happens: file names (data) and folders with what they name then."""
    seen: list[tuple] = []
    real_sync, real_folder = archive_files._sync_data, archive_files.sync_folder

    def sync(fd: int) -> None:
        seen.append(("data", os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))))
        real_sync(fd)

    def folder_sync(folder) -> None:
        seen.append(("names", folder.name, sorted(os.listdir(folder))))
        real_folder(folder)
    monkeypatch.setattr(archive_files, "_sync_data", sync)
    monkeypatch.setattr(archive_files, "sync_folder", folder_sync)
    return seen


def test_write_turn_makes_the_record_and_reports_durable_before_it_returns(tmp_path, monkeypatch):
    """The repair's path: what it writes is synced, data and names, before the caller flags the turn."""
    archive = archive_files.Archive(tmp_path)
    (archive.turn_dir("m1", 1) / "inbox").mkdir(parents=True)
    seen = spy_syncs(monkeypatch)
    archive.write_turn("m1", 1, ORDERS, TURN, {"ann.en.txt": "a", "ann.en.html": "<p>a</p>"})
    pid = os.getpid()
    assert sorted(s[1] for s in seen if s[0] == "data") == sorted(
        [f".orders.yaml.{pid}.tmp", f".turn.json.{pid}.tmp", f".ann.en.txt.{pid}.tmp", f".ann.en.html.{pid}.tmp"])
    names = sorted(s[1:] for s in seen if s[0] == "names")
    assert names == [("reports", ["ann.en.html", "ann.en.txt"]), ("t001", ["inbox", "orders.yaml", "reports", "turn.json"])]
    assert (archive.turn_dir("m1", 1) / "turn.json").read_bytes() == json.dumps(TURN, indent=1, ensure_ascii=False, sort_keys=True).encode()


def test_write_turn_refused_by_the_disk_leaves_no_temporary_file_and_no_record(tmp_path, monkeypatch):
    archive = archive_files.Archive(tmp_path)

    def refuse(fd: int) -> None:
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(archive_files, "_sync_data", refuse)
    try:
        archive.write_turn("m1", 1, ORDERS, TURN, {"ann.en.txt": "a"})
    except OSError as exc:
        assert exc.errno == 5
    else:
        raise AssertionError("a refused sync must be raised")
    assert sorted(os.listdir(archive.turn_dir("m1", 1))) == ["reports"]   # no turn.json names unsynced bytes
    assert os.listdir(archive.turn_dir("m1", 1) / "reports") == []


def test_the_staged_record_is_named_only_when_placed_after_the_commit(tmp_path, monkeypatch):
    archive = archive_files.Archive(tmp_path)
    staged = archive_close.stage_reports(archive, "m1", 1, {"a.en.txt": "a"}, (ORDERS, TURN))
    turn_dir = archive.turn_dir("m1", 1)
    assert not (turn_dir / "turn.json").exists()   # nothing names the record before the commit
    archive_close.place_staged(staged)
    archive_close.discard_staged(staged)   # the close's discard after placing keeps the record for after the commit
    assert not (turn_dir / "turn.json").exists()
    assert archive_close.place_record(archive, "m1", 1)
    assert (turn_dir / "orders.yaml").read_bytes() == archive_files._yaml(ORDERS)
    assert (turn_dir / "turn.json").read_bytes() == json.dumps(TURN, indent=1, ensure_ascii=False, sort_keys=True).encode()
    assert not archive_close.place_record(archive, "m1", 1)   # nothing staged any more: the caller writes it whole


def test_a_close_given_way_leaves_no_hidden_file_or_folder(tmp_path):
    archive = archive_files.Archive(tmp_path)
    staged = archive_close.stage_reports(archive, "m1", 1, {"a.en.txt": "a", "b.en.txt": "b"}, (ORDERS, TURN))
    archive_close.discard_staged(staged)
    assert os.listdir(archive.turn_dir("m1", 1)) == []


def test_a_hidden_folder_a_dead_process_of_this_id_left_is_reused_and_swept(tmp_path):
    archive = archive_files.Archive(tmp_path)
    held = archive.turn_dir("m1", 1) / f".reports.{os.getpid()}.tmp"
    held.mkdir(parents=True)
    (held / "gone.en.txt").write_text("a reader gone since")
    (held / "a.en.txt").write_text("half a report" * 100)
    staged = archive_close.stage_reports(archive, "m1", 1, {"a.en.txt": "a"})
    archive_close.place_staged(staged)
    folder = archive.turn_dir("m1", 1) / "reports"
    assert os.listdir(folder) == ["a.en.txt"] and (folder / "a.en.txt").read_text() == "a"
    assert os.listdir(folder.parent) == ["reports"]


def test_an_empty_reports_folder_is_replaced_by_the_one_rename(tmp_path):
    archive = archive_files.Archive(tmp_path)
    folder = archive.turn_dir("m1", 1) / "reports"
    folder.mkdir(parents=True)
    archive_close.place_staged(archive_close.stage_reports(archive, "m1", 1, {"a.en.txt": "a"}))
    assert os.listdir(folder) == ["a.en.txt"] and os.listdir(folder.parent) == ["reports"]


def test_hostile_report_names_stay_inside_the_hidden_folder(tmp_path):
    archive = archive_files.Archive(tmp_path / "turns")
    for name in ("../../escape.txt", "..", "/etc/passwd", "a\x00b"):
        try:
            archive_close.stage_reports(archive, "m1", 1, {name: "x"})
        except ValueError:
            pass
        else:
            raise AssertionError(f"{name!r} accepted")
    assert not (tmp_path / "escape.txt").exists()
    assert os.listdir(archive.turn_dir("m1", 1)) == []   # nothing left of the refused closes
