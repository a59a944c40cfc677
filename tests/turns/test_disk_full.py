"""The archive's disk full during a close: the kernel's own ENOSPC (the file the
archive writes resolves to /dev/full, which answers every write with "No space
left on device"), not a mock.  The turn stands; nothing half-written counts as
archived; every report still goes out once; the next tick after the space is
back writes the archive whole.  A write the kernel refuses part-way leaves no
partial file behind."""
from __future__ import annotations

import errno
import os
import subprocess
import sys

import pytest
from hardkit import Outbox, clock, create, ref, send_orders, to, toy_registered

from referee.archive.record import replay


def fill_disk_under(folder, name: str, staged: bool = False):
    """Every write of ``name`` in ``folder`` (through the archive's temporary file, named per
    process since several workers may write; ``staged``: under its own name, in a close's
    hidden folder) meets a full device.  The trap is there before the write, so the write does
    not take it for its own partial file: it stays until removed."""
    folder.mkdir(parents=True, exist_ok=True)
    trap = folder / (name if staged else f".{name}.{os.getpid()}.tmp")
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
    turn_dir = tmp_path / "turns" / "toy1" / "t001"
    # the close's reports are staged under their names in a hidden folder; the record after it through temporary files
    traps = [fill_disk_under(turn_dir / f".reports.{os.getpid()}.tmp", "bob.de.html", staged=True),
             fill_disk_under(turn_dir / "reports", "bob.de.html")]
    send_orders(ref, "toy1", keys, ["ann", "bob", "cyd"], 1)
    ref.tick()
    result = ref.store.turn("toy1", 1)["result"]
    assert "text" in result["mails"]["bob"]                   # the bodies stay in the store
    assert not ref.store.turn("toy1", 1)["archived"]
    for trap in traps:
        trap.unlink()
    ref.tick()
    kept = ref.store.turn("toy1", 1)["result"]
    assert "text" not in kept["mails"]["bob"] and ref.store.turn("toy1", 1)["archived"]
    assert (tmp_path / "turns" / "toy1" / "t001" / "reports" / "bob.de.html").stat().st_size > 0


# The kernel refuses a write part-way when the file would pass the process's file size limit
# (EFBIG): a child process with a 4 KB limit writes through the archive's own functions.
REFUSED = """
import os, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # the write fails with EFBIG instead of killing
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
from referee.archive import record as archive, staging as archive_close
root, how = sys.argv[1], sys.argv[2]
try:
    if how == "put":
        archive._put(root, "big.txt", b"x" * 100_000)
    else:
        archive_close.stage_reports(archive.Archive(root), "m1", 1, {"a.en.txt": "small", "b.en.html": "y" * 100_000})
except OSError as exc:
    print(exc.errno)
"""


def refused_in_child(root, how: str) -> int:
    done = subprocess.run([sys.executable, "-c", REFUSED, str(root), how],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_a_write_refused_part_way_leaves_no_partial_temporary_file(tmp_path):
    assert refused_in_child(tmp_path, "put") == errno.EFBIG
    assert os.listdir(tmp_path) == []   # neither the partial temporary file nor the final one


def test_reports_refused_part_way_while_staging_leave_no_file(tmp_path):
    assert refused_in_child(tmp_path, "stage") == errno.EFBIG
    assert os.listdir(tmp_path / "m1" / "t001") == []   # the one written, the partial one and their folder gone


def test_a_temporary_file_left_by_a_dead_process_of_the_same_id_is_written_over(tmp_path):
    from referee.archive import record as archive
    stale = tmp_path / f".orders.yaml.{os.getpid()}.tmp"
    stale.write_bytes(b"half a file from a process that died" * 100)
    archive._put(str(tmp_path), "orders.yaml", b"ann: {}\n")
    assert os.listdir(tmp_path) == ["orders.yaml"] and (tmp_path / "orders.yaml").read_bytes() == b"ann: {}\n"
