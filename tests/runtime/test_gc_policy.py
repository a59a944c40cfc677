"""The garbage-collection policy (``referee/runtime/gc_policy.py``): the young generation's
threshold raised for a close pass and restored after it (also when the pass raises,
also with passes on two threads), the pass's cyclic garbage freed when it ends,
and the close and picture workers freezing what their start-up made."""
from __future__ import annotations

import gc
import threading
import weakref

import pytest
from referee_kit import Clock, clock, game, outbox, ref, toy_league, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.app.referee import Recipe
from referee.pictures import board as pictures
from referee.runtime import gc_policy
from referee.turns.workers import ClosePool


@pytest.fixture(autouse=True)
def odd_thresholds():
    """Thresholds no pass would pick, so that 'restored' means these, not CPython's defaults."""
    before = gc.get_threshold()
    gc.set_threshold(701, 11, 12)
    yield
    gc.set_threshold(*before)


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_a_pass_raises_the_young_threshold_and_restores_every_threshold_when_it_raises():
    with pytest.raises(RuntimeError), gc_policy.closing_pass():
        assert gc.get_threshold() == (gc_policy.PASS_YOUNG, 11, 12)
        raise RuntimeError("a close that raises")
    assert gc.get_threshold() == (701, 11, 12)


def test_overlapping_passes_on_two_threads_restore_the_thresholds_only_when_the_last_ends():
    first_in, second_done = threading.Event(), threading.Event()
    seen: list = []

    def first() -> None:
        with gc_policy.closing_pass():
            first_in.set()
            second_done.wait(10)
            seen.append(gc.get_threshold())   # the other pass ended: still raised for this one
    thread = threading.Thread(target=first)
    thread.start()
    assert first_in.wait(10)
    with gc_policy.closing_pass():
        seen.append(gc.get_threshold())
    second_done.set()
    thread.join(10)
    assert seen == [(gc_policy.PASS_YOUNG, 11, 12)] * 2
    assert gc.get_threshold() == (701, 11, 12)


def test_the_cyclic_garbage_of_a_pass_is_freed_when_it_ends():
    gc.collect()
    with gc_policy.closing_pass():
        cycle = Cycle()
        gone = weakref.ref(cycle)
        del cycle
    assert gone() is None


def test_closing_tick_runs_with_the_raised_threshold_and_restores_it_when_a_close_raises(tmp_path, monkeypatch):
    ref = toy_league(tmp_path, Clock(), 2, seed="gc")
    during: list = []

    def failing(match_id: str, number: int | None = None, forced: bool = False, owner=None) -> None:
        during.append(gc.get_threshold())
        raise RuntimeError("a close that raises")
    monkeypatch.setattr(ref.closing, "close_turn", failing)
    report = ref.closing.tick()   # each match's guard sets its fault aside
    assert during == [(gc_policy.PASS_YOUNG, 11, 12)] * 2
    assert report.closed == []
    assert gc.get_threshold() == (701, 11, 12)


def _gc_of_worker() -> tuple[int, tuple[int, int, int]]:
    return gc.get_freeze_count(), gc.get_threshold()


def test_close_workers_freeze_their_warm_start_up_and_close_with_the_default_threshold_after(tmp_path):
    ref = toy_league(tmp_path, Clock(), 2, seed="gcpool")
    pool = ClosePool(Recipe.of(ref), 1)
    try:
        report = ref.tick(pool=pool)
        assert pool.pictures_made(timeout=120)   # the pass's end, where the worker says how its collector stands
        [(frozen, threshold)] = pool.gc_of.values()
    finally:
        pool.shutdown()
    assert report.closed == [("toy0", 1), ("toy1", 1)]
    assert frozen > 10_000   # games, templates, fonts: tens of thousands of objects
    assert threshold == (700, 10, 10)    # a spawned worker's defaults, back after each close


def test_picture_workers_freeze_their_start_up(monkeypatch):
    monkeypatch.setattr(pictures, "WORKERS", 1)
    pictures.shutdown()
    try:
        pool = pictures._executor()
        frozen, _ = pool.submit(_gc_of_worker).result(timeout=120)
    finally:
        pictures.shutdown()
    assert frozen > 1_000


def test_settle_freezes_once_a_process():
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        first, second, frozen = pool.apply(_settle_twice)
    assert first is True and second is False and frozen > 0


def _settle_twice() -> tuple[bool, bool, int]:
    first = gc_policy.settle()
    return first, gc_policy.settle(), gc.get_freeze_count()
