"""Issue 32, item 7: ``referee restore`` brings back exactly what it checked.  A manifest
naming another store file (an absolute path to an old schema-1 store), a file the manifest
does not list, a ``turns`` that is itself a link, and a store and an archive of different
moments are each refused with a plain answer, before the store or the archive is touched."""
from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest
from hardkit import Outbox, clock, create, make_referee, send_orders, toy_registered  # noqa: F401 (fixtures)

from referee.app.cli import main
from referee.archive.record import is_private
from referee.store.backup import MANIFEST, snapshot

pytestmark = pytest.mark.sqlite_file
CONFIG = "address: referee@example.org\nstore: referee.sqlite\narchive: turns\n" \
         "mail_in:\n  maildir: mail/in\nmail_out:\n  maildir: mail/out\n"


def _manifest(snap: Path, **changes) -> None:
    data = json.loads((snap / MANIFEST).read_text())
    data.update(changes)
    (snap / MANIFEST).write_text(json.dumps(data))


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _campaign(root: Path, clock, value: int, turns: int):
    live = make_referee(root, clock)
    keys = {"toy1": create(live, Outbox(live, root / "out"))}
    for number in range(1, turns + 1):
        send_orders(live, "toy1", keys["toy1"], ("ann", "bob", "cyd"), number, value=value)
        assert live.tick().closed == [("toy1", number)]
    return live


def _old_store(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    db.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    db.execute("CREATE TABLE matches (id TEXT)")
    db.commit()
    db.close()


def _absolute_old_store(snap: Path, tmp: Path, clock) -> None:
    """The snapshot's own store.sqlite is checked by its name; this one, of the same name, was loaded."""
    (tmp / "old").mkdir()
    _old_store(tmp / "old" / "store.sqlite")
    _manifest(snap, store_file=str(tmp / "old" / "store.sqlite"))


def _unlisted_file(snap: Path, tmp: Path, clock) -> None:
    (snap / "turns" / "toy1" / "t001" / "extra.html").write_text("<script>alert(1)</script>")


def _turns_a_link(snap: Path, tmp: Path, clock) -> None:
    shutil.move(snap / "turns", tmp / "elsewhere")   # the files the manifest lists, each at its size
    (snap / "turns").symlink_to(tmp / "elsewhere")


def _other_moment(snap: Path, tmp: Path, clock) -> None:
    """The store of a snapshot two turns on, with its manifest's checksum: whole, but not one."""
    later = snapshot(_campaign(tmp / "later", clock, 1, 2).store, tmp / "later" / "turns", tmp / "snap2")
    shutil.copy(later / "store.sqlite", snap / "store.sqlite")
    _manifest(snap, store_sha256=_sha(snap / "store.sqlite"))


def _other_campaign(snap: Path, tmp: Path, clock) -> None:
    """The store of another campaign of the same match and turn, other orders: other states."""
    other = snapshot(_campaign(tmp / "other", clock, 3, 1).store, tmp / "other" / "turns", tmp / "snap3")
    shutil.copy(other / "store.sqlite", snap / "store.sqlite")
    _manifest(snap, store_sha256=_sha(snap / "store.sqlite"))


@pytest.mark.parametrize("hostile, said, todo", [
    (_absolute_old_store, "names the store file '/", "take a new one with `referee backup`"),
    (_unlisted_file, "turns/toy1/t001/extra.html: not listed in the manifest", "take a new one"),
    (_turns_a_link, "turns: a symbolic link", "take a new one"),
    (_other_moment, "the store holds turn 2 of toy1 as archived, but the archive has no turns/toy1/t002/turn.json",
     "they come from different snapshots"),
    (_other_campaign, "turns/toy1/t001/turn.json: its state hash is not the one the store holds",
     "they come from different snapshots"),
], ids=["absolute store_file", "unlisted file", "turns a link", "other moment", "other campaign"])
def test_issue32_item7_restore_refuses_what_it_did_not_check(tmp_path, clock, capsys, monkeypatch, hostile, said, todo):
    snap = snapshot(_campaign(tmp_path / "live", clock, 0, 1).store, tmp_path / "live" / "turns", tmp_path / "snap")
    hostile(snap, tmp_path, clock)
    site = tmp_path / "site"
    site.mkdir()
    (site / "referee.yaml").write_text(CONFIG)
    monkeypatch.chdir(site)
    assert main(["--config", str(site / "referee.yaml"), "restore", str(snap)]) == 1
    err = capsys.readouterr().err
    assert said in err and todo in err, err
    assert "internal error" not in err
    assert sorted(p.name for p in site.iterdir()) == ["referee.yaml"], "nothing was touched"
    # the snapshot as taken comes back whole
    if hostile is _unlisted_file:
        (snap / "turns" / "toy1" / "t001" / "extra.html").unlink()
        assert main(["--config", str(site / "referee.yaml"), "restore", str(snap)]) == 0
        assert main(["--config", str(site / "referee.yaml"), "replay", "toy1"]) == 0
        assert not (site / "turns" / "toy1" / "t001" / "extra.html").exists()
        restored = [p for p in (site / "turns").rglob("*") if p.is_file()]
        assert any(p.parent.name == "inbox" for p in restored)   # brought back with the archive's modes (item 6)
        for path in restored:
            parts = path.relative_to(site / "turns").parts
            assert stat.S_IMODE(path.stat().st_mode) == (0o600 if is_private(parts) else 0o644), path
            if is_private(parts) and parts[-2] in ("inbox", "private"):
                assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700, path.parent
