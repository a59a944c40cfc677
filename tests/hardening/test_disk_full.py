"""The archive's disk full during a close: the kernel's own ENOSPC (the file the
archive writes resolves to /dev/full, which answers every write with "No space
left on device"), not a mock.  The turn stands; nothing half-written counts as
archived; every report still goes out once; the next tick after the space is
back writes the archive whole."""
from __future__ import annotations

import errno
import os

import pytest
from hardkit import Outbox, clock, create, ref, send_orders, to, toy_registered

from referee.archive import replay


def fill_disk_under(folder, name: str):
    """Every write of ``name`` in ``folder`` (through the archive's temporary file, named per
    process since several workers may write) meets a full device."""
    folder.mkdir(parents=True, exist_ok=True)
    trap = folder / f".{name}.{os.getpid()}.tmp"
    os.symlink("/dev/full", trap)
    return trap


def test_dev_full_really_refuses_writes():
    with pytest.raises(OSError) as caught, open("/dev/full", "wb") as f:
        f.write(b"x" * 10)
        f.flush()
    assert caught.value.errno == errno.ENOSPC


def test_a_full_disk_while_archiving_a_close_is_repaired_by_the_next_tick(ref, tmp_path, clock):
    out = Outbox(ref, tmp_path / "out")
    keys = create(ref, out)
    turn_dir = tmp_path / "turns" / "toy1" / "t001"
    trap = fill_disk_under(turn_dir, "turn.json")
    send_orders(ref, "toy1", keys, ["ann", "bob", "cyd"], 1)
    out.flush()
    assert ref.tick().closed == [("toy1", 1)]              # the turn stands whatever the disk does
    turn = ref.store.turn("toy1", 1)
    assert turn["status"] == "resolved" and not turn["archived"]
    (fault,) = [f for f in ref.store.faults() if f["stage"] == "archive"]
    assert "No space left on device" in fault["error"]
    # nothing half-written is taken for done: no turn.json, the replay does not count the turn
    assert not (turn_dir / "turn.json").exists()
    assert replay(tmp_path / "turns" / "toy1").turns == 0
    sent = out.flush()
    for who in ("ann@", "bob@", "cyd@", "watcher@"):          # the reports come from the store meanwhile
        assert len([m for m in to(sent, who) if "eport" in m["Subject"] or "ericht" in m["Subject"]]) == 1, who
    gm = [m for m in to(sent, "gm@") if "archive of turn 1" in m["Subject"]]
    assert len(gm) == 1
    # the disk is still full: tried again, told nobody again
    clock.advance(minutes=5)
    ref.tick()
    assert not ref.store.turn("toy1", 1)["archived"]
    assert not [m for m in out.flush() if "archive" in m["Subject"]]
    # space again: the next tick writes the archive whole and clears the fault
    trap.unlink()
    clock.advance(minutes=5)
    ref.tick()
    assert ref.store.turn("toy1", 1)["archived"]
    assert [f for f in ref.store.faults() if f["stage"] == "archive"] == []
    report = replay(tmp_path / "turns" / "toy1")
    assert report.ok and report.turns == 1
    assert (turn_dir / "reports" / "ann.en.txt").is_file()
    assert out.flush() == []                                  # and no report a second time


def test_a_full_disk_for_the_reports_keeps_their_text_in_the_store_until_written(ref, tmp_path, clock):
    out = Outbox(ref, tmp_path / "out")
    keys = create(ref, out)
    trap = fill_disk_under(tmp_path / "turns" / "toy1" / "t001" / "reports", "bob.de.html")
    send_orders(ref, "toy1", keys, ["ann", "bob", "cyd"], 1)
    ref.tick()
    result = ref.store.turn("toy1", 1)["result"]
    assert "text" in result["mails"]["bob"]                   # the bodies stay in the store
    trap.unlink()
    ref.tick()
    kept = ref.store.turn("toy1", 1)["result"]
    assert "text" not in kept["mails"]["bob"] and ref.store.turn("toy1", 1)["archived"]
    assert (tmp_path / "turns" / "toy1" / "t001" / "reports" / "bob.de.html").stat().st_size > 0
