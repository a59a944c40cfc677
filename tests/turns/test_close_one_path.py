"""Every close goes one way (issue 34): worked out as a plan with nothing locked, its files
staged and synced, then one commit, then the archive's record.  Nothing is stored before its
files are durable, a refused sync keeps the report bodies in the store, and a close another
worker made meanwhile is not made twice."""
from __future__ import annotations

import errno
from pathlib import Path

from referee_kit import Clock, clock, game, make_referee, outbox, ref, toy_league, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive import record as archive_files
from referee.turns.closing import Closing


def hidden(ref, match_id: str) -> list[str]:
    turn = ref.archive.turn_dir(match_id, 1)
    return sorted(p.name for p in turn.rglob(".*")) if turn.exists() else []


def test_a_sync_the_disk_refuses_keeps_the_report_bodies_in_the_store(tmp_path, monkeypatch):
    ref = toy_league(tmp_path, Clock(), 1)
    real_start = archive_files.durable_start

    def refused(fds, folders=()):
        wait = real_start(fds, folders)

        def fail():
            wait()
            raise OSError(errno.ENOSPC, "No space left on device")
        return fail
    monkeypatch.setattr(archive_files, "durable_start", refused)
    assert ref.closing.close_turn("toy0", 1) == 1
    result = ref.store.turn("toy0", 1)["result"]
    assert "text" in result["mails"]["ann"]   # the store keeps them until the archive has them
    assert hidden(ref, "toy0") == []          # the refused files are gone
    monkeypatch.setattr(archive_files, "durable_start", real_start)
    ref.tick()   # the repair writes them
    assert (ref.archive.turn_dir("toy0", 1) / "reports" / "ann.en.txt").read_text(encoding="utf-8") \
        == result["mails"]["ann"]["text"]
    assert "text" not in ref.store.turn("toy0", 1)["result"]["mails"]["ann"]


def test_a_tick_a_force_and_a_direct_close_each_commit_through_the_one_path(tmp_path, monkeypatch):
    ref = toy_league(tmp_path, Clock(), 3)
    commits: list = []
    real = Closing._commit

    def commit(self, plan, forced, owner, locked):
        commits.append((plan.match["id"], forced))
        return real(self, plan, forced, owner, locked)
    monkeypatch.setattr(Closing, "_commit", commit)
    assert ref.closing.close_turn("toy0", 1) == 1
    assert ref.force("toy1") == "turn 1 closed"
    assert ref.tick().closed == [("toy2", 1)]
    assert commits == [("toy0", False), ("toy1", True), ("toy2", False)]


def test_a_close_another_worker_made_meanwhile_is_not_made_twice(tmp_path):
    clock = Clock()
    ref = toy_league(tmp_path, clock, 1)
    other = make_referee(tmp_path, clock)   # a second connection to the same store and archive
    try:
        real = ref.closing.compute.plan
        ref.closing.compute.plan = lambda m, n: (real(m, n), other.closing.close_turn("toy0", 1))[0]
        assert ref.closing.close_turn("toy0", 1) is None   # gone: the other's close stands
        assert [(t["number"], t["status"]) for t in ref.store.turns("toy0")] == [(1, "resolved"), (2, "open")]
        rows = [r["dedupe"] for r in ref.store.outbox("toy0") if r["dedupe"].startswith("report:")]
        assert len(rows) == len(set(rows)) == 4   # 3 players and the GM, once each
        assert hidden(ref, "toy0") == []
    finally:
        other.store.close()
    assert Path(ref.archive.turn_dir("toy0", 1) / "turn.json").exists()
