"""A tick's closes in worker processes (``referee/turns/workers.py``), with real
spawned processes on the real store: every due turn closed once, the reports
the same to the byte as closed in this process, a failing close set aside
without stopping the others, a worker SIGKILLed in the middle of a close
leaving its turn to close once at the next tick."""
from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from referee_kit import SPEC, Clock, clock, game, make_referee, outbox, ref, toy_league, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.app.config import Config
from referee.app.referee import Recipe
from referee.store import open_store
from referee.turns.workers import ClosePool

MATCHES = 6
SEATS = len(SPEC["players"])


def league(root: Path, clock: Clock, matches: int = MATCHES):
    """``matches`` toy matches, no observers, every deadline passed."""
    return toy_league(root, clock, matches, seed="pool")


def reports_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root / "turns")): p.read_bytes() for p in sorted((root / "turns").rglob("reports/*"))}


def report_rows(ref) -> list[str]:
    return [e["dedupe"] for e in ref.store.outbox() if e["dedupe"].startswith("report:")]


def turn_numbers(ref, matches: int = MATCHES) -> list[int]:
    return [ref.store.current_turn(f"toy{i}")["number"] for i in range(matches)]


def test_two_workers_close_every_due_match_once_with_the_reports_of_a_close_in_process(tmp_path):
    inproc = league(tmp_path / "inproc", Clock())
    here = inproc.tick()
    pooled = league(tmp_path / "pooled", Clock())
    pool = ClosePool(Recipe.of(pooled), 2)
    try:
        report = pooled.tick(pool=pool)
        assert len(pool.pids()) == 2 and os.getpid() not in pool.pids()
    finally:
        pool.shutdown()
    assert report.closed == here.closed == [(f"toy{i}", 1) for i in range(MATCHES)]
    assert report.failed == [] and not report.more
    assert turn_numbers(pooled) == [2] * MATCHES
    rows = report_rows(pooled)
    assert len(rows) == len(set(rows)) == MATCHES * (SEATS + 1)   # each player and the GM, once
    assert reports_of(tmp_path / "pooled") == reports_of(tmp_path / "inproc")
    assert len(reports_of(tmp_path / "pooled")) == MATCHES * (SEATS + 1) * 2   # text and HTML


def test_two_referees_with_pools_closing_the_same_league_together_close_each_turn_once(tmp_path):
    """Two services' ticks at the same moment: the store's claims give every close to one of them."""
    clock = Clock()
    first = league(tmp_path, clock)
    second = make_referee(tmp_path, clock)
    pools = [ClosePool(Recipe.of(first), 2), ClosePool(Recipe.of(second), 2)]
    for pool in pools:
        pool.warm()
    reports: list = [None, None]

    def tick(k: int, ref) -> None:
        reports[k] = ref.tick(pool=pools[k])
    try:
        threads = [threading.Thread(target=tick, args=(k, r)) for k, r in enumerate((first, second))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
    finally:
        for pool in pools:
            pool.shutdown()
        second.store.close()
    closed = reports[0].closed + reports[1].closed
    assert sorted(closed) == [(f"toy{i}", 1) for i in range(MATCHES)]   # each once, by one of them
    assert turn_numbers(first) == [2] * MATCHES
    assert [t["number"] for t in first.store.turns("toy0")] == [1, 2]
    rows = report_rows(first)
    assert len(rows) == len(set(rows)) == MATCHES * (SEATS + 1)


def test_a_close_that_raises_in_a_worker_is_set_aside_and_the_other_matches_close(tmp_path):
    ref = league(tmp_path, Clock())
    ref.store._exec("UPDATE turns SET state='{\"broken\": true}' WHERE match=? AND number=1", ("toy2",))
    pool = ClosePool(Recipe.of(ref), 2)
    try:
        report = ref.tick(pool=pool)
        assert pool.restarts == 0   # a failing close is no dying worker
    finally:
        pool.shutdown()
    assert report.failed == [("toy2", 1)]
    assert report.closed == [(f"toy{i}", 1) for i in range(MATCHES) if i != 2]
    assert turn_numbers(ref) == [2, 2, 1, 2, 2, 2]
    faults = ref.store.faults()
    assert [(f["stage"], f["item"]) for f in faults] == [("close", "toy2:1.0")]
    assert "broken" not in report_rows(ref) and not [r for r in report_rows(ref) if r.startswith("report:toy2:")]


def _state(pid: int) -> str | None:
    """The process's state letter (T stopped, Z ended and not yet reaped), None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def test_a_worker_killed_in_the_middle_of_a_close_leaves_the_turn_to_close_once_at_the_next_tick(tmp_path, monkeypatch):
    ref = league(tmp_path, Clock())
    # every worker stops inside its first close, after resolving and queueing, before the commit
    monkeypatch.setenv("REFEREE_CRASH_AT", "close.before_commit")
    monkeypatch.setenv("REFEREE_CRASH_HOW", "stop")
    pool = ClosePool(Recipe.of(ref), 2)
    done: list = []
    ticking = threading.Thread(target=lambda: done.append(ref.tick(pool=pool)))
    killed = 0
    try:
        ticking.start()
        deadline = time.monotonic() + 240
        while ticking.is_alive() and time.monotonic() < deadline:
            for pid in pool.pids():
                if _state(pid) == "T":   # holding the match (and on SQLite the write lock): killed there
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
            time.sleep(0.05)
        ticking.join(timeout=10)
        assert not ticking.is_alive() and killed >= 1
        first = done[0]
        assert first.closed == [] and first.more   # nothing of a killed close is kept; the rest waits a tick
        assert turn_numbers(ref) == [1] * MATCHES and report_rows(ref) == []
        assert pool.restarts == 1
        monkeypatch.delenv("REFEREE_CRASH_AT")   # the workers started anew close as ever
        second = ref.tick(pool=pool)
    finally:
        pool.shutdown()
    assert second.closed == [(f"toy{i}", 1) for i in range(MATCHES)] and not second.more
    assert turn_numbers(ref) == [2] * MATCHES
    assert [t["number"] for t in ref.store.turns("toy0")] == [1, 2]
    rows = report_rows(ref)
    assert len(rows) == len(set(rows)) == MATCHES * (SEATS + 1)
    watch = open_store(tmp_path / "referee.sqlite")
    try:
        assert watch.current_turn("toy5")["number"] == 2   # committed, seen from another connection
    finally:
        watch.close()


def test_a_worker_stopped_when_its_set_breaks_is_ended_with_it(tmp_path):
    # SIGTERM waits in a stopped process: left so, the parent's exit would wait for ever
    ref = league(tmp_path, Clock())
    pool = ClosePool(Recipe.of(ref), 2)
    try:
        pool.warm()
        stopped, killed = pool.pids()
        os.kill(stopped, signal.SIGSTOP)
        os.kill(killed, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while not pool.broken() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert pool.broken()
        first = ref.tick(pool=pool)   # the broken set is noticed: nothing closed, the rest at once again
        assert first.closed == [] and first.more and pool.restarts == 1
        deadline = time.monotonic() + 10
        while _state(stopped) not in (None, "Z") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _state(stopped) in (None, "Z")
        second = ref.tick(pool=pool)
    finally:
        pool.shutdown()
    assert second.closed == [(f"toy{i}", 1) for i in range(MATCHES)]


@pytest.mark.parametrize("value", [-1, 65, 10**12, "many", "2", 1.5, True, [2], {"n": 2}])
def test_close_workers_outside_its_bounds_is_refused_by_the_configuration(value):
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="close_workers"):
        Config.model_validate({"close_workers": value})


@pytest.mark.parametrize("workers", [-1, 0, 65])
def test_a_pool_of_no_workers_or_too_many_is_refused(tmp_path, workers):
    ref = league(tmp_path, Clock(), matches=1)
    with pytest.raises(ValueError, match="close workers"):
        ClosePool(Recipe.of(ref), workers)


def test_the_configured_close_workers_reach_the_service(tmp_path, monkeypatch):
    from referee.app.cli import Env
    (tmp_path / "referee.yaml").write_text("close_workers: 3\n")
    monkeypatch.chdir(tmp_path)
    service = Env(str(tmp_path / "referee.yaml")).service()
    try:
        assert service.close_apart and service.close_workers == 3
    finally:
        service.referee.store.close()
        service.source.close()
    assert Config.model_validate({}).close_workers is None   # one per core
