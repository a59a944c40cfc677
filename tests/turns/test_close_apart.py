"""``referee run`` closes turns apart (``Service(close_apart=True)``): a thread on a
second connection to the same store decides, close worker processes close: a
league's reports come out the same to the byte as when the mail loop closes them
itself, mail sent during the close is answered, and a worker killed in the middle
of a close leaves its turn to close once at the next tick."""
from __future__ import annotations

import mailbox
import re
import threading
import time
from pathlib import Path

from referee_kit import REFEREE, SPEC, Clock, make_referee, raw_mail, toy_league

from referee.app.service import Service
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource
from referee.store import open_store
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

MATCHES = 4


def league(root: Path, clock: Clock, apart: bool) -> tuple[dict[str, bytes], list[bytes], Service]:
    """MATCHES toy matches due together, run by the service loop until every one
    is closed and everything sent; one status command from ann comes in meanwhile.
    Returns the archive's reports, the mails sent and the service."""
    ref = make_referee(root, clock)
    for i in range(MATCHES):
        ref.create_match(dict(SPEC, id=f"toy{i}", observers=[],
                              players=[dict(p, email=p["email"].replace("@", f"{i}@")) for p in SPEC["players"]]),
                         seed=f"apart-{i}")
    key = next(re.search(rb"Your key: ([A-Z0-9-]+)", e["message"]).group(1).decode()
               for e in ref.store.outbox("toy0") if e["recipient"] == "ann0@example.org")
    clock.advance(hours=49)   # every deadline passed
    inbox = root / "in"
    mailbox.Maildir(str(inbox)).add(raw_mail("ann0@example.org", f"match: toy0\nplayer: ann\nkey: {key}\n"
                                                                 "command: status\n", message_id="<ask@x>"))
    service = Service(ref, MaildirSource(inbox), MaildirSink(root / "out"), address=REFEREE, poll_interval=0.2,
                      close_apart=apart)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,), daemon=True)
    runner.start()
    watch = open_store(root / "referee.sqlite")   # this thread's own connection, never the service's
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        closed = all(watch.current_turn(f"toy{i}")["number"] == 2 for i in range(MATCHES))
        if closed and not [e for e in watch.outbox() if e["status"] in ("queued", "sending")]:
            break
        time.sleep(0.1)
    watch.close()
    stop.set()
    runner.join(timeout=60)
    assert not runner.is_alive()
    reports = {str(p.relative_to(root / "turns")): p.read_bytes()
               for p in sorted((root / "turns").rglob("reports/*"))}
    sent = [m.as_bytes() for m in mailbox.Maildir(str(root / "out"), create=False)]
    return reports, sent, service


def test_a_league_closed_apart_gives_the_same_reports_and_the_mail_meanwhile_is_answered(tmp_path):
    inloop, _, _ = league(tmp_path / "inloop", Clock(), apart=False)
    apart, sent, service = league(tmp_path / "apart", Clock(), apart=True)
    assert service._closer is not None and not service._closer.is_alive()   # it ran, and stopped with the loop
    assert service._pool is not None and service._pool.restarts == 0   # closed by the close worker processes
    assert service._pool.pids() == []   # and they stopped with the loop
    assert len(inloop) == MATCHES * 2 * 4   # 3 players and the GM, text and HTML
    assert apart == inloop
    answers = [m for m in sent if b"In-Reply-To: <ask@x>" in m]
    assert len(answers) == 1 and b"[toy0]" in answers[0]
    reports = [m for m in sent if b"Auto-Submitted: auto-generated" in m and b"In-Reply-To" not in m]
    assert len(reports) >= MATCHES * 4


def test_a_store_in_memory_is_closed_in_the_loop(tmp_path):
    """A second connection to ':memory:' would be another, empty database: no thread then."""
    from referee.app.referee import Referee
    from referee.store.sqlite import SqliteStore  # SQLite's own: not routed to PostgreSQL in its test pass
    ref = Referee(SqliteStore(":memory:"), tmp_path / "turns")
    service = Service(ref, MaildirSource(tmp_path / "in"), MaildirSink(tmp_path / "out"), address=REFEREE,
                      close_apart=True)
    assert service._second_referee() is None
    ref.store.close()


def test_the_last_orders_close_the_turn_early_without_waiting_for_the_closing_thread_to_wake(tmp_path):
    """The closing thread sleeps until the next deadline (here 300 s, the poll interval);
    mail that comes in wakes it, so the turn whose last orders arrive closes at once
    (within the minute a busy machine may take to spawn the close workers)."""
    clock = Clock()
    ref = make_referee(tmp_path, clock)
    ref.create_match(dict(SPEC, observers=[]), seed="early")
    keys = {e["recipient"].split("@")[0]: re.search(rb"(?:Your key|Dein Schl\xc3\xbcssel): ([A-Z0-9-]+)", e["message"]).group(1)
            .decode() for e in ref.store.outbox("toy1") if e["dedupe"].startswith("welcome:")}
    inbox = tmp_path / "in"
    service = Service(ref, MaildirSource(inbox), MaildirSink(tmp_path / "out"), address=REFEREE, poll_interval=300,
                      close_apart=True)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,), daemon=True)
    runner.start()
    watch = open_store(tmp_path / "referee.sqlite")
    try:
        time.sleep(1.0)   # the closing thread has looked once and sleeps
        for who in ("ann", "bob", "cyd"):
            mailbox.Maildir(str(inbox)).add(raw_mail(f"{who}@example.org", f"match: toy1\nplayer: {who}\n"
                                                     f"key: {keys[who]}\nturn: 1\norders:\n  bid: 2\n"))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and watch.current_turn("toy1")["number"] == 1:
            time.sleep(0.1)
        assert watch.current_turn("toy1")["number"] == 2
    finally:
        stop.set()
        runner.join(timeout=60)
        watch.close()
    assert not runner.is_alive()


def test_a_close_worker_killed_in_the_middle_of_a_close_leaves_the_turn_to_the_next_tick_which_closes_it_once(
        tmp_path, monkeypatch):
    """The service's close worker stops inside its first close (before its commit), holding the match;
    SIGKILLed there, it is replaced, and the turn closes once.  One worker: with two, both would
    stop at that point, and the second, stopped rather than killed, would hold its match for ever."""
    import os
    import signal

    ref = toy_league(tmp_path, Clock(), MATCHES, seed="kill")
    monkeypatch.setenv("REFEREE_CRASH_AT", "close.before_commit")
    monkeypatch.setenv("REFEREE_CRASH_HOW", "stop")
    service = Service(ref, MaildirSource(tmp_path / "in"), MaildirSink(tmp_path / "out"), address=REFEREE,
                      poll_interval=0.2, close_apart=True, close_workers=1)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,), daemon=True)
    runner.start()
    watch = open_store(tmp_path / "referee.sqlite")
    killed = []
    try:
        deadline = time.monotonic() + 180
        while not killed and time.monotonic() < deadline:
            for pid in service._pool.pids() if service._pool is not None else []:
                stat = Path(f"/proc/{pid}/stat")
                if stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "T":
                    monkeypatch.delenv("REFEREE_CRASH_AT")   # the workers started anew close as ever
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    break
            time.sleep(0.05)
        assert killed, "a close worker stopped inside a close"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not all(watch.current_turn(f"toy{i}")["number"] == 2
                                                      for i in range(MATCHES)):
            time.sleep(0.1)
        assert [watch.current_turn(f"toy{i}")["number"] for i in range(MATCHES)] == [2] * MATCHES
        assert [t["number"] for t in watch.turns("toy0")] == [1, 2]
        rows = [e["dedupe"] for e in watch.outbox() if e["dedupe"].startswith("report:")]
        assert len(rows) == len(set(rows)) == MATCHES * 4   # 3 players and the GM, each once
        assert service._pool.restarts >= 1
    finally:
        stop.set()
        runner.join(timeout=120)
        watch.close()
    assert not runner.is_alive()
