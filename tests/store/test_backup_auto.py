"""Issue 38, weight: the snapshots before every close pass cost the store's dump and the
archive files new since the last pass (format 2: two files a snapshot, the archive's
contents once in ``archive-files/``), are kept by the newest ``keep`` and the newest of
each of the last ``daily`` days, and are checked as hard as a full snapshot (issue 32)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from hardkit import SPEC, Outbox, clock, create, make_referee, send_orders, toy_registered  # noqa: F401 (fixtures)

from referee.archive.record import replay
from referee.store.backup import MANIFEST, POOL, BackupError, restore, verify
from referee.store.backup_auto import AutoBackup

pytestmark = pytest.mark.sqlite_file


def _campaign(tmp_path: Path, clock, backups: AutoBackup, turns: int):
    live = make_referee(tmp_path, clock, auto_backup=backups)
    keys = {"toy1": create(live, Outbox(live, tmp_path / "out"))}
    for number in range(1, turns + 1):
        send_orders(live, "toy1", keys["toy1"], ("ann", "bob", "cyd"), number, value=number % 4)
        assert live.tick().closed == [("toy1", number)]
        clock.advance(minutes=1)
    return live


def _pool(folder: Path) -> dict[str, tuple[int, int]]:
    """The shared contents: sha256 -> (inode, size)."""
    return {p.name: (p.stat().st_ino, p.stat().st_size) for p in (folder / POOL).glob("??/*")}


def test_issue38_a_pass_writes_the_store_s_dump_and_only_the_archive_files_new_since(tmp_path, clock):
    backups = AutoBackup(tmp_path / "backups", keep=10)
    _campaign(tmp_path, clock, backups, 2)
    before = _pool(tmp_path / "backups")
    archive = {p: p.stat().st_ino for p in (tmp_path / "turns").rglob("*") if p.is_file()}
    taken = sorted((tmp_path / "backups").glob("auto-*"))
    assert len(taken) == 2
    for snap in taken:   # two files, no tree of folders; the store's dump packed to a fraction
        assert sorted(p.name for p in snap.iterdir()) == [MANIFEST, "store.sqlite.gz"]
        assert verify(snap)[1] == []
        assert (snap / "store.sqlite.gz").stat().st_size < json.loads((snap / MANIFEST).read_text())["store_bytes"] / 3
    # every content once, linked from the archive (no byte of it copied on one file system)
    named = [json.loads((s / MANIFEST).read_text())["objects"] for s in taken]
    assert set(before) == {sha for objects in named for sha in objects.values()}
    assert {ino for ino, _ in before.values()} <= set(archive.values())
    # the second pass added only what the first pass's archive did not hold
    first, second = named
    assert set(first.items()) <= set(second.items())
    new = {rel for rel in second if rel not in first}
    assert new and all(rel.startswith(("toy1/t001/", "toy1/t002/")) for rel in new), sorted(new)


def test_issue38_kept_are_the_newest_and_the_newest_of_each_of_the_last_days(tmp_path):
    backups = AutoBackup(tmp_path, keep=2, daily=2)
    names = [f"auto-202603{day:02d}T{hour:02d}0000000000-m" for day, hour in
             [(1, 9), (1, 18), (2, 9), (2, 18), (3, 8), (3, 9), (3, 10)]]
    assert backups.kept(names) == {names[-1], names[-2], names[3]}      # day 3's two newest, day 2's newest
    assert AutoBackup(tmp_path, keep=1, daily=0).kept(names) == {names[-1]}
    assert AutoBackup(tmp_path, keep=1, daily=5).kept(names) == {names[1], names[3], names[-1]}


def test_issue38_a_content_no_kept_snapshot_names_is_deleted(tmp_path, clock):
    backups = AutoBackup(tmp_path / "backups", keep=1, daily=0)
    live = _campaign(tmp_path, clock, backups, 1)
    gone = tmp_path / "turns" / "toy1" / "notes.txt"     # a file the archive held, then did not
    gone.write_text("only in the first snapshots")
    live.force("toy1")                                    # a snapshot of its own, naming notes.txt
    held = json.loads((sorted((tmp_path / "backups").glob("auto-*"))[-1] / MANIFEST).read_text())["objects"]
    sha = held["toy1/notes.txt"]
    assert (tmp_path / "backups" / POOL / sha[:2] / sha).is_file()
    gone.unlink()
    clock.advance(minutes=1)
    live.force("toy1")
    assert len(list((tmp_path / "backups").glob("auto-*"))) == 1
    assert not (tmp_path / "backups" / POOL / sha[:2] / sha).exists()
    newest = sorted((tmp_path / "backups").glob("auto-*"))[-1]
    restore(newest, str(tmp_path / "back" / "referee.sqlite"), tmp_path / "back" / "turns")
    assert replay(tmp_path / "back" / "turns" / "toy1").ok


def _object(snap: Path, rel: str) -> Path:
    sha = json.loads((snap / MANIFEST).read_text())["objects"][rel]
    return snap.parent / POOL / sha[:2] / sha


def _objects(snap: Path, **changes) -> None:
    data = json.loads((snap / MANIFEST).read_text())
    data["objects"].update(changes)
    (snap / MANIFEST).write_text(json.dumps(data))


def _same_size_other_bytes(snap: Path, tmp: Path) -> None:
    path = _object(snap, "toy1/match.yaml")
    data = bytearray(path.read_bytes())
    data[0] ^= 1
    os.unlink(path)              # the archive's own file stays as it was (a link is broken, not written through)
    path.write_bytes(bytes(data))


def _outside(snap: Path, tmp: Path) -> None:
    _objects(snap, **{"toy1/match.yaml": "../../../../etc/passwd"})


def _pool_a_link(snap: Path, tmp: Path) -> None:
    shutil.move(snap.parent / POOL, tmp / "elsewhere")
    (snap.parent / POOL).symlink_to(tmp / "elsewhere")


def _object_a_link(snap: Path, tmp: Path) -> None:
    path = _object(snap, "toy1/match.yaml")
    os.unlink(path)
    path.symlink_to(tmp / "turns" / "toy1" / "match.yaml")


def _moved_alone(snap: Path, tmp: Path) -> Path:
    shutil.copytree(snap, tmp / "alone" / snap.name)
    return tmp / "alone" / snap.name


def _store_of_another_size(snap: Path, tmp: Path) -> None:
    data = json.loads((snap / MANIFEST).read_text())
    data["store_bytes"] -= 4096     # the unpacking stops there: a packed bomb fills no disk
    (snap / MANIFEST).write_text(json.dumps(data))


def _not_gzip(snap: Path, tmp: Path) -> None:
    (snap / "store.sqlite.gz").write_bytes(b"\x1f\x8b\x08" + b"\x00" * 200)
    data = json.loads((snap / MANIFEST).read_text())
    data["store_sha256"] = hashlib.sha256((snap / "store.sqlite.gz").read_bytes()).hexdigest()
    (snap / MANIFEST).write_text(json.dumps(data))


def _escaping_name(snap: Path, tmp: Path) -> None:
    data = json.loads((snap / MANIFEST).read_text())
    data["archive"]["../evil.yaml"] = data["archive"]["toy1/match.yaml"]
    data["objects"]["../evil.yaml"] = data["objects"]["toy1/match.yaml"]
    (snap / MANIFEST).write_text(json.dumps(data))


@pytest.mark.parametrize("damage, said", [
    (_same_size_other_bytes, "turns/toy1/match.yaml: its content differs from when taken"),
    (_outside, "turns/toy1/match.yaml: not a file name under the archive, or no sha256"),
    (_pool_a_link, "archive-files: the archive files this snapshot shares"),
    (_object_a_link, "turns/toy1/match.yaml: missing"),
    (_moved_alone, "is restored from the folder it was taken in"),
    (_escaping_name, "turns/../evil.yaml: not a file name under the archive"),
    (_store_of_another_size, "store.sqlite.gz: unpacks to another size than the manifest's"),
    (_not_gzip, "store.sqlite.gz: not a whole gzip file"),
], ids=["other bytes", "object outside", "pool a link", "object a link", "moved alone", "escaping name",
        "store of another size", "not gzip"])
def test_issue38_a_damaged_or_hostile_automatic_snapshot_is_refused_before_anything_is_touched(tmp_path, clock,
                                                                                               damage, said):
    _campaign(tmp_path, clock, AutoBackup(tmp_path / "backups"), 1)
    snap = sorted((tmp_path / "backups").glob("auto-*"))[-1]
    snap = damage(snap, tmp_path) or snap
    with pytest.raises(BackupError, match="not whole") as caught:
        restore(snap, str(tmp_path / "back" / "referee.sqlite"), tmp_path / "back" / "turns")
    assert said in str(caught.value)
    assert not (tmp_path / "back").exists()
    assert replay(tmp_path / "turns" / "toy1").ok       # the live archive is untouched, links or not


def test_issue38_an_automatic_snapshot_restores_a_campaign_that_replays(tmp_path, clock):
    _campaign(tmp_path, clock, AutoBackup(tmp_path / "backups"), 3)
    newest = sorted((tmp_path / "backups").glob("auto-*"))[-1]   # taken before turn 3 closed
    done = restore(newest, str(tmp_path / "back" / "referee.sqlite"), tmp_path / "back" / "turns")
    assert done["files"] == len(json.loads((newest / MANIFEST).read_text())["archive"])
    report = replay(tmp_path / "back" / "turns" / "toy1")
    assert report.ok and report.turns == 2, report.summary()
    # the restored archive is the referee's own, not linked to the snapshot's contents
    assert all(p.stat().st_nlink == 1 for p in (tmp_path / "back" / "turns").rglob("*") if p.is_file())


def test_issue38_two_passes_of_one_clock_moment_keep_both_snapshots(tmp_path, clock):
    backups = AutoBackup(tmp_path / "backups", keep=5)
    live = _campaign(tmp_path, clock, backups, 1)
    live.force("toy1")
    live.force("toy1")                      # the clock stands still: a name of its own
    names = sorted(p.name for p in (tmp_path / "backups").glob("auto-*"))
    assert len(names) == 3 and names[-1].endswith("-2"), names
    assert all(verify(tmp_path / "backups" / n)[1] == [] for n in names)


def test_issue38_referee_restore_brings_back_an_automatic_snapshot(tmp_path, clock, capsys, monkeypatch):
    from referee.app.cli import main

    live = tmp_path / "live"
    _campaign(live, clock, AutoBackup(live / "backups"), 2)
    newest = sorted((live / "backups").glob("auto-*"))[-1]
    site = tmp_path / "site"
    site.mkdir()
    (site / "referee.yaml").write_text("address: referee@example.org\nstore: referee.sqlite\narchive: turns\n"
                                       "mail_in:\n  maildir: mail/in\nmail_out:\n  maildir: mail/out\n")
    monkeypatch.chdir(site)
    assert main(["--config", str(site / "referee.yaml"), "restore", str(newest)]) == 0
    assert "restored the snapshot taken" in capsys.readouterr().out
    assert main(["--config", str(site / "referee.yaml"), "replay", "toy1"]) == 0
