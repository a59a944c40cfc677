"""A closed turn's archive is written by one worker: the one that closed it,
or one that takes it over once that one is gone (referee/store/archiving.py).
Both backends; the other worker is a real process (live, then killed)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime

from storefix import backend, location, store, store_at  # noqa: F401

from referee.store import archiving

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOST = socket.gethostname()


def _closed(store, match: str) -> None:
    store.add_match(id=match, game="toy", version="1", spec={}, seed="s", status="running",
                    gm_email="gm@x", gm_key_hash="h", created=NOW)
    store.add_turn(match=match, number=1, state={}, awaiting={}, deadline=None, seed=1, opened=NOW)
    store.resolve_turn(match, 1, {"hash": "x", "mails": {}}, NOW)


def _held_by(store, match: str, archiver: str | None) -> None:
    store._exec("UPDATE turns SET archiver=? WHERE match=?", (archiver, match))


def test_a_turn_its_live_closer_is_archiving_is_left_to_it_until_the_grace_ends(store):
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        now = time.time()
        for m, archiver in (("live", f"{HOST}:{other.pid}:{int(now)}"),
                            ("elsewhere", f"other-host:{other.pid}:{int(now)}"),
                            ("stuck", f"{HOST}:{other.pid}:{int(now - archiving.GRACE - 5)}"),
                            ("mine", archiving.me()),
                            ("old", None),
                            ("garbled", "nonsense")):
            _closed(store, m)
            _held_by(store, m, archiver)
        assert [r["match"] for r in store.take_unarchived()] == ["garbled", "mine", "old", "stuck"]
        # taken: each now names this process, and no other worker takes it meanwhile
        rows = store._all("SELECT match, archiver FROM turns WHERE match IN ('garbled', 'old', 'stuck')")
        assert {r["archiver"].rsplit(":", 1)[0] for r in rows} == {archiving.me().rsplit(":", 1)[0]}
        other.kill()
        other.wait()
        # the closer died between its commit and its archive: its turn is taken over at once
        assert [r["match"] for r in store.take_unarchived()] == ["garbled", "live", "mine", "old", "stuck"]
    finally:
        other.kill()
        other.wait()


def _unarchived_in_another_process(location) -> list[str]:
    code = ("import sys; from referee.store import open_store; s = open_store(sys.argv[1]);"
            " print(' '.join(r['match'] for r in s.take_unarchived())); s.close()")
    out = subprocess.run([sys.executable, "-c", code, str(location)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_a_turn_one_worker_took_for_repair_is_left_by_another_worker(store, location):
    for i in range(5):
        _closed(store, f"m{i}")
        _held_by(store, f"m{i}", None)   # closed before schema 6, or copied: anyone's
    assert [r["match"] for r in store.take_unarchived()] == [f"m{i}" for i in range(5)]   # this process takes them
    assert _unarchived_in_another_process(location) == []   # this process lives: the other leaves them
    _held_by(store, "m3", f"{HOST}:999999999:{int(time.time())}")   # taken by a process gone since
    assert _unarchived_in_another_process(location) == ["m3"]


def test_a_reopened_turn_forgets_its_archiver_and_a_new_close_names_its_own(store):
    _closed(store, "m")
    assert store.turn("m", 1)["archiver"].rsplit(":", 1)[0] == f"{HOST}:{os.getpid()}"
    store.reopen_turn("m", 1, None)
    assert store.turn("m", 1)["archiver"] is None
