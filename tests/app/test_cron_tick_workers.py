"""``referee tick`` (the cron path, ``Service.tick(workers=True)``) with many turns past their deadline
closes them in close workers started for the pass, which draw the PNGs and send their closes' reports,
each once
(issue 38); with few it closes in its own process as before.  Real spawned workers, SQLite, Maildir
in and out."""
from __future__ import annotations

import os
from email import message_from_bytes

import toygame
from referee_kit import REFEREE, Clock, toy_league, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.app import service as service_module
from referee.app.referee import Referee
from referee.app.service import Service, past_deadline
from referee.authority.base import Settings
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource
from referee.render.renderer import Renderer
from referee.store import open_store
from referee.turns import workers

MATCHES = 5


def league(tmp_path, clock) -> Referee:
    """``MATCHES`` toy matches with an observer, every deadline passed (their welcomes queued)."""
    return toy_league(tmp_path, clock, MATCHES, "cron", observers=True)


def test_cron_tick_with_many_turns_due_closes_them_in_close_workers_and_sends_each_report_once(tmp_path, monkeypatch):
    clock = Clock()
    ref = league(tmp_path, clock)
    box = tmp_path / "out"
    service = Service(ref, MaildirSource(tmp_path / "in"), MaildirSink(box), address=REFEREE, close_workers=2)
    service.flush()   # the welcomes
    welcomes = len(list((box / "new").iterdir()))
    assert past_deadline(ref, 100) == MATCHES and past_deadline(ref, 2) == 2
    monkeypatch.setattr(service_module, "CRON_POOL_FROM", 2)
    passes, close = [], workers.ClosePool.close   # which processes closed: a note, the pool's own close runs
    monkeypatch.setattr(workers.ClosePool, "close", lambda pool, *a: (close(pool, *a), passes.append(pool.pids()))[0])
    try:
        report = service.tick(workers=True)
    finally:
        ref.store.close()
    ref = Referee(open_store(str(tmp_path / "referee.sqlite")), tmp_path / "turns",
                  Renderer(extra_dirs=[toygame.TEMPLATES]), clock, Settings(address=REFEREE))
    try:
        reports = [r for r in ref.store.outbox() if r["dedupe"].startswith("report:")]
        assert sorted(report.closed) == [(f"toy{i}", 1) for i in range(MATCHES)]
        assert len(passes) == 1 and len(passes[0]) == 2 and os.getpid() not in passes[0]   # closed by two workers
        assert reports and all(r["status"] == "sent" for r in ref.store.outbox())
        assert report.sent == len(ref.store.outbox()) - welcomes >= len(reports)   # all sent, each once
        # each report sent by the worker that closed its match, on its core (claimed_by: host:pid:token)
        assert {int(r["claimed_by"].split(":")[1]) for r in reports} <= set(passes[0])
        ids = [message_from_bytes(f.read_bytes())["Message-ID"] for f in (box / "new").iterdir()]
        assert len(ids) == len(set(ids)) == welcomes + len(reports)
    finally:
        ref.store.close()


def test_cron_tick_with_few_turns_due_closes_in_its_own_process(tmp_path):
    clock = Clock()
    ref = league(tmp_path, clock)
    service = Service(ref, MaildirSource(tmp_path / "in"), MaildirSink(tmp_path / "out"), address=REFEREE)
    service.flush()
    try:
        assert past_deadline(ref, service_module.CRON_POOL_FROM) == MATCHES < service_module.CRON_POOL_FROM
        report = service.tick(workers=True)
        reports = [r for r in ref.store.outbox() if r["dedupe"].startswith("report:")]
        assert len(report.closed) == MATCHES and report.sent == len(reports) > 0   # this process sent them
    finally:
        ref.store.close()
