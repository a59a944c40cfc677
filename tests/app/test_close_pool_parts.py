"""The close workers' parts added for speed and for mail during a close, with real
spawned workers on a real store: workers started warm (no template compiled in a
close), at a lower priority than the service, letting a mail being handled go first,
and ``Closing.tick(close=False)`` noting the due turns for them."""
from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path

import pytest
from referee_kit import SPEC, Clock, clock, make_referee, outbox, ref, toy_league, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.app.referee import Recipe, Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.pictures import board as pictures
from referee.render.renderer import Renderer
from referee.store import open_store
from referee.turns.worker import warm_renderer
from referee.turns.workers import NICE, ClosePool

MATCHES = 6
SEATS = len(SPEC["players"])


def turn_numbers(ref, matches: int = MATCHES) -> list[int]:
    return [ref.store.current_turn(f"toy{i}")["number"] for i in range(matches)]


def report_rows(ref) -> list[str]:
    return [e["dedupe"] for e in ref.store.outbox() if e["dedupe"].startswith("report:")]


def real_league(root: Path, clock: Clock) -> Referee:
    """One match of each game the close bench mixes (text and HTML reports, pictures), deadlines passed."""
    ref = Referee(open_store(root / "referee.sqlite"), root / "turns", Renderer(), clock,
                  Settings(address="referee@league.test"))
    for i, (game, seats) in enumerate((("founding_fathers", 3), ("perricumer_ratsspiel", 5))):
        players = [{"id": f"p{k}", "name": f"P{k}", "email": f"p{k}.{i}@league.test"} for k in range(seats)]
        spec = {"id": f"m{i}", "game": game, "lang": ("en", "de")[i], "gm": "gm@league.test",
                "schedule": {"period": "48h"}, "early_close": False, "players": players}
        sample = getattr(registry.get(game), "sample_options", None)
        if callable(sample):
            spec["options"] = sample([p["id"] for p in players])
        ref.create_match(spec, seed=f"warm-{i}")
    clock.advance(hours=49)
    return ref


def compiled(renderer: Renderer) -> set:
    return {(env, key[1]) for env, e in (("text", renderer.text_env), ("html", renderer.html_env),
                                         ("mail", renderer.mail_env)) for key in e.cache.keys()}


def test_a_warmed_renderer_compiles_no_template_and_reads_no_source_during_a_close(tmp_path, monkeypatch):
    monkeypatch.setattr(pictures, "WORKERS", 0)
    ref = real_league(tmp_path, Clock())
    warm_renderer(ref.renderer)
    before = compiled(ref.renderer)
    report = ref.tick()
    assert report.closed == [("m0", 1), ("m1", 1)]
    assert compiled(ref.renderer) - before == set()   # each close used only templates compiled at the start


def _niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_close_workers_run_at_a_lower_priority_than_the_service(tmp_path):
    ref = toy_league(tmp_path, Clock(), 1, seed="nice")
    pool = ClosePool(Recipe.of(ref), 2)
    try:
        pool.warm()
        own = _niceness(__import__("os").getpid())
        assert len(pool.pids()) == 2
        assert [_niceness(pid) for pid in pool.pids()] == [min(19, own + NICE)] * 2
    finally:
        pool.shutdown()


def test_a_pass_that_does_not_close_notes_the_due_turns_and_closes_none(tmp_path):
    ref = toy_league(tmp_path, Clock(), 3, seed="note")
    report = ref.closing.tick(close=False)
    assert report.due == [("toy0", 1), ("toy1", 1), ("toy2", 1)]
    assert report.closed == [] and report.failed == [] and not report.more
    assert turn_numbers(ref, 3) == [1, 1, 1] and report_rows(ref) == []
    assert "close_turn" not in vars(ref.closing)   # nothing swapped on the Closing


@pytest.mark.sqlite_file   # SQLite's one write lock; PostgreSQL has none (each match is claimed by its row)
def test_a_worker_lets_a_mail_being_handled_go_before_its_next_claim(tmp_path):
    ref = toy_league(tmp_path, Clock(), 2, seed="mailfirst")
    mail_first = multiprocessing.get_context("spawn").Event()
    pool = ClosePool(Recipe.of(ref), 2, mail_first=mail_first)
    done: list = []
    try:
        pool.warm()
        mail_first.set()   # the service is handling a mail
        ticking = threading.Thread(target=lambda: done.append(ref.tick(pool=pool)))
        ticking.start()
        time.sleep(2.0)   # a toy close is worked out in milliseconds; its transaction waits
        watch = make_referee(tmp_path, Clock())
        try:
            assert turn_numbers(watch, 2) == [1, 1] and ticking.is_alive()
        finally:
            watch.store.close()
        mail_first.clear()   # the mail is answered: the closes go on
        ticking.join(timeout=60)
    finally:
        pool.shutdown()
    assert done and done[0].closed == [("toy0", 1), ("toy1", 1)]
    assert turn_numbers(ref, 2) == [2, 2]


def _children(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


def test_workers_close_real_games_as_in_process_and_hand_their_pictures_to_the_parent(tmp_path, monkeypatch):
    monkeypatch.setattr(pictures, "WORKERS", 0)   # in process: the sending renders the PNGs
    here = real_league(tmp_path / "here", Clock())
    here.tick()
    monkeypatch.setattr(pictures, "_ready", type(pictures._ready)())
    pooled = real_league(tmp_path / "pooled", Clock())
    pool = ClosePool(Recipe.of(pooled), 2)
    try:
        report = pooled.tick(pool=pool)
        assert report.closed == [("m0", 1), ("m1", 1)] and not report.more
        assert [_children(pid) for pid in pool.pids()] == [[], []]   # a worker starts no picture workers
        assert pool.pictures_made(timeout=120)   # made after the tick, by the workers
    finally:
        pool.shutdown()

    def reports(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root / "turns")): p.read_bytes() for p in sorted((root / "turns").rglob("reports/*"))}
    assert reports(tmp_path / "pooled") == reports(tmp_path / "here") != {}
    drawn = [svg for m in ("m0", "m1") for svg in pooled.store.turn(m, 1)["result"]["pictures"].values()]
    assert drawn and all(pictures._key(svg) in pictures._ready for svg in drawn)   # ready for the sending
    assert [pictures._ready[pictures._key(svg)].result() for svg in drawn] == [pictures.png_of(svg) for svg in drawn]


@pytest.mark.sqlite_file   # SQLite's one write lock; PostgreSQL has none (each match is claimed by its row)
def test_the_closing_thread_and_the_mail_loop_queue_for_one_write_lock(tmp_path):
    from referee.app.service import Service
    ref = toy_league(tmp_path, Clock(), 1, seed="lock")
    service = Service(ref, None, None, address="referee@example.org", close_apart=True)
    closer = service._second_referee()
    try:
        assert closer is not None and closer.store is not ref.store
        assert closer.store._db._lock is ref.store._db._lock   # woken when the other lets go, not polling
        with ref.store.transaction():   # the mail loop's transaction: the closing thread's waits for it
            got: list = []
            t = threading.Thread(target=lambda: got.append(closer.store._db._lock.acquire(timeout=0.5)))
            t.start()
            t.join()
            assert got == [False]
    finally:
        closer.store.close()
