"""Identical close workers claiming due turns in the store (issues 34, 38), with real spawned
processes, on SQLite and on PostgreSQL: two services' workers closing one league together
try each match once (no CPU on a match another holds), and a worker killed in the middle of
a close leaves its match to close once later, whoever claims it."""
from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import toygame
from processes import kill_stopped_while
from referee_kit import BOSS, REFEREE, SPEC, Clock, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.app.referee import Recipe, Referee
from referee.authority.base import Settings
from referee.mail.senderauth import Trust
from referee.render.renderer import Renderer
from referee.store import closing as close_rows
from referee.store import open_store
from referee.turns.workers import ClosePool

MATCHES = 8


def referee(location: str, root: Path, clock) -> Referee:
    return Referee(open_store(location), root / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]), clock,
                   Settings(address=REFEREE, gm_keys={BOSS[0]: BOSS[1]}, trust=Trust(strangers="all")))


@pytest.fixture(params=["sqlite", "postgresql"])
def league(request, tmp_path):
    """``MATCHES`` toy matches on SQLite or PostgreSQL, every deadline passed; (location, first referee, clock)."""
    location = str(tmp_path / "referee.sqlite") if request.param == "sqlite" \
        else request.getfixturevalue("postgres").new_schema()
    clock = Clock()
    ref = referee(location, tmp_path, clock)
    for i in range(MATCHES):
        ref.create_match(dict(SPEC, id=f"toy{i}", observers=[],
                              players=[dict(p, email=p["email"].replace("@", f"{i}@")) for p in SPEC["players"]]),
                         seed=f"workers-{i}")
    clock.advance(hours=49)
    yield location, ref, clock
    ref.store.close()


def numbers(ref) -> list[int]:
    return [ref.store.current_turn(f"toy{i}")["number"] for i in range(MATCHES)]


def test_two_services_workers_closing_one_league_try_each_match_once(league, tmp_path):
    location, first, clock = league
    second = referee(location, tmp_path, clock)
    pools = [ClosePool(Recipe.of(first), 2), ClosePool(Recipe.of(second), 2)]
    reports: list = [None, None]
    try:
        for pool in pools:
            pool.warm()
        threads = [threading.Thread(target=lambda k=k, r=r: reports.__setitem__(k, r.tick(pool=pools[k])))
                   for k, r in enumerate((first, second))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
    finally:
        for pool in pools:
            pool.shutdown()
        second.store.close()
    every = [(f"toy{i}", 1) for i in range(MATCHES)]
    assert sorted(reports[0].closed + reports[1].closed) == every   # each closed once, by one of them
    assert pools[0].tries + pools[1].tries == Counter(dict.fromkeys(every, 1))   # and tried once
    assert numbers(first) == [2] * MATCHES and close_rows.queued(first.store) == []
    rows = [r["dedupe"] for r in first.store.outbox() if r["dedupe"].startswith("report:")]
    assert len(rows) == len(set(rows)) == MATCHES * (len(SPEC["players"]) + 1)


def test_a_worker_killed_in_the_middle_of_a_close_leaves_its_match_to_close_once_later(league, monkeypatch):
    location, ref, clock = league
    monkeypatch.setenv("REFEREE_CRASH_AT", "close.before_commit")   # every worker stops in its first commit
    monkeypatch.setenv("REFEREE_CRASH_HOW", "stop")
    pool = ClosePool(Recipe.of(ref), 2)
    done: list = []
    try:
        pool.warm()
        ticking = threading.Thread(target=lambda: done.append(ref.tick(pool=pool)))
        ticking.start()
        killed = kill_stopped_while(ticking.is_alive, pool.pids, 240)
        ticking.join(10)
        assert killed >= 1 and done[0].closed == [] and done[0].more
        assert numbers(ref) == [1] * MATCHES
        assert all(row["owner"] is None for row in close_rows.queued(ref.store))   # the dead's claims let go
        monkeypatch.delenv("REFEREE_CRASH_AT")
        closed = []
        while True:
            report = ref.tick(pool=pool)
            closed += report.closed
            if not report.more:
                break
    finally:
        pool.shutdown()
    assert sorted(closed) == [(f"toy{i}", 1) for i in range(MATCHES)] and numbers(ref) == [2] * MATCHES
    assert [t["number"] for t in ref.store.turns("toy0")] == [1, 2]
    rows = [r["dedupe"] for r in ref.store.outbox() if r["dedupe"].startswith("report:")]
    assert len(rows) == len(set(rows)) == MATCHES * (len(SPEC["players"]) + 1)
