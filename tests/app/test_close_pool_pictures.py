"""The close workers' pictures: a tick's closes are done (closed, queued, archived)
before any PNG of theirs is made; the workers then make the PNGs and hand them to
the parent, and every report with a picture is sent with ``png_of``'s very bytes,
whether its PNG was made by then or not, and whichever worker died meanwhile."""
from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections import OrderedDict
from pathlib import Path

import pytest
from processes import kill_stopped_while
from referee_kit import Clock, clock, game, outbox, ref, toy_league, toy_registered  # noqa: F401  (the authority's fixtures)
from refkit import Outbox
from test_close_pool_parts import real_league

from referee.app.referee import Recipe
from referee.pictures import board as pictures
from referee.turns.workers import ClosePool, default_workers

CLOSED = [("m0", 1), ("m1", 1)]


@pytest.fixture(autouse=True)
def own_pictures(monkeypatch):
    """No picture workers in this process and nothing kept from another test: a PNG the
    parent has is one a close worker made or one the sending rendered."""
    monkeypatch.setattr(pictures, "WORKERS", 0)
    monkeypatch.setattr(pictures, "_ready", OrderedDict())


def drawn(ref) -> list[str]:
    return [svg for m, n in CLOSED for svg in ref.store.turn(m, n)["result"]["pictures"].values()]


def kept(svg: str) -> bool:
    return pictures._key(svg) in pictures._ready


def assert_sent_with_their_pictures(ref, out: Path) -> int:
    """Every queued report sent, each with a picture carrying exactly ``png_of`` of its SVG; how many had one."""
    expected = {}
    for row in ref.store.outbox():
        p = json.loads(row["message"])
        if row["dedupe"].startswith("report:"):
            svg = ref.mail_queue.report_body(p["report"])[2]
            expected[p["message_id"]] = pictures.png_of(svg) if svg else None
    mails = Outbox(ref, out).flush()
    got = {}
    for m in mails:
        if m["Message-ID"] in expected:
            images = [part.get_content() for part in m.walk() if part.get_content_type() == "image/png"]
            got[m["Message-ID"]] = images[0] if images else None
            assert len(images) <= 1
    assert got == expected
    return sum(1 for png in expected.values() if png is not None)


@pytest.fixture
def league_and_pool(tmp_path):
    """A real league and a warm pool of two close workers (shut down after the test)."""
    ref = real_league(tmp_path, Clock())
    pool = ClosePool(Recipe.of(ref), 2)
    try:
        pool.warm()
        yield ref, pool
    finally:
        pool.shutdown()


def test_with_close_workers_the_tick_returns_before_the_pngs_are_made_and_reports_carry_their_exact_png(
        tmp_path, league_and_pool):
    ref, pool = league_and_pool
    report = ref.tick(pool=pool)
    at_return = [kept(svg) for svg in drawn(ref)]   # looked at as the tick returns: a PNG takes 20 ms or more
    assert report.closed == CLOSED and not report.more
    assert [t["status"] for m, _ in CLOSED for t in ref.store.turns(m)][::2] == ["resolved", "resolved"]
    assert drawn(ref) and at_return == [False] * len(drawn(ref))   # no worker draws before every close is done
    assert pool.pictures_made(timeout=120)
    assert all(kept(svg) for svg in drawn(ref))
    assert [pictures.cached_png(svg) for svg in drawn(ref)] == [pictures.png_of(svg) for svg in drawn(ref)]
    pool.shutdown()
    assert assert_sent_with_their_pictures(ref, tmp_path / "out") == 3 + 5 + 2   # each player and each GM


def test_reports_sent_while_their_pngs_are_being_made_and_a_worker_killed_drawing_lose_no_picture(
        tmp_path, league_and_pool):
    ref, pool = league_and_pool
    report = ref.tick(pool=pool)
    assert report.closed == CLOSED
    os.kill(pool.pids()[0], signal.SIGKILL)   # while it draws (or is about to)
    assert assert_sent_with_their_pictures(ref, tmp_path / "out") == 10   # not waiting for the workers
    assert pool.pictures_made(timeout=120)   # each made, or failed with its worker
    assert [pictures.cached_png(svg) for svg in drawn(ref)] == [pictures.png_of(svg) for svg in drawn(ref)]
    before = pool.pids()
    assert ref.tick(pool=pool).closed == [] and pool.broken()   # nothing due
    pool.warm()   # the pool broken by the kill is started anew
    assert pool.restarts == 1 and len(pool.pids()) == 2 and not set(pool.pids()) & set(before)


def test_a_worker_killed_after_its_commit_before_handing_back_its_pictures_loses_no_report_or_picture(
        tmp_path, monkeypatch):
    ref = real_league(tmp_path, Clock())
    monkeypatch.setenv("REFEREE_CRASH_AT", "close.committed")   # committed, its SVGs never reach the parent
    monkeypatch.setenv("REFEREE_CRASH_HOW", "stop")
    pool = ClosePool(Recipe.of(ref), 2)
    done: list = []
    killed = 0
    try:
        pool.warm()
        seen = set(pool.pids())
        ticking = threading.Thread(target=lambda: done.append(ref.tick(pool=pool)))
        ticking.start()
        killed += kill_stopped_while(ticking.is_alive, pool.pids, 240)
        ticking.join(timeout=10)
        kill_stopped_while(lambda: True, lambda: seen, 0.06)   # one stopped after the pool broke (no longer listed) would never end
        assert not ticking.is_alive() and killed >= 1 and done[0].closed == [] and done[0].more
        # the stopped worker's close committed; one cut short by the broken pool did not (closed next)
        lost = [m for m, _ in CLOSED if ref.store.current_turn(m)["number"] == 2]
        assert lost
        monkeypatch.delenv("REFEREE_CRASH_AT")
        while ref.tick(pool=pool).more:   # the next passes: what is left closes, the archive is repaired
            pass
        assert pool.pictures_made(timeout=120)
    finally:
        pool.shutdown()
    assert [ref.store.current_turn(m)["number"] for m, _ in CLOSED] == [2, 2]   # both closes committed once
    assert [t["number"] for t in ref.store.turns("m0")] == [1, 2]
    lost_svgs = [svg for m in lost for svg in ref.store.turn(m, 1)["result"]["pictures"].values()]
    assert lost_svgs and not any(kept(svg) for svg in lost_svgs)   # never handed back by a worker ...
    assert assert_sent_with_their_pictures(ref, tmp_path / "out") == 10   # ... and no report is without it


def test_the_services_default_closes_a_due_batch_in_one_close_worker_per_core(tmp_path):
    from referee.app.service import Service
    ref = toy_league(tmp_path, Clock(), 8, seed="default")
    service = Service(ref, None, None, address="referee@example.org", close_apart=True)
    assert service.close_workers is None
    stop = threading.Event()
    try:
        assert service._closing_apart(stop)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not all(
                ref.store.current_turn(f"toy{i}")["number"] == 2 for i in range(8)):
            time.sleep(0.1)
        pool = service._pool
        assert pool is not None and pool.workers == default_workers() == len(pool.pids())
        assert [ref.store.current_turn(f"toy{i}")["number"] for i in range(8)] == [2] * 8
        assert ref.store.faults() == []
    finally:
        stop.set()
        service._wake_closer.set()
        if service._closer is not None:
            service._closer.join(timeout=60)
        if service._pool is not None:
            service._pool.shutdown()
