"""Issue 32's kill test: two ``referee run`` workers (real processes) on one PostgreSQL
store, mail in and out through Maildir folders; three times in a row one worker is
killed with ``kill -9`` (the ``referee run`` process alone, not its group) in the middle
of a close and one in the middle of a burst of mails.  Afterwards every mail is filed
and answered once, every turn closed once, every report sent once, no process of a
killed worker is left (its close worker, stopped inside its close, and multiprocessing's
resource tracker end with it), and no turn waited on the archiver's grace period."""
from __future__ import annotations

import email
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from functools import partial
from pathlib import Path

import pytest
import yaml
from processes import alive, tree
from workers import PLAYERS, order_mail, stop_all, welcome_keys

from referee.app.config import load
from referee.app.wiring import open_referee
from referee.game_api.contract import Rng
from referee.store import archiving

# runs on a PostgreSQL database of its own in the first pass (CI's PostgreSQL pass does not list it)
ROUNDS = 3
DUE = 2        # matches a round makes due, for the kill in the middle of a close
ORDERING = 2   # matches a round's burst sends every seat's orders for (3 mails each)
# the closer is killed after its commit (the turn's archive left to another worker: where the grace
# period would show) or before it (the match's row lock held by the dead worker's session)
CLOSE_POINTS = ("close.committed", "close.before_commit", "close.committed")
SETTLE = archiving.GRACE * 0.75   # seconds a round may take from the closer's kill: a turn that waited
                                  # on the grace would take GRACE at least


class Site:
    def __init__(self, url: str, folder: Path) -> None:
        self.folder = folder
        (folder / "referee.yaml").write_text(f"""\
address: referee@referee.test
store: {url}
archive: turns
mail_in: {{maildir: mail/in}}
mail_out: {{maildir: mail/out}}
poll_interval: 1
close_workers: 1
""")
        self.env = dict(os.environ, PYTHONUNBUFFERED="1")
        for name in ("REFEREE_TEST_STORE", "REFEREE_CRASH_AT", "REFEREE_CRASH_HOW"):
            self.env.pop(name, None)
        self.procs: list[subprocess.Popen] = []
        self.orders: list[str] = []

    def referee(self):
        return open_referee(load(self.folder / "referee.yaml"))

    def make(self, names: list[str]) -> dict:
        """Matches of three seats, deadlines two days off; every seat's key (read before any is sent)."""
        ref = self.referee()
        try:
            for name in names:
                ref.create_match({"id": name, "game": "founding_fathers", "gm": "gm@players.test",
                                  "schedule": {"period": "48h"},
                                  "players": [{"id": p, "name": p.title(), "email": f"{p}@players.test"}
                                              for p in PLAYERS]})
            return welcome_keys(ref.store)
        finally:
            ref.store.close()

    def make_due(self, names: list[str]) -> None:
        ref = self.referee()
        try:
            for name in names:
                ref.store.set_deadline(name, 1, ref.now() - timedelta(hours=1))
        finally:
            ref.store.close()

    def burst(self, matches: list[str], keys: dict, tag: str) -> None:
        """Every seat's orders for ``matches``, dropped into the incoming Maildir at once."""
        import mailbox
        box = mailbox.Maildir(str(self.folder / "mail" / "in"), factory=None, create=True)
        ref = self.referee()
        try:
            for m in matches:
                turn = ref.store.current_turn(m)
                rules = ref.rules(ref.store.match(m))
                for i, p in enumerate(PLAYERS):
                    mid, msg = order_mail(rules, turn, m, p, i, keys[(m, p)], tag, f"{p}@players.test",
                                          "referee@referee.test")
                    box.add(msg.as_bytes(policy=policy.SMTP))
                    self.orders.append(mid)
        finally:
            ref.store.close()

    def start(self, crash_at: str | None = None, session: bool = False) -> subprocess.Popen:
        """A ``referee run`` worker; ``crash_at``: the process that reaches it stops itself there.
        Killed workers share the test's process group: no orphaned group's SIGHUP ends their
        children for them, only their own parent-death handling does."""
        env = dict(self.env)
        if crash_at:
            env.update(REFEREE_CRASH_AT=crash_at, REFEREE_CRASH_HOW="stop")
        log = open(self.folder / f"worker{len(self.procs)}.log", "w")   # one a worker, in order
        proc = subprocess.Popen([sys.executable, "-m", "referee.app.cli", "run"], env=env, cwd=self.folder,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=session)
        log.close()
        self.procs.append(proc)
        return proc

    def up(self, proc: subprocess.Popen) -> bool:
        log = self.folder / f"worker{self.procs.index(proc)}.log"
        return "referee running" in log.read_text(errors="replace")

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}:\n" + p.read_text(errors="replace")[-3000:]
                         for p in sorted(self.folder.glob("worker*.log")))

    def wait(self, what: str, done, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if done():
                return
            time.sleep(0.1)
        raise AssertionError(f"{what}: not within {timeout:.0f} s\n{self.state()}\n{self.logs()}")

    def state(self) -> str:
        ref = self.referee()
        try:
            return repr({"turns": ref.store._all("SELECT match, number, status, archived, archiver FROM turns"
                                                 " WHERE status='resolved' AND archived=0"),
                         "outbox": [(r["dedupe"], r["status"]) for r in ref.store.outbox() if r["status"] != "sent"],
                         "inbox": [p.name for sub in ("new", "cur") for p in (self.folder / "mail" / "in" / sub).iterdir()],
                         "open": ref.store._all("SELECT match, number, status FROM turns WHERE number=1 AND status<>'resolved'")})
        finally:
            ref.store.close()

    def settled(self, matches: list[str]) -> bool:
        """Turn 1 of ``matches`` resolved and archived, no mail waiting, nothing left to send."""
        inbox = self.folder / "mail" / "in"
        if any(any((inbox / sub).iterdir()) for sub in ("new", "cur")):
            return False
        ref = self.referee()
        try:
            store = ref.store
            return (all(store.turn(m, 1)["status"] == "resolved" for m in matches)
                    and not store._all("SELECT match FROM turns WHERE status='resolved' AND archived=0")
                    and {r["status"] for r in store.outbox()} <= {"sent"})
        finally:
            ref.store.close()


def _stopped(proc: subprocess.Popen) -> bool:
    assert proc.poll() is None, f"worker {proc.pid} ended instead of stopping"
    return "T" in alive(tree(proc.pid)).values()


def _all_up(site: Site, procs) -> bool:
    return all(map(site.up, procs))


def _kill(site: Site, proc: subprocess.Popen, at_least: int) -> None:
    """``kill -9`` of the ``referee run`` process; its close worker and resource tracker must follow."""
    processes = tree(proc.pid)
    assert len(processes) >= at_least, processes
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    site.wait(f"the processes of killed worker {proc.pid} end", lambda: not alive(processes), 10)


def _filed(folder: Path) -> Counter:
    """Message-ID -> how often it was filed into one of the incoming Maildir's folders."""
    import mailbox
    box = mailbox.Maildir(str(folder / "mail" / "in"), factory=None)
    return Counter(m["Message-ID"] for name in box.list_folders() for m in box.get_folder(name))


def test_workers_killed_mid_close_and_mid_burst_three_times_leave_nothing_twice_and_nothing_behind(
        postgres, tmp_path):
    site = Site(postgres.new_database(), tmp_path)
    due = [[f"due{r}{i}" for i in range(DUE)] for r in range(ROUNDS)]
    ordering = [[f"ord{r}{i}" for i in range(ORDERING)] for r in range(ROUNDS)]
    keys = site.make([m for r in range(ROUNDS) for m in due[r] + ordering[r]])
    steady = site.start(session=True)   # the worker that lives through it all, paused while another is
    try:
        for r in range(ROUNDS):
            # started together (each takes seconds to come up); the closer is the one whose close worker
            # Linux must end: it stays in the test's process group (no orphaned group's SIGHUP ends it)
            closer = site.start(crash_at=CLOSE_POINTS[r])
            taker = site.start(crash_at="intake.before_commit@3", session=True)
            site.wait("the workers are up", partial(_all_up, site, (steady, closer, taker)), 90)
            # in the middle of a close: the others paused, so the closer's close worker takes a due match
            os.killpg(steady.pid, signal.SIGSTOP)
            os.killpg(taker.pid, signal.SIGSTOP)
            site.make_due(due[r])
            site.wait("a close worker stops inside its close", partial(_stopped, closer), 60)
            _kill(site, closer, 3)   # itself, its close worker, the resource tracker
            killed = time.monotonic()
            # in the middle of a burst: the taker handles two mails and stops inside the third
            site.burst(ordering[r], keys, f"r{r}")
            os.killpg(taker.pid, signal.SIGCONT)
            site.wait("a worker stops inside its third mail", partial(_stopped, taker), 60)
            _kill(site, taker, 3)
            os.killpg(steady.pid, signal.SIGCONT)
            # nothing a killed worker began waits on the archiver's grace period: the round is done within it
            site.wait(f"round {r} settles", partial(site.settled, due[r] + ordering[r]),
                      killed + SETTLE - time.monotonic())
        site.start()   # two workers again at the end
        site.wait("the last round's mail is sent", lambda: site.settled(due[-1] + ordering[-1]), SETTLE)
    finally:
        for proc in site.procs:   # none left paused: a stopped process would take its SIGTERM never
            if proc.poll() is None and os.getpgid(proc.pid) == proc.pid:   # a session of its own
                os.killpg(proc.pid, signal.SIGCONT)
        stop_all(site.procs)
    logs = site.logs()
    assert [p.returncode for p in site.procs].count(-9) == 2 * ROUNDS, logs
    assert "Traceback" not in logs, logs
    _check(site, [m for r in range(ROUNDS) for m in due[r] + ordering[r]])


def _check(site: Site, matches: list[str]) -> None:
    # every mail filed once
    assert _filed(site.folder) == Counter({mid: 1 for mid in site.orders})
    ref = site.referee()
    try:
        store = ref.store
        for mid in site.orders:   # every mail stored once, and accepted
            assert [r["outcome"] for r in store._all("SELECT outcome FROM processed WHERE message_id=?",
                                                     (mid,))] == ["processed"], mid
        # every turn closed once: turn 1 resolved (never reopened), turn 2 open, no close set aside
        for m in matches:
            assert [(t["number"], t["status"], t["rev"]) for t in store.turns(m)] == [(1, "resolved", 0), (2, "open", 0)]
            assert (site.folder / "turns" / m / "t001" / "turn.json").exists()
        assert [f for f in store.faults() if f["stage"] in ("close", "intake", "tick", "archive", "outbox")] == []
        rows = store.outbox()
        assert {r["status"] for r in rows} == {"sent"}
        assert len({r["dedupe"] for r in rows}) == len(rows)
    finally:
        store.close()
    out = [email.message_from_bytes(f.read_bytes(), policy=policy.default)
           for sub in ("new", "cur") for f in (site.folder / "mail" / "out" / sub).iterdir()]
    assert len(out) == len(rows)   # one file for each mail the outbox holds, none twice
    answers = Counter(m["In-Reply-To"] for m in out if m["In-Reply-To"])
    assert {mid: answers[mid] for mid in site.orders} == {mid: 1 for mid in site.orders}
    reports = Counter((m["To"].split("@")[0], re.search(r"\[([a-z0-9-]+)\]", m["Subject"]).group(1))
                      for m in out if "Report, turn 1" in m["Subject"])
    assert reports == Counter({(who, m): 1 for m in matches for who in (*PLAYERS, "gm")})
