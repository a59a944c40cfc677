"""Close workers that send their closes' mail (issue 38: what a GM waits for, sent on every core),
with real spawned processes on SQLite and a Maildir sink: every report of the league is sent once,
each by the worker that closed its match; a worker killed between the sink's acceptance and the
record of it leaves no report unsent and none in the mailbox twice (the parent's outbox takes its
claims over, sends the identical message, and the sink keeps one); a sink that cannot be handed to a
process leaves the sending to the parent."""
from __future__ import annotations

import threading
from email import message_from_bytes
from pathlib import Path

import pytest
from processes import kill_stopped_while
from referee_kit import SPEC, Clock, toy_league, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.app.referee import Recipe
from referee.mail.sink import MaildirSink
from referee.turns.workers import ClosePool, picklable

MATCHES = 6


@pytest.fixture
def league(tmp_path):
    """``MATCHES`` toy matches with an observer on SQLite, every deadline passed, the welcomes sent;
    (referee, clock)."""
    clock = Clock()
    ref = toy_league(tmp_path, clock, MATCHES, "send", observers=True)
    ref.send_pending(MaildirSink(tmp_path / "welcomes"))
    yield ref, clock
    ref.store.close()


def reports(ref) -> list[dict]:
    return [r for r in ref.store.outbox() if r["dedupe"].startswith("report:")]


def delivered(box: Path) -> list[str]:
    """The Message-IDs in the Maildir, one per message file."""
    return [message_from_bytes(f.read_bytes())["Message-ID"] for f in sorted((box / "new").iterdir())]


def test_close_workers_send_every_report_of_their_closes_once(league, tmp_path):
    ref, _ = league
    box = tmp_path / "out"
    pool = ClosePool(Recipe.of(ref), 2, sink=MaildirSink(box))
    try:
        pool.warm()
        report = ref.tick(pool=pool)
        assert pool.pictures_made(120)
    finally:
        pool.shutdown()
    rows = reports(ref)
    readers = len(SPEC["players"]) + len(SPEC["observers"]) + 1   # and the GM
    assert len(report.closed) == MATCHES and len(rows) == MATCHES * readers and SPEC["observers"]
    assert all(r["status"] == "sent" for r in ref.store.outbox())   # nothing left to the parent
    assert pool.sent == len(rows)
    ids = delivered(box)
    assert len(ids) == len(set(ids)) == pool.sent
    assert ref.send_pending(MaildirSink(box)).sent == 0


def test_a_worker_killed_after_the_sink_took_a_report_leaves_none_unsent_and_none_twice(league, tmp_path, monkeypatch):
    ref, _ = league
    box = tmp_path / "out"
    # each worker stops right after the sink took its first report, before that is recorded
    monkeypatch.setenv("REFEREE_CRASH_AT", "outbox.after_send")
    monkeypatch.setenv("REFEREE_CRASH_HOW", "stop")
    pool = ClosePool(Recipe.of(ref), 2, sink=MaildirSink(box))
    try:
        pool.warm()
        report = ref.tick(pool=pool)
        drawing = threading.Thread(target=pool.pictures_made, args=(240,))
        drawing.start()
        killed = kill_stopped_while(drawing.is_alive, pool.pids, 240)
        drawing.join(10)
    finally:
        pool.shutdown()
    monkeypatch.delenv("REFEREE_CRASH_AT")
    assert len(report.closed) == MATCHES and killed >= 1
    left = [r for r in reports(ref) if r["status"] != "sent"]
    assert left and all(r["status"] in ("sending", "queued") for r in left)   # the dead's claims and the unsent
    before = set(delivered(box))
    sent = ref.send_pending(MaildirSink(box)).sent   # the parent's outbox: the dead's claims taken over
    assert sent == len(left)
    assert all(r["status"] == "sent" for r in reports(ref))
    ids = delivered(box)
    assert len(ids) == len(set(ids)) == len(reports(ref))   # the repeat of a taken report was kept once
    assert before <= set(ids)


def test_a_sink_that_cannot_be_handed_to_a_worker_leaves_the_sending_to_the_parent(tmp_path):
    class Connected:
        def __init__(self) -> None:
            self.lock = threading.Lock()   # as a live connection: no process can be handed it

    assert picklable(Connected()) is None
    maildir = MaildirSink(tmp_path / "box")
    assert picklable(maildir) is maildir and picklable(None) is None
