"""Snapshots of a store on PostgreSQL (pg_dump / pg_restore, referee/store/backup_pg.py) on the
real server of tests/kits/pg.py: taken mid-campaign, restored into another schema, another
database, or over the store itself, every match replays and plays on alike; the
automatic snapshot before a close is taken there too.  The SQLite side: tests/store/test_backup.py."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hardkit import Outbox, clock, create, make_referee, toy_registered  # noqa: E402, F401 (fixtures)
from test_backup import hashes, play_turn, two_matches  # noqa: E402

from referee.app.cli import main  # noqa: E402
from referee.archive.record import replay  # noqa: E402
from referee.store.backup import MANIFEST, BackupError, restore, snapshot, verify  # noqa: E402
from referee.store.backup_auto import AutoBackup  # noqa: E402
from referee.store.backup_pg import PostgresBackend  # noqa: E402

MATCHES = ("toy1", "toy2")


def _campaign(tmp_path, clock, url):
    """Two matches with two turns played on the store at ``url``: (referee, keys)."""
    live = make_referee(tmp_path / "live", clock, store=url)
    keys = two_matches(live, Outbox(live, tmp_path / "live" / "out"))
    for number in (1, 2):
        play_turn(live, keys, number)
        assert sorted(live.tick().closed) == [("toy1", number), ("toy2", number)]
    return live, keys


@pytest.mark.parametrize("where", ["schema", "database", "schema not made yet"])
def test_a_postgresql_snapshot_restores_elsewhere_replays_and_plays_on_alike(tmp_path, clock, postgres, where):
    new = postgres.new_schema if where != "database" else postgres.new_database
    live, keys = _campaign(tmp_path, clock, new())
    snap = snapshot(live.store, tmp_path / "live" / "turns", tmp_path / "snap")
    manifest, problems = verify(snap)
    assert problems == [] and manifest["backend"] == "postgresql" and manifest["store_file"] == "store.pgdump"
    # restore pairs store and archive by these (issue 32, item 7): read from the dump's COPY data
    assert PostgresBackend().archived(snap / "store.pgdump") == {(m, n): h for m in MATCHES for n, h in hashes(live, m).items()}
    play_turn(live, keys, 3)                       # the campaign goes on after the snapshot
    assert len(live.tick().closed) == 2
    after = {m: hashes(live, m) for m in MATCHES}
    assert all(len(h) == 3 for h in after.values())

    back_url = new() if where != "schema not made yet" else postgres.url(schema=f"unmade_{tmp_path.name[-12:]}")
    done = restore(snap, back_url, tmp_path / "back" / "turns")
    assert done["old_archive"] is None
    back = make_referee(tmp_path / "back", clock, store=back_url)
    for match in MATCHES:
        report = replay(tmp_path / "back" / "turns" / match)
        assert report.ok and report.turns == 2, report.summary()
        assert hashes(back, match) == {n: after[match][n] for n in (1, 2)}
    play_turn(back, keys, 3)                       # the same orders give the same states
    assert len(back.tick().closed) == 2
    for match in MATCHES:
        assert hashes(back, match) == after[match]
        assert replay(tmp_path / "back" / "turns" / match).turns == 3
        assert hashes(live, match) == after[match]   # the store the snapshot came from is untouched


def test_a_postgresql_snapshot_restored_over_its_own_store_with_force_turns_it_back(tmp_path, clock, postgres):
    url = postgres.new_schema()
    live, keys = _campaign(tmp_path, clock, url)
    snap = snapshot(live.store, tmp_path / "live" / "turns", tmp_path / "snap")
    at_snapshot = {m: hashes(live, m) for m in MATCHES}
    play_turn(live, keys, 3)
    live.tick()
    live.store.close()                             # the service is stopped before a restore
    with pytest.raises(BackupError, match="ticked .* ago"):
        restore(snap, url, tmp_path / "live" / "turns", now=clock.t)
    done = restore(snap, url, tmp_path / "live" / "turns", force=True, now=clock.t)
    assert done["old_archive"]
    back = make_referee(tmp_path / "live", clock, store=url)
    for match in MATCHES:
        assert hashes(back, match) == at_snapshot[match]
        assert back.store.current_turn(match)["number"] == 3
        report = replay(tmp_path / "live" / "turns" / match)
        assert report.ok and report.turns == 2, report.summary()


def test_the_snapshot_before_a_close_is_taken_on_postgresql(tmp_path, clock, postgres):
    backups = AutoBackup(tmp_path / "backups", keep=5)
    live = make_referee(tmp_path / "live", clock, store=postgres.new_schema(), auto_backup=backups)
    keys = two_matches(live, Outbox(live, tmp_path / "live" / "out"))
    play_turn(live, keys, 1)
    assert len(live.tick().closed) == 2
    taken = list((tmp_path / "backups").glob("auto-*"))
    assert len(taken) == 1 and taken[0].name.startswith("auto-")   # one a pass, before its first close
    manifest, problems = verify(taken[0])
    assert problems == [] and manifest["backend"] == "postgresql"
    back_url = postgres.new_schema()
    restore(taken[0], back_url, tmp_path / "back" / "turns")
    back = make_referee(tmp_path / "back", clock, store=back_url)
    for match in MATCHES:                          # the moment before the close: turn 1 still open
        assert back.store.current_turn(match)["number"] == 1
        assert back.store.current_turn(match)["status"] == "open"
        assert back.store.submissions(match, 1).keys() == {"ann", "bob", "cyd"}


def test_a_damaged_postgresql_dump_is_refused_before_anything_is_touched(tmp_path, clock, postgres):
    live, _ = _campaign(tmp_path, clock, postgres.new_schema())
    snap = snapshot(live.store, tmp_path / "live" / "turns", tmp_path / "snap")
    (snap / "store.pgdump").write_bytes(b"PGDMP" + b"\x00\xff" * 200)
    data = json.loads((snap / MANIFEST).read_text())
    data["store_sha256"] = __import__("hashlib").sha256((snap / "store.pgdump").read_bytes()).hexdigest()
    (snap / MANIFEST).write_text(json.dumps(data))
    back_url = postgres.new_schema()
    with pytest.raises(BackupError, match="not a readable pg_dump archive"):
        restore(snap, back_url, tmp_path / "back" / "turns")
    assert not (tmp_path / "back").exists()


def test_backup_and_restore_from_the_command_line_on_postgresql(tmp_path, clock, postgres, capsys, monkeypatch):
    url = postgres.new_schema()
    live, _ = _campaign(tmp_path, clock, url)
    live.store.close()
    config = tmp_path / "referee.yaml"
    config.write_text(f"address: referee@example.org\nstore: '{url}'\narchive: live/turns\n"
                      "mail_in:\n  maildir: mail/in\nmail_out:\n  maildir: mail/out\n")
    monkeypatch.chdir(tmp_path)
    assert main(["--config", str(config), "backup", str(tmp_path / "snap")]) == 0, capsys.readouterr().err
    assert "snapshot written to" in capsys.readouterr().out
    assert main(["--config", str(config), "restore", str(tmp_path / "snap")]) == 1
    assert "holds matches" in capsys.readouterr().err
    assert main(["--config", str(config), "restore", "--force", str(tmp_path / "snap")]) == 0
    assert "restored the snapshot taken" in capsys.readouterr().out
    assert replay(tmp_path / "live" / "turns" / "toy1").turns == 2


def test_the_client_programs_get_the_store_s_password_as_libpq_s(monkeypatch):
    from referee.store.backup_pg import _env

    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.delenv("REFEREE_STORE_PASSWORD", raising=False)
    assert "PGPASSWORD" not in _env()
    monkeypatch.setenv("PGPASSWORD", "libpq's")
    assert _env()["PGPASSWORD"] == "libpq's"
    monkeypatch.setenv("REFEREE_STORE_PASSWORD", "the store's")   # the store prefers it: so does its backup
    assert _env()["PGPASSWORD"] == "the store's"


def test_a_store_behind_a_password_is_dumped_and_restored_with_referee_store_password(
        tmp_path, clock, postgres, monkeypatch):
    import psycopg

    hba = postgres.data / "pg_hba.conf"   # this role alone must give a password; the others stay trusted
    if "referee_pw" not in hba.read_text():
        hba.write_text("host all referee_pw 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'referee_pw'").fetchone():
            conn.execute("CREATE ROLE referee_pw LOGIN PASSWORD 'sesame'")
        conn.execute("GRANT CREATE ON DATABASE referee TO referee_pw")
        conn.execute("SELECT pg_reload_conf()")
    urls = [postgres.new_schema() for _ in range(2)]
    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        for url in urls:
            conn.execute(f'ALTER SCHEMA "{url.rsplit("%3D", 1)[1]}" OWNER TO referee_pw')
    live_url, back_url = (u.replace("referee@", "referee_pw@") for u in urls)
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("REFEREE_STORE_PASSWORD", "sesame")
    live, keys = _campaign(tmp_path, clock, live_url)
    snap = snapshot(live.store, tmp_path / "live" / "turns", tmp_path / "snap")
    restore(snap, back_url, tmp_path / "back" / "turns")
    back = make_referee(tmp_path / "back", clock, store=back_url)
    assert {m: hashes(back, m) for m in MATCHES} == {m: hashes(live, m) for m in MATCHES}
    monkeypatch.delenv("REFEREE_STORE_PASSWORD")   # without it the server says no: the password did the work
    with pytest.raises(RuntimeError, match="failed: .*no password supplied"):
        snapshot(live.store, tmp_path / "live" / "turns", tmp_path / "snap2")


def test_a_dump_of_a_schema_with_a_quoting_game_in_its_name_is_refused(tmp_path, postgres):
    from types import SimpleNamespace

    import psycopg

    url = postgres.new_schema('evil$$x')
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE turns (match TEXT, number INTEGER, archived INTEGER)")
        conn.execute("INSERT INTO turns VALUES ('toy1', 1, 1)")
    store = SimpleNamespace(backup_backend="postgresql", dsn=url)   # a store only to be dumped
    snap = snapshot(store, tmp_path / "turns", tmp_path / "snap")
    assert verify(snap)[0]["backend"] == "postgresql"
    with pytest.raises(BackupError, match="unusual name"):
        restore(snap, postgres.new_schema(), tmp_path / "back" / "turns")
    assert not (tmp_path / "back").exists()
