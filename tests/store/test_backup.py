"""Snapshots of store + archive while the referee runs, and their restore: a
snapshot taken mid-campaign comes back, every match replays, and play goes on
to the same results."""
from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime, timedelta

import pytest
from hardkit import SPEC, Outbox, clock, create, make_referee, send_orders, toy_registered

from referee.app.cli import main
from referee.archive.record import replay
from referee.store.backup import MANIFEST, BackupError, restore, snapshot, verify
from referee.store.backup_auto import AutoBackup
from referee.store.meta import MetaFacts

GRACE = timedelta(minutes=30)
# the SQLite file's snapshot (its pages, a second sqlite3 writer, manifest backend "sqlite"); a
# PostgreSQL store's backup (pg_dump) is tests/store/test_backup_postgres.py's
pytestmark = pytest.mark.sqlite_file


def two_matches(ref, outbox):
    keys = {"toy1": create(ref, outbox), "toy2": create(ref, outbox, dict(SPEC, id="toy2"))}
    return keys


def play_turn(ref, keys, number: int, who=("ann", "bob", "cyd")) -> None:
    for match in ("toy1", "toy2"):
        send_orders(ref, match, keys[match], who, number, value=number % 4)


def hashes(ref, match: str) -> dict[int, str]:
    return {t["number"]: t["result"]["hash"] for t in ref.store.turns(match) if t["status"] == "resolved"}


def test_a_snapshot_taken_mid_campaign_restores_replays_and_plays_on_alike(tmp_path, clock):
    live = make_referee(tmp_path / "live", clock)
    out = Outbox(live, tmp_path / "live" / "out")
    keys = two_matches(live, out)
    play_turn(live, keys, 1)
    assert sorted(live.tick().closed) == [("toy1", 1), ("toy2", 1)]
    send_orders(live, "toy1", keys["toy1"], ["ann", "bob"], 2, value=3)     # turn 2 half in
    # a writer holds an open transaction while the snapshot is taken: it is not in it
    other = sqlite3.connect(live.store.path, timeout=5)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO meta (key, value) VALUES ('uncommitted', 'x')")
    snap = snapshot(live.store, tmp_path / "live" / "turns", tmp_path / "snap")
    other.execute("ROLLBACK")
    other.close()
    manifest, problems = verify(snap)
    assert problems == [] and manifest["backend"] == "sqlite"
    # the campaign goes on after the snapshot
    send_orders(live, "toy1", keys["toy1"], ["cyd"], 2, value=1)
    send_orders(live, "toy2", keys["toy2"], ["ann", "bob", "cyd"], 2, value=2)
    assert sorted(live.tick().closed) == [("toy1", 2), ("toy2", 2)]
    after = {m: hashes(live, m) for m in ("toy1", "toy2")}

    done = restore(snap, str(tmp_path / "back" / "referee.sqlite"), tmp_path / "back" / "turns")
    assert done["old_archive"] is None
    back = make_referee(tmp_path / "back", clock)
    assert MetaFacts(back.store).get("uncommitted") is None
    for match in ("toy1", "toy2"):
        report = replay(tmp_path / "back" / "turns" / match)
        assert report.ok and report.turns == 1, report.summary()
        assert hashes(back, match) == {1: after[match][1]}
    assert back.store.submissions("toy1", 2).keys() == {"ann", "bob"}
    # the restored referee plays on: the same orders give the same states
    send_orders(back, "toy1", keys["toy1"], ["cyd"], 2, value=1)
    send_orders(back, "toy2", keys["toy2"], ["ann", "bob", "cyd"], 2, value=2)
    assert sorted(back.tick().closed) == [("toy1", 2), ("toy2", 2)]
    for match in ("toy1", "toy2"):
        assert hashes(back, match) == after[match]
        report = replay(tmp_path / "back" / "turns" / match)
        assert report.ok and report.turns == 2, report.summary()


def test_a_turn_resolved_after_the_store_was_dumped_is_not_in_the_snapshot_s_archive(tmp_path, clock):
    live = make_referee(tmp_path, clock)
    out = Outbox(live, tmp_path / "out")
    keys = two_matches(live, out)
    play_turn(live, keys, 1)
    live.tick()
    # a turn resolved but whose archive is not written yet (a crash, a full disk)
    with live.store.transaction():
        live.store._db.execute("UPDATE turns SET archived=0 WHERE match='toy2' AND number=1")
    snap = snapshot(live.store, tmp_path / "turns", tmp_path / "snap")
    assert (snap / "turns" / "toy1" / "t001" / "turn.json").is_file()
    assert not (snap / "turns" / "toy2" / "t001").exists() or not (snap / "turns" / "toy2" / "t001" / "turn.json").exists()
    restore(snap, str(tmp_path / "back" / "referee.sqlite"), tmp_path / "back" / "turns")
    back = make_referee(tmp_path / "back", clock)
    back.tick()                                    # the next tick writes what the store holds
    assert replay(tmp_path / "back" / "turns" / "toy2").ok


def test_restore_refuses_a_store_with_matches_and_a_full_archive_without_force(tmp_path, clock):
    live = make_referee(tmp_path / "live", clock)
    create(live, Outbox(live, tmp_path / "live" / "out"))
    snap = snapshot(live.store, tmp_path / "live" / "turns", tmp_path / "snap")
    with pytest.raises(BackupError, match="ticked .* ago"):
        live.tick()
        restore(snap, live.store.path, tmp_path / "live" / "turns", now=clock.t + timedelta(minutes=1))
    with live.store.transaction():
        MetaFacts(live.store).delete("last_tick")
    with pytest.raises(BackupError, match="holds matches"):
        restore(snap, live.store.path, tmp_path / "live" / "turns")
    done = restore(snap, live.store.path, tmp_path / "live" / "turns", force=True)
    assert done["old_archive"] and (tmp_path / "live" / "turns" / "toy1" / "match.yaml").is_file()


def test_restore_refuses_a_store_another_process_is_writing_even_with_force(tmp_path, clock):
    live = make_referee(tmp_path, clock)
    create(live, Outbox(live, tmp_path / "out"))
    snap = snapshot(live.store, tmp_path / "turns", tmp_path / "snap")
    other = sqlite3.connect(live.store.path)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(BackupError, match="in use"):
            restore(snap, live.store.path, tmp_path / "turns", force=True)
    finally:
        other.execute("ROLLBACK")
        other.close()


@pytest.mark.parametrize("damage, said", [
    (lambda s: (s / MANIFEST).unlink(), "no readable MANIFEST.json"),
    (lambda s: (s / MANIFEST).write_text("[1, 2"), "no readable MANIFEST.json"),
    (lambda s: (s / MANIFEST).write_text('{"format": 99}'), "snapshot format 99"),
    (lambda s: (s / "store.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00" * 100), "checksum differs"),
    (lambda s: (s / "turns" / "toy1" / "match.yaml").write_text("changed"), "turns/toy1/match.yaml"),
    (lambda s: _manifest(s, archive={"../../etc/passwd": 1}), "../../etc/passwd"),
    (lambda s: _manifest(s, backend="oracle"), "unknown store kind 'oracle'"),
    (lambda s: _manifest(s, archive={"/etc/hostname": 1}), "/etc/hostname"),
    (lambda s: (s / "turns" / "evil").symlink_to("/etc/hostname"), "turns/evil: a symbolic link"),
    (lambda s: _manifest(s, store_file="../../outside.sqlite"), "names the store file '../../outside.sqlite'"),
])
def test_a_damaged_or_hostile_snapshot_is_refused_before_anything_is_touched(tmp_path, clock, damage, said):
    live = make_referee(tmp_path / "live", clock)
    create(live, Outbox(live, tmp_path / "live" / "out"))
    snap = snapshot(live.store, tmp_path / "live" / "turns", tmp_path / "snap")
    damage(snap)
    with pytest.raises(BackupError, match="not whole") as caught:
        restore(snap, str(tmp_path / "back" / "referee.sqlite"), tmp_path / "back" / "turns")
    assert said in str(caught.value)
    assert not (tmp_path / "back").exists()


def _manifest(snap, **changes) -> None:
    data = json.loads((snap / MANIFEST).read_text())
    data.update(changes)
    (snap / MANIFEST).write_text(json.dumps(data))


def test_a_snapshot_never_goes_into_a_folder_holding_something(tmp_path, clock):
    live = make_referee(tmp_path, clock)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("mine")
    with pytest.raises(BackupError, match="not an empty folder"):
        snapshot(live.store, tmp_path / "turns", tmp_path / "full")
    assert (tmp_path / "full" / "x").read_text() == "mine"


def test_a_snapshot_while_another_writer_commits_all_along_is_whole(tmp_path, clock):
    live = make_referee(tmp_path, clock)
    keys = two_matches(live, Outbox(live, tmp_path / "out"))
    stop, written = threading.Event(), []

    def writer():
        db = sqlite3.connect(live.store.path, timeout=10)
        n = 0
        while not stop.is_set():
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"w{n}", "x" * 2000))
            db.execute("COMMIT")
            written.append(n)
            n += 1
        db.close()
    thread = threading.Thread(target=writer)
    thread.start()
    try:
        snaps = [snapshot(live.store, tmp_path / "turns", tmp_path / f"snap{i}") for i in range(3)]
    finally:
        stop.set()
        thread.join()
    assert written and keys
    for snap in snaps:
        assert verify(snap)[1] == []


def test_a_snapshot_before_every_close_keeps_the_newest(tmp_path, clock):
    backups = AutoBackup(tmp_path / "backups", keep=2)
    live = make_referee(tmp_path, clock, auto_backup=backups)
    out = Outbox(live, tmp_path / "out")
    keys = two_matches(live, out)
    for number in (1, 2, 3):
        play_turn(live, keys, number)
        assert len(live.tick().closed) == 2
        clock.advance(minutes=1)
    taken = sorted(p.name for p in (tmp_path / "backups").glob("auto-*"))
    assert len(taken) == 2 and all(n.startswith("auto-") for n in taken)   # one a pass, the newest two kept
    newest = tmp_path / "backups" / taken[-1]
    assert verify(newest)[1] == []
    restore(newest, str(tmp_path / "back" / "referee.sqlite"), tmp_path / "back" / "turns")
    back = make_referee(tmp_path / "back", clock)
    assert back.store.current_turn("toy1")["number"] == 3 and back.store.current_turn("toy1")["status"] == "open"
    assert replay(tmp_path / "back" / "turns" / "toy1").turns == 2
    # the GM's force takes a snapshot of its own
    live.force("toy1")
    assert len(list((tmp_path / "backups").glob("auto-*"))) == 2
    assert sorted(p.name for p in (tmp_path / "backups").glob("auto-*"))[-1] not in taken


def test_backup_and_restore_from_the_command_line(tmp_path, clock, capsys, monkeypatch):
    config = tmp_path / "referee.yaml"
    config.write_text("address: referee@example.org\nstore: referee.sqlite\narchive: turns\n"
                      "mail_in:\n  maildir: mail/in\nmail_out:\n  maildir: mail/out\n")
    live = make_referee(tmp_path, clock)
    create(live, Outbox(live, tmp_path / "out"))
    live.store.close()
    monkeypatch.chdir(tmp_path)
    assert main(["--config", str(config), "backup", str(tmp_path / "snap")]) == 0
    assert "snapshot written to" in capsys.readouterr().out
    assert main(["--config", str(config), "backup", str(tmp_path / "snap")]) == 1
    assert "not an empty folder" in capsys.readouterr().err
    assert main(["--config", str(config), "restore", str(tmp_path / "snap")]) == 1
    assert "holds matches" in capsys.readouterr().err
    assert main(["--config", str(config), "restore", "--force", str(tmp_path / "snap")]) == 0
    assert "restored the snapshot taken" in capsys.readouterr().out
    assert (tmp_path / "turns" / "toy1" / "match.yaml").is_file()
    assert datetime.fromisoformat(json.loads((tmp_path / "snap" / MANIFEST).read_text())["taken"])
