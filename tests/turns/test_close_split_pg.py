"""The split close on PostgreSQL with two workers, each on its own connection
(issue 12): while one holds the match (its close committing), the other's tick
gives way at once, and the GM's force waits for that close and then says the
turn was just closed, closing nothing twice."""
from __future__ import annotations

import threading
import time

import pytest
import toygame
from referee_kit import BOSS, REFEREE, SPEC

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.authority.wording import Refusal
from referee.mail.senderauth import Trust
from referee.render.renderer import Renderer
from referee.store import open_store
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


def worker(url: str, root, clock) -> Referee:
    return Referee(open_store(url), root / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]), clock,
                   Settings(address=REFEREE, gm_keys={BOSS[0]: BOSS[1]}, trust=Trust(strangers="all")))


@pytest.fixture
def two(postgres, tmp_path, clock):
    """Two workers on one PostgreSQL schema and one archive, the match created."""
    url = postgres.new_schema()
    first = worker(url, tmp_path, clock)
    second = worker(url, tmp_path, clock)
    first.create_match(SPEC, seed="pg-split")
    yield first, second
    for w in (first, second):
        w.store.close()


def reports_queued(w) -> int:
    return len([r for r in w.store.outbox("toy1") if r["dedupe"].startswith("report:")])


def test_a_gm_force_waits_for_another_workers_close_and_says_the_turn_was_just_closed(two):
    first, second = two
    answer: list = []

    def force() -> None:
        try:
            answer.append(second.force("toy1"))
        except Refusal as refused:
            answer.append(refused)

    with first.store.transaction():   # the first worker's close, its transaction not yet committed
        assert first.closing.close_turn("toy1", 1) == 1
        gm = threading.Thread(target=force)
        gm.start()
        gm.join(3)
        assert gm.is_alive() and answer == []   # the GM's close waits for the claim
    gm.join(60)
    assert not gm.is_alive()
    [refused] = answer
    assert isinstance(refused, Refusal) and refused.code == "gm.just_closed" and refused.params == {"turn": 1}
    assert [(t["number"], t["status"], t["rev"]) for t in second.store.turns("toy1")] == \
        [(1, "resolved", 0), (2, "open", 0)]
    assert reports_queued(second) == 5
    folder = second.archive.turn_dir("toy1", 1) / "reports"
    assert not [f.name for f in folder.iterdir() if f.name.startswith(".")]   # the waiting close's files gone


def test_a_tick_gives_way_at_once_to_another_worker_holding_the_match(two):
    first, second = two
    with first.store.transaction():
        assert first.store.claim_match("toy1", wait=False)
        started = time.monotonic()
        assert second.closing.close_turn("toy1", 1) is None   # another worker is closing it: not waited for
        assert time.monotonic() - started < 10
    assert second.closing.close_turn("toy1", 1) == 1
    assert reports_queued(second) == 5
