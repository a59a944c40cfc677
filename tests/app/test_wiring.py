"""What referee.yaml switches on: the outage watch on the wall clock, the
snapshots before closing (on by default), and the patient SMTP sink."""
from __future__ import annotations

from pathlib import Path

import pytest
from hardkit import START, clock, toy_registered

from referee.app import config as config_mod
from referee.app.wiring import open_referee, open_sink
from referee.outbox.patient_sink import PatientSink
from referee.store.backup_auto import AutoBackup

BASE = "address: referee@example.org\nstore: data/referee.sqlite\narchive: turns\nmail_in:\n  maildir: mail/in\n"


def load(tmp_path: Path, extra: str = "", out: str = "mail_out:\n  maildir: mail/out\n"):
    path = tmp_path / "referee.yaml"
    path.write_text(BASE + out + extra)
    return config_mod.load(path)


def test_a_referee_on_the_wall_clock_watches_outages_and_snapshots_before_closing(tmp_path):
    cfg = load(tmp_path)
    ref = open_referee(cfg)
    assert ref.settings.watch_outages is True and ref.outages.watch is True
    backup = ref.settings.auto_backup
    assert isinstance(backup, AutoBackup) and backup.keep == 10
    assert backup.folder == tmp_path / "data" / "backups"
    simulated = open_referee(cfg, clock=lambda: START)      # the demo's clock: no outage watch
    assert simulated.settings.watch_outages is False


def test_backups_are_configured_or_switched_off(tmp_path):
    cfg = load(tmp_path, "backups:\n  folder: /srv/snapshots\n  keep: 3\n")
    assert open_referee(cfg).settings.auto_backup == AutoBackup(Path("/srv/snapshots"), 3)
    off = load(tmp_path, "backups:\n  before_close: false\n")
    assert open_referee(off).settings.auto_backup is None


@pytest.mark.parametrize("extra, said", [
    ("backups:\n  keep: 0\n", "keep"),
    ("backups:\n  keep: 100000000\n", "keep"),
    ("backups:\n  before_close: sometimes\n", "before_close"),
    ("backups:\n  snapshot_everything: true\n", "snapshot_everything"),
    ("backups: [1, 2]\n", "backups"),
])
def test_hostile_backup_settings_are_refused(tmp_path, extra, said):
    with pytest.raises(config_mod.ConfigError) as caught:
        load(tmp_path, extra)
    assert said in " ".join(caught.value.problems)


def test_smtp_mail_goes_through_the_patient_sink(tmp_path):
    cfg = load(tmp_path, out="mail_out:\n  smtp:\n    host: 127.0.0.1\n    port: 2525\n    security: plain\n")
    assert isinstance(open_sink(cfg), PatientSink)


def test_the_starter_file_names_the_backups(tmp_path):
    path = config_mod.write_starter(tmp_path)
    assert "# backups:" in path.read_text() and config_mod.load(path).backups.before_close
