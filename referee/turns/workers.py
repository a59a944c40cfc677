"""Closing a tick's due turns in identical worker processes, on every core (issues 34, 38).

The parent decides what is due (``Closing.tick(close=False)``: reminders and the archive's
repair stay there), asks the close guard (and takes the pass's snapshot), and notes the due
turns in the store's queue (``store.closing.queue_due``).  Then every worker is told to
run a pass: each claims a few queued turns at a time in the store (an owner and an expiry:
PostgreSQL ``FOR UPDATE SKIP LOCKED``, SQLite its write transaction) and closes them, so no
CPU is spent on a turn another worker holds and no turn is tried by two workers, here or in
another ``referee run`` on the same store.  Each close's commit ends its claim; a claim whose
worker died is let go by its parent at once (or by any worker of its host, or when it expires).

Workers are spawned (never forked: a copy would share the parent's store connection, its
threads and the picture workers) from a ``Spawner`` thread, each built from a picklable
``build(clock)`` (``referee.app.referee.Recipe``), warm (games loaded, templates compiled),
at a lower priority (``NICE``).  They end with their parent (``lifeline.die_with_parent``:
the kernel's SIGKILL on Linux, and a pipe only the parent holds).  A reader thread per
worker takes what it says: each close's outcome, and once its closes are done, the PNGs of
its pictures (``pictures.keep``; a report sent before its PNG arrives renders it itself, the
same bytes).  Given a ``sink`` (one that pickles: a Maildir, an SMTP sink, which leaves its connection behind),
each worker then sends its own closes' mail through the outbox on its own core (``worker.send_own``;
the outbox's claims keep each message to one sender); ``referee tick`` asks for it, ``referee run``
does not (its loop sends meanwhile: docs/INTERNALS.md).  ``tick`` returns once every worker's
closes are done; ``pictures_made`` waits for the pictures, and the workers' sending, too.

Faults stay isolated: a close that raises is set aside in the worker's fault guard, as in
any process.  A worker that dies (SIGKILL, out of memory) ends this pass: its set is ended,
its claims let go, and the turns not closed are due again at once (``more``), where they
close once (nothing of a close is kept before its commit).
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import pickle
import queue
import threading
import time
from collections import Counter

from referee.pictures import board as pictures
from referee.runtime.lifeline import Spawner
from referee.store import closing as close_rows
from referee.turns import worker
from referee.turns.closing import TickReport

log = logging.getLogger("referee.turns.workers")
MAX_WORKERS = 64
NICE = 10   # the workers' niceness: a mail's answer (the service's process) gets a core at once, closes the rest
START_WAIT = 120.0   # seconds a spawned worker may take to come up (imports, templates, fonts)


def default_workers() -> int:
    """One close worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def picklable(sink):
    """``sink`` if a worker process can be handed it (a Maildir, an SMTP sink: without its connection), else None."""
    if sink is None:
        return None
    try:
        pickle.dumps(sink)
    except Exception:   # a lock, an SSL context of its own: the parent's outbox sends
        return None
    return sink


class _Worker:
    """A worker process, its end of the pipe, and the thread that reads what it says."""

    def __init__(self, process, conn, inbox: queue.SimpleQueue, pool=None) -> None:
        self.process, self.conn, self.inbox, self.pool = process, conn, inbox, pool
        self.up = threading.Event()
        self.reader = threading.Thread(target=self._read, name=f"referee-close-worker-{process.pid}", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):   # it died, or was told to stop
                self.inbox.put((self, ("gone",)))
                return
            if message[0] == "up":
                self.up.set()
            elif message[0] == "picture":
                pictures.keep(message[1], message[2])
            elif message[0] == "sent":
                self.pool.sent += message[1]
            else:
                self.inbox.put((self, message))


class ClosePool:
    """P identical worker processes closing the due turns a tick queues; ``tick`` is ``Closing.tick``
    with the closes done by them.  ``build(clock)``: a worker's ``Referee`` (picklable); ``sink``: where
    the workers send their closes' mail (``picklable``; None: the parent's outbox sends it all)."""

    def __init__(self, build, workers: int | None = None, mail_first=None, nice: int = NICE, sink=None) -> None:
        workers = default_workers() if workers is None else workers
        if not 1 <= workers <= MAX_WORKERS:
            raise ValueError(f"close workers: 1 to {MAX_WORKERS}, not {workers}")
        self.build, self.workers, self.mail_first, self.nice = build, workers, mail_first, nice
        self.sink = picklable(sink)
        self.sent = 0   # messages the workers sent (benches, tests)
        self._context = multiprocessing.get_context("spawn")
        self._stopping = self._context.Event()   # the service stops: workers claim nothing more
        self._set: list[_Worker] = []
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._drawing: set[_Worker] = set()   # workers still drawing the last pass's pictures
        self.restarts = 0
        self.tries: Counter = Counter()   # (match, turn) -> closes tried by a worker of this pool (benches, tests)
        self.gc_of: dict[int, tuple] = {}   # pid -> (objects frozen, gc thresholds) at its last pass's end
        self._broken_in_row = 0
        # the workers' lifeline (read end: each worker's; write end: held here alone): they end once it reads EOF
        self._lifeline, self._held = self._context.Pipe(duplex=False)
        self._spawner: Spawner | None = None

    # -- the set of workers --------------------------------------------------------------------
    def start(self) -> None:
        """Have every worker started, without waiting for them to come up (a set a worker of which
        died is ended and started anew: a dead worker holds no claim between passes)."""
        if self.broken():
            self.restarts += 1
            self._drop(kill=True)
        if self._set:
            return
        self._stopping.clear()
        self._spawner = self._spawner or Spawner("referee-close-spawner")
        self._inbox = queue.SimpleQueue()
        self._drawing = set()
        # SQLite's one writer: the set's workers queue for it on a lock of theirs, woken at once (a new one
        # with every set: a worker killed holding it never lets it go); PostgreSQL's workers leave it be
        writes = self._context.RLock()
        self._set = self._spawner.run(lambda: [self._spawn(writes) for _ in range(self.workers)])

    def _spawn(self, writes) -> _Worker:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(
            target=worker.main, name="referee-close-worker", daemon=True,
            args=(self.build, theirs, os.getpid(), self._lifeline, self.nice, self.mail_first, self._stopping,
                  writes, self.sink))
        process.start()
        theirs.close()
        return _Worker(process, mine, self._inbox, self)

    def warm(self) -> None:
        """Start every worker now and wait until each is up (a spawned interpreter takes seconds)."""
        self.start()
        until = time.monotonic() + START_WAIT
        for w in self._set:
            w.up.wait(max(0.0, until - time.monotonic()))

    def pids(self) -> list[int]:
        return sorted(w.process.pid for w in self._set)

    def broken(self) -> bool:
        """Whether a worker of the set has died (the next pass ends the set and starts it anew)."""
        return any(not w.process.is_alive() for w in self._set)

    # -- a pass --------------------------------------------------------------------------------
    def tick(self, ref, budget: float | None = None) -> TickReport:
        """A pass (or its part within ``budget``) of ``ref.closing.tick``, the due turns closed by the
        workers; returns once their closes are done (their pictures follow: ``pictures_made``)."""
        report = ref.closing.tick(budget, close=False)
        due = [(m, n) for m, n in report.due if ref.closing.allowed(m)]
        report.due = []
        if not due:
            return report
        close_rows.queue_due(ref.store, due)
        return self.close(ref, report)

    def close(self, ref, report: TickReport) -> TickReport:
        """Every worker runs a pass over the store's queue; each outcome added to ``report``."""
        self._wait_drawing(START_WAIT)   # a worker still drawing the last pass's pictures starts this one after
        if self.broken():   # died between passes: nothing closed now, the due turns again at once
            self._broken(ref, report)
            return report
        self.start()
        at = None if getattr(ref, "wall_clock", True) else ref.now()
        busy, dead = set(), []
        for w in self._set:
            try:
                w.conn.send(("pass", at, max(1, pictures.KEEP // self.workers)))
                busy.add(w)
            except OSError:
                dead.append(w)
        closed, failed, trouble = [], [], None
        while busy and not dead:
            w, message = self._inbox.get()
            kind = message[0]
            if kind == "close":
                _, match_id, number, outcome = message
                if outcome in ("closed", "failed", "passed"):
                    self.tries[match_id, number] += 1
                if outcome == "closed":
                    closed.append((match_id, number))
                elif outcome == "failed":
                    failed.append((match_id, number))
                elif outcome == "trouble":
                    trouble = trouble or f"closing {match_id}:{number} met a locked or lost store"
            elif kind == "trouble":
                trouble = trouble or message[1]
            elif kind == "closed":
                busy.discard(w)
                self._drawing.add(w)
            elif kind == "done":
                self._drawing.discard(w)
                self.gc_of[w.process.pid] = message[1:]
            elif kind == "gone":
                dead.append(w)
        report.closed.extend(sorted(closed))
        report.failed.extend(sorted(failed))
        if not dead:   # every close done: now the pictures (closes first, on every core)
            for w in list(self._drawing):
                try:
                    w.conn.send(("draw",))
                except OSError:
                    self._drawing.discard(w)
        if dead:
            self._broken(ref, report)
        else:
            self._broken_in_row = 0
        if trouble is not None:   # not the matches' fault: their claims went back, the next tick queues them again
            log.warning("close workers: %s (tried again at the next tick)", trouble)
        return report

    def _broken(self, ref, report: TickReport) -> None:
        """A worker died: the set is ended whole, their claims let go, the rest due again at once."""
        self.restarts += 1
        log.warning("a close worker died; the turns not closed are due again (workers started anew)")
        owners = self._drop(kill=True)
        try:   # what the dead held free for the next pass at once: their claims, PostgreSQL sessions
            close_rows.free_claims(ref.store, owners)
            ref.store.end_sessions([int(o.rpartition(":")[2]) for o in owners])
        except Exception:   # else the claims expire, and the server frees the sessions once it sees them gone
            log.exception("letting the dead close workers' claims go failed")
        self._broken_in_row += 1
        report.more = self._broken_in_row <= 2   # at once again; workers that cannot start: at the next tick

    def _wait_drawing(self, timeout: float | None) -> bool:
        until = None if timeout is None else time.monotonic() + timeout
        while self._drawing:
            left = None if until is None else until - time.monotonic()
            if left is not None and left <= 0:
                return False
            try:
                w, message = self._inbox.get(timeout=left)
            except queue.Empty:
                return False
            if message[0] in ("done", "gone"):
                self._drawing.discard(w)
                if message[0] == "done":
                    self.gc_of[w.process.pid] = message[1:]
        return True

    def pictures_made(self, timeout: float | None = None) -> bool:
        """Whether every PNG of the passes so far is made (kept for the sending) within ``timeout``."""
        return self._wait_drawing(timeout)

    def cancel(self) -> None:
        """Closes not yet claimed are left (the service stops): due again at the next start."""
        self._stopping.set()

    def _drop(self, kill: bool = False) -> list[str]:
        """Let the workers go (``kill``: ended now, SIGKILL: a stopped one takes no other signal);
        their names as claims' owners."""
        workers, self._set = self._set, []
        self._drawing = set()
        host = close_rows.worker_name().rpartition(":")[0]
        for w in workers:
            if kill:
                w.process.kill()   # a no-op for one already ended
            else:
                try:
                    w.conn.send(("stop",))
                except OSError:
                    pass
        for w in workers:
            w.process.join(5 if kill else 0)
        return [f"{host}:{w.process.pid}" for w in workers]

    def shutdown(self, grace: float = 1.0) -> None:
        """Stop the workers, ``grace`` seconds for them to end (a worker still starting is ended)."""
        self._stopping.set()
        workers = list(self._set)
        self._drop()
        end = time.monotonic() + grace
        for w in workers:
            w.process.join(max(0.0, end - time.monotonic()))
        for w in workers:
            if w.process.is_alive():
                w.process.kill()
                w.process.join(5)
            w.conn.close()
        if self._spawner is not None:   # its workers are gone: its end signals none
            self._spawner.stop()
            self._spawner = None
