"""Finding 9: the files that hold secrets are the owner's alone, and the outbox
keeps no part of a key once the welcome mail is sent."""
from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from seckit import SPEC, clock, hostile, keys_of, mail, order, outbox, ref, toy_registered  # noqa: F401


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_finding9_referee_yaml_is_written_for_its_owner_only(tmp_path):
    done = subprocess.run([sys.executable, "-m", "referee.app.cli", "init"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert mode(tmp_path / "referee.yaml") == 0o600


@pytest.mark.sqlite_file
def test_finding9_store_and_received_mails_are_the_owners_alone(ref, outbox, tmp_path):
    old = os.umask(0o022)   # the usual umask, under which files come out world-readable
    try:
        ref.create_match(SPEC)
        keys = keys_of(outbox.flush())
        ref.handle(mail(hostile("ann@example.org", order("ann", keys["ann"]))))
        ref.handle(mail(hostile("nobody@example.net", "hello", message_id="<x@example.net>")))
    finally:
        os.umask(old)
    for name in ("referee.sqlite", "referee.sqlite-wal", "referee.sqlite-shm"):
        assert mode(tmp_path / name) == 0o600, name
    emls = list((tmp_path / "turns").rglob("*.eml"))
    assert len(emls) == 2
    for eml in emls:
        assert mode(eml) == 0o600 and mode(eml.parent) == 0o700, eml


def test_finding9_the_outbox_dedupe_keeps_no_part_of_a_key(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox.flush())
    welcomes = [r for r in ref.store.outbox() if r["dedupe"].startswith("welcome:")]
    assert len(welcomes) == 3
    for row in welcomes:
        player = row["dedupe"].split(":")[2]
        key = keys[player]
        assert key[-4:] not in row["dedupe"] and key.replace("-", "")[-4:] not in row["dedupe"]
        assert row["message"] == b""   # the text with the key is gone once sent
