"""Real ``referee run`` workers sharing one PostgreSQL store and one Dovecot
mailbox, for the fault tests: a campaign of Founding Fathers matches made
in-process, worker processes started (and stopped at a crash point, then
SIGKILLed), order mails appended straight into the referee's INBOX, and the
mailboxes and the store read back afterwards."""
from __future__ import annotations

import email
import json
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

import yaml

from referee.app.config import load
from referee.app.wiring import open_referee
from referee.game_api.contract import Rng

PLAYERS = ("alice", "bob", "carol")


class Campaign:
    def __init__(self, s, url: str, folder: Path) -> None:
        self.s, self.url, self.folder = s, url, folder
        (folder / "referee.yaml").write_text(f"""\
address: {s.address('referee')}
store: {url}
archive: turns
mail_in:
  imap: {{host: 127.0.0.1, port: {s.dovecot.imap_port}, security: plain, user: referee,
          password_env: TEST_IMAP_PASSWORD}}
mail_out:
  smtp: {{host: 127.0.0.1, port: {s.smtp.port}, security: plain}}
poll_interval: 2
# one close process per worker: a worker stopped inside a close holds that close, not a pool
# whose other process closes the whole league before the next worker starts
close_workers: 1
""")
        self.env = dict(os.environ, TEST_IMAP_PASSWORD=s.password("referee"), PYTHONUNBUFFERED="1")
        self.env.pop("REFEREE_TEST_STORE", None)
        self.workers: list[subprocess.Popen] = []
        self.sent: dict[str, tuple[str, str]] = {}   # Message-ID of an order mail -> (player, match)

    def referee(self):
        return open_referee(load(self.folder / "referee.yaml"))

    def make_matches(self, names: list[str], due: bool) -> None:
        """Matches of three seats; ``due``: their first deadline has passed already."""
        ref = self.referee()
        try:
            for name in names:
                ref.create_match({"id": name, "game": "founding_fathers", "gm": self.s.address("gm"),
                                  "schedule": {"period": "48h"},
                                  "players": [{"id": p, "name": p.title(), "email": self.s.address(p)}
                                              for p in PLAYERS]})
                if due:
                    ref.store.set_deadline(name, 1, ref.now() - timedelta(hours=1))
        finally:
            ref.store.close()

    def make_due(self, names: list[str]) -> None:
        """Matches whose first deadline has passed, built straight in the store for a
        test about closing: their welcome mails are dropped unsent (the keys are not needed)."""
        self.make_matches(names, due=True)
        ref = self.referee()
        try:
            marks = ",".join("?" * len(names))
            ref.store._exec(f"DELETE FROM outbox WHERE match IN ({marks})", tuple(names))
        finally:
            ref.store.close()

    def keys(self) -> dict[tuple[str, str], str]:
        """Every seat's key, read from the queued welcome mails: (match, player) -> key."""
        ref = self.referee()
        try:
            return welcome_keys(ref.store)
        finally:
            ref.store.close()

    def burst(self, matches: list[str], keys: dict, tag: str) -> list[str]:
        """One order mail from every seat of ``matches``, appended to the INBOX at once."""
        ref = self.referee()
        ids = []
        try:
            for m in matches:
                turn = ref.store.current_turn(m)
                rules = ref.rules(ref.store.match(m))
                for i, p in enumerate(PLAYERS):
                    mid, msg = order_mail(rules, turn, m, p, i, keys[(m, p)], tag,
                                          self.s.address(p), self.s.address("referee"))
                    self.s.append("referee", msg.as_bytes(policy=policy.SMTP))
                    self.sent[mid] = (p, m)
                    ids.append(mid)
        finally:
            ref.store.close()
        return ids

    def start(self, stop_at: str | None = None) -> subprocess.Popen:
        """A ``referee run`` worker; ``stop_at``: it stops itself (SIGSTOP) at that crash point."""
        env = dict(self.env)
        if stop_at:
            env.update(REFEREE_CRASH_AT=stop_at, REFEREE_CRASH_HOW="stop-group")   # the worker and its close workers
        log = open(self.folder / f"worker{len(self.workers)}.log", "w")
        # a session of its own: the worker and its close workers are one process group, killed together
        proc = subprocess.Popen([sys.executable, "-m", "referee.app.cli", "run"], env=env, cwd=self.folder,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.workers.append(proc)
        return proc

    def wait_stopped(self, proc: subprocess.Popen, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            assert proc.poll() is None, f"worker {proc.pid} ended instead of stopping: {self.logs()}"
            if "T" in _states_of_group(proc.pid):   # the worker, or one of its close workers, stopped itself
                return
            time.sleep(0.1)
        raise AssertionError(f"worker {proc.pid} never reached its crash point: {self.logs()}")

    def sending(self, procs: list[subprocess.Popen]) -> set[str]:
        """Message-IDs of the outbox rows the stopped workers ``procs`` (their process groups) hold
        claimed for sending.  Of them, each sending process (a worker and its close worker) may have
        handed one to the server without recording so; killed there, it leaves that one to be sent
        again (sending is at least once: ``referee/outbox/sender.py``)."""
        groups = {p.pid for p in procs}
        ref = self.referee()
        try:
            rows = ref.store.outbox(status="sending")
        finally:
            ref.store.close()
        held = set()
        for row in rows:
            pid = ((row["claimed_by"] or "").split(":") + ["", ""])[1]
            try:
                if pid.isdigit() and os.getpgid(int(pid)) in groups:
                    held.add(json.loads(row["message"])["message_id"])
            except ProcessLookupError:   # a claim of a process gone: not one of theirs
                pass
        return held

    def kill(self, proc: subprocess.Popen) -> None:
        """SIGKILL the worker with its close and picture workers, as a machine dying would."""
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop_all(self) -> str:
        stop_all(self.workers)
        return self.logs()

    def logs(self) -> str:
        return "\n".join(f"--- worker {i}:\n" + p.read_text(errors="replace")[-3000:]
                         for i, p in enumerate(sorted(self.folder.glob("worker*.log"))))

    def wait_quiet(self, done, timeout: float = 240) -> None:
        """Until ``done(store)`` holds and nothing is left in the INBOX or the outbox."""
        ref = self.referee()
        try:
            end = time.monotonic() + timeout
            while time.monotonic() < end:
                if (done(ref.store) and not self.s.messages("referee")
                        and not ref.store.outbox(status="queued") and not ref.store.outbox(status="sending")):
                    return
                time.sleep(0.5)
            raise AssertionError(f"the workers did not finish: {self.logs()}")
        finally:
            ref.store.close()

    def delivered(self) -> list:
        """Every message in the players' and the GM's mailboxes."""
        return [email.message_from_bytes(raw, policy=policy.default)
                for user in (*PLAYERS, "gm") for raw in self.s.messages(user)]


def welcome_keys(store) -> dict[tuple[str, str], str]:
    """Every seat's key, read from the queued welcome mails (before they are sent and their
    text dropped): (match, player) -> key."""
    import re
    found = {}
    for row in store.outbox():
        if row["dedupe"].startswith("welcome:") and row["message"]:
            parts = json.loads(row["message"])
            key = re.search(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b", parts["text"])
            found[(row["match"], parts["to"].split("@")[0])] = key.group(1)
    return found


def order_mail(rules, turn: dict, match: str, player: str, i: int, key: str, tag: str,
               sender: str, to: str) -> tuple[str, EmailMessage]:
    """(Message-ID, mail) of ``player``'s random orders for ``turn`` of ``match``."""
    orders = rules.random_orders(rules.load(turn["state"]), player, Rng(i + 7))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "orders"
    msg["Message-ID"] = mid = f"<{tag}.{match}.{player}@players.test>"
    msg.set_content(yaml.safe_dump({"match": match, "player": player, "key": key,
                                    "turn": turn["number"], "orders": orders}))
    return mid, msg


def stop_all(procs: list[subprocess.Popen]) -> None:
    """SIGTERM to the workers still running; killed after 30 s."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _states_of_group(pgid: int) -> set[str]:
    """The run states (R, S, T, …) of every live process in process group ``pgid``."""
    states = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:   # gone meanwhile
            continue
        if int(fields[2]) == pgid:   # after the name: state, ppid, pgrp
            states.add(fields[0])
    return states
