"""Closing a tick's due turns in worker processes, on every core.

The parent decides what is due (``Closing.tick`` and its ``_tick_match``, as
ever: reminders and the archive's repair stay there) but, instead of closing a
due turn itself, notes it (``Closing.tick``'s ``due_close``); then the worker
processes close the noted turns in parallel, a part (``chunk``) a call handed
out in batches, each with a ``Referee`` of its own (its own store connection,
built from the same ``Recipe``): ``close_batch`` begins each close of a batch
before it finishes the last, so a close is worked out while the last one's
files sync.  Workers are started warm (games
loaded, templates compiled) and run at a lower priority (``NICE``) than the
service's process, which answers mail.  The store's claims make each
close happen once (PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite: the write lock).

A worker flags no turn archived: each close hands back the turns whose record it
named after its commit (``close_flags.PendingFlags``), and the parent fsyncs their
folders in one round and flags them in one transaction, as the part's closes come in
(every ``PendingFlags.EVERY``) and once the part is done.  A worker that dies, or a
parent that dies first, leaves them unflagged: the archive's repair writes them.

The PNGs of the pictures the closes drew are made after them, not inside the
tick: a close returns its SVGs, and once every due close of the pass is done the
idle workers render them (``close_pictures.Drawings``), each PNG handed to the parent's
``pictures.keep`` as it is made; a report sent before its PNG is made renders
it itself (``pictures.cached_png``), as ever, so a worker that dies while
drawing costs time, never a picture.

Faults stay isolated: a close that raises is set aside in the worker's fault
guard exactly as in the parent, and reported as failed; a worker that dies
(SIGKILL, out of memory) breaks only this pass: the pool is started anew and
the turns not closed are due again at the next tick (``more``), where they
close once (nothing of a close is kept before its commit).

Workers are spawned (never forked): a forked copy would share the parent's
SQLite or PostgreSQL connection, its threads and the picture workers.

Workers end when their parent dies, whatever killed it (issue 32: a ``kill -9``
of ``referee run`` left its workers, and through them multiprocessing's resource
tracker, running for good, holding store sessions): on Linux the kernel sends
them SIGKILL (``PR_SET_PDEATHSIG``, ``lifeline.die_with_parent``), which reaches a stopped
worker too; everywhere, a thread of each worker ends it once a pipe whose other
end only the parent holds reads EOF.  The resource tracker ends by itself once
the parent and every worker have closed their end of its pipe.
"""
from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import signal
import time
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime

from referee.authority.base import Settings
from referee.game_api import registry
from referee.pictures import board as pictures
from referee.runtime import gc_policy
from referee.runtime.lifeline import Spawner, die_with_parent
from referee.store import is_postgres, location_of
from referee.turns.batch import batches, close_many
from referee.turns.closing import TickReport
from referee.turns.drawings import Drawings

log = logging.getLogger("referee.app.close_pool")
MAX_WORKERS = 64
MAIL_FIRST_WAIT = 5.0   # seconds a worker lets mail being handled go first, at most, before a close's transaction
NICE = 10   # the workers' niceness: a mail's answer (the service's process) gets a core at once, closes the rest
# due turns a part hands each worker: a part of 2 workers is ~2-4 s of closes at N=1,000, so the first
# reports go out seconds into a league's close, while a part's end (one worker idle until the other's
# last close is done, ~20 ms) costs <1% of it
CHUNK = 64


def default_workers() -> int:
    """One close worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Recipe:
    """What a worker needs to build a ``Referee`` like the parent's (all of it pickles)."""
    store: str                        # the SQLite file or the PostgreSQL address (its password: the environment)
    archive: str
    template_dirs: tuple[str, ...]
    settings: Settings
    wall_clock: bool                  # False: the parent's clock is a simulated one; each close is given its time
    games: tuple = ()                 # games registered without an entry point (tests, tools)

    @classmethod
    def of(cls, ref) -> Recipe | None:
        """The recipe of ``ref``; None where a second connection would see another store (``:memory:``)."""
        location = location_of(ref.store)
        if location is None:
            return None
        trust = dataclasses.replace(ref.settings.trust, txt=None)   # a test's DNS stub need not pickle; closes use none
        settings = dataclasses.replace(ref.settings, trust=trust, auto_backup=None)   # the parent snapshots
        return cls(store=location, archive=str(ref.archive.root),
                   template_dirs=tuple(str(d) for d in getattr(ref.renderer, "extra_dirs", ())),
                   settings=settings, wall_clock=getattr(ref, "wall_clock", True),
                   games=tuple(registry._extra.values()))


# -- in a worker process ----------------------------------------------------------------------
class _Clock:
    """The worker's clock: the time the parent gave the close (a simulated clock), else the wall clock."""
    at: datetime | None = None

    def __call__(self) -> datetime:
        from referee.authority.base import utcnow
        return self.at or utcnow()


class _Courteous:
    """The write lock of a worker's SQLite connection: one the workers share, so that they
    queue for the store's one writer here (woken at once, not SQLite's polling) and a waiting
    worker lets a mail being handled (``mail_first``) go before its transaction."""

    def __init__(self, lock, mail_first) -> None:
        self.lock, self.mail_first, self.depth = lock, mail_first, 0

    def __enter__(self) -> None:
        until = time.monotonic() + MAIL_FIRST_WAIT
        while True:
            self.lock.acquire()
            if self.depth or self.mail_first is None or not self.mail_first.is_set() or time.monotonic() > until:
                break
            self.lock.release()   # the mail first: its transaction waits for SQLite's lock, not for this one
            time.sleep(0.01)
        self.depth += 1

    def __exit__(self, *exc) -> None:
        self.depth -= 1
        self.lock.release()


_worker: dict = {}


def _start(recipe: Recipe, mail_first, write_lock=None, nice: int = 0, parent: int | None = None,
           lifeline=None) -> None:
    """A worker's initializer: its own store connection and ``Referee``."""
    from referee.app.referee import Referee
    from referee.render.renderer import Renderer
    from referee.store import open_store

    if parent is not None:
        die_with_parent(parent, lifeline)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle: it stops the pool
    if nice:
        os.nice(nice)
    pictures.WORKERS = 0   # a worker renders the PNGs it is handed (``Drawings``), no pool of its own
    for rules in recipe.games:
        registry.register(rules)
    clock = _Clock()
    store = open_store(recipe.store)
    backend = getattr(store, "_db", None)
    if write_lock is not None and hasattr(backend, "share_lock"):   # SQLite: one writer at a time anyway
        backend.share_lock(_Courteous(write_lock, mail_first))
    ref = Referee(store, recipe.archive, renderer=Renderer(recipe.template_dirs),
                  clock=None if recipe.wall_clock else clock, settings=recipe.settings)
    ref.closing.before_close = None   # the parent asked the close guard and took the snapshot
    ref.closing.flags.held += 1   # for good: the parent flags what a close placed (``close_batch``)
    warm_renderer(ref.renderer)
    pictures.prime()   # the pass's PNGs are made here: fonts read and libvips loaded before the first
    drawn: list[str] = []
    pictures.prerender = lambda svgs: drawn.extend(svgs) or 0   # noted: returned, drawn after the pass (Drawings)
    _worker.update(ref=ref, clock=clock, drawn=drawn)
    _profile_if_asked()
    gc_policy.settle()   # games, templates, fonts: never walked by the collector again


def _profile_if_asked() -> None:
    """``REFEREE_CLOSE_PROFILE=PREFIX``: this worker's closes profiled into ``PREFIX.<pid>`` as it ends (benches)."""
    prefix = os.environ.get("REFEREE_CLOSE_PROFILE")
    if not prefix:
        return
    import cProfile
    from multiprocessing import util
    prof = _worker["profile"] = cProfile.Profile(time.process_time)   # CPU: the machine is shared
    util.Finalize(None, lambda: prof.dump_stats(f"{prefix}.{os.getpid()}"), exitpriority=10)


def warm_renderer(renderer) -> None:
    """Every game loaded and every template a close renders compiled (``Renderer.warm``; what
    ``Renderer.uses`` answers is noted as each compiles): once a worker's life, not in its first closes
    (a second or two of CPU each)."""
    for name in registry.names():
        try:
            registry.get(name)
        except Exception:   # a broken game fails its own closes, with its fault recorded there
            continue
    try:
        renderer.warm()
    except Exception:   # a template that does not compile fails the close that uses it, as ever
        log.exception("compiling the templates ahead failed")


def _pid() -> int:
    time.sleep(0.05)
    return os.getpid()


def _close(turns: list[tuple[str, int]], at: datetime | None) -> list[tuple]:
    """A batch of due turns closed (``close_batch.close_many``: each close's files sync while the next
    is worked out); their PNGs are not made here: the pass's other closes go first (``Drawings``).
    (A mail being answered goes first at the store's write lock: ``_Courteous``.)"""
    _worker["clock"].at = at
    prof = _worker.get("profile")
    with gc_policy.closing_pass():
        if prof is None:
            return close_many(_worker["ref"], turns, _worker["drawn"])
        prof.enable()
        try:
            return close_many(_worker["ref"], turns, _worker["drawn"])
        finally:
            prof.disable()


# -- in the parent ----------------------------------------------------------------------------
class ClosePool:
    """P worker processes closing turns; ``tick`` is ``Closing.tick`` with the closes done by them."""

    def __init__(self, recipe: Recipe, workers: int | None = None, mail_first=None, nice: int = NICE) -> None:
        workers = default_workers() if workers is None else workers
        if not 1 <= workers <= MAX_WORKERS:
            raise ValueError(f"close workers: 1 to {MAX_WORKERS}, not {workers}")
        self.recipe, self.workers, self.mail_first, self.nice = recipe, workers, mail_first, nice
        self._due: list[tuple[str, int]] = []   # due turns noted by a pass and not handed out yet
        self._context = multiprocessing.get_context("spawn")
        self._executor: ProcessPoolExecutor | None = None
        self._pending: list[Future] = []
        self.drawings = Drawings()   # the pass's PNGs, made after its closes
        self.restarts = 0
        self._broken_in_row = 0
        # the workers' lifeline (read end: each worker's; write end: held here alone): they end once it reads EOF
        self._lifeline, self._held = self._context.Pipe(duplex=False)
        self._spawner: Spawner | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is not None and self.drawings.broken is self._executor:
            self.restarts += 1   # a worker died while drawing (the sending renders what it left)
            self._drop(kill=True)
        if self._executor is None:
            # a new lock with every new set of workers: a worker killed holding one never lets it go
            lock = None if is_postgres(self.recipe.store) else self._context.RLock()
            pool = ProcessPoolExecutor(self.workers, mp_context=self._context, initializer=_start,
                                       initargs=(self.recipe, self.mail_first, lock, self.nice, os.getpid(),
                                                 self._lifeline))
            self._executor = pool
            # every worker started now, by the spawner's thread (the executor starts one a call while none idles)
            self._spawner = self._spawner or Spawner("referee-close-spawner")
            try:
                self._spawner.run(lambda: [pool.submit(_pid) for _ in range(self.workers)])
            except (BrokenProcessPool, RuntimeError):
                pass   # a worker died starting: the closes handed to this set find it broken
        return self._executor

    def start(self) -> None:
        """Have every worker started, without waiting for them (the first closes queue behind)."""
        self._pool()

    def warm(self) -> None:
        """Start every worker now (a spawned interpreter takes a second or two to come up)."""
        pool, seen, until = self._pool(), set(), time.monotonic() + 120
        while len(seen) < self.workers and time.monotonic() < until:
            seen.update(f.result() for f in [pool.submit(_pid) for _ in range(self.workers)])

    def pids(self) -> list[int]:
        return sorted((self._executor._processes or {}).keys()) if self._executor is not None else []

    def chunk(self) -> int:
        """Due turns handed out per call (``CHUNK`` a worker): the service sends a part's reports
        while the next part closes.  (The pictures no longer bound it: they are drawn after the
        whole pass, ``Drawings``.)"""
        return CHUNK * self.workers

    def tick(self, ref, budget: float | None = None) -> TickReport:
        """A pass (or its part within ``budget``) of ``ref.closing.tick``; the due turns are closed by the
        workers, ``chunk()`` of them a call (``more``: call again; the turns noted wait in order).
        Once a pass's closes are all done, the workers make its PNGs after this returns
        (``pictures_made`` waits for them)."""
        report = TickReport()
        if not self._due:
            due: list[tuple[str, int]] = []
            report = ref.closing.tick(budget, due_close=lambda match_id, number: due.append((match_id, number)))
            self._due = [(m, n) for m, n in due if ref.closing_allowed(m)]
        part, self._due = self._due[:self.chunk()], self._due[self.chunk():]
        report = self.close(ref, part, report)
        if self._due and not report.more:   # the next call closes the next part (a broken pool: all noted anew)
            report.more = True
        if not report.more and self.drawings.noted():   # every due close of the pass done: the idle workers draw
            try:
                self.drawings.draw(self._pool())
            except Exception:   # workers that cannot start: the sending renders the pictures
                log.exception("handing the pictures to the close workers failed")
        return report

    def pictures_made(self, timeout: float | None = None) -> bool:
        """Whether every PNG of the passes so far is made (kept for the sending) within ``timeout``."""
        return self.drawings.wait(timeout)

    def close(self, ref, due: list[tuple[str, int]], report: TickReport) -> TickReport:
        """Close ``due`` in the workers, adding each outcome to ``report``."""
        if not due:
            return report
        at = None if self.recipe.wall_clock else ref.now()
        self.drawings.hold()   # the closes first: pictures not started wait for the end of the pass
        pool = self._pool()
        futures = {}
        try:
            for batch in batches(due, self.workers):
                futures[pool.submit(_close, batch, at)] = batch
        except (BrokenProcessPool, RuntimeError):
            pass   # the pool broke (a worker died) while being handed the work: the rest waits a tick
        self._pending = list(futures)
        closed, failed, lost, trouble = [], [], 0, None
        flags = ref.closing.flags
        try:
            with flags.batch():   # the part's records: their folders fsynced in one round, then flagged
                for future in as_completed(futures):
                    try:
                        outcomes = future.result()
                    except CancelledError:   # the service stops: due again at its next start
                        continue
                    except BrokenProcessPool:
                        lost += 1
                        continue
                    except Exception as e:   # the store is locked or gone (not the match's fault): tried again
                        trouble = trouble or e
                        continue
                    for match_id, number, outcome, drawn, named in outcomes:
                        for turn in named:
                            flags.add(*turn)
                        if outcome == "trouble":   # ``drawn``: the error
                            trouble = trouble or drawn
                            continue
                        self.drawings.note(drawn)
                        if outcome == "closed":
                            closed.append((match_id, number))
                        elif outcome == "failed":
                            failed.append((match_id, number))
        finally:
            self._pending = []
        report.closed.extend(sorted(closed))
        report.failed.extend(sorted(failed))
        if lost or sum(map(len, futures.values())) < len(due):
            self.restarts += 1
            log.warning("a close worker died; %d due turns wait for the next tick (workers started anew)",
                        len(due) - len(closed) - len(failed))
            dead = sorted(self._drop(kill=True))
            try:   # what the dead held (PostgreSQL: their row locks) free for the next tick at once
                ref.store.end_sessions(dead)
            except Exception:   # else the server frees it once it sees the connection gone
                log.exception("ending the dead close workers' store sessions failed")
            self._due = []   # noted again by the next pass, with whatever changed meanwhile
            self._broken_in_row += 1
            report.more = self._broken_in_row <= 2   # at once again; workers that cannot start: at the next tick
        else:
            self._broken_in_row = 0
        if trouble is not None:
            raise trouble
        return report

    def cancel(self) -> None:
        """Closes not yet started are dropped (the service stops): they are due again at the next start
        (and pictures not started are left to the sending)."""
        self.drawings.hold()
        for future in list(self._pending):
            future.cancel()

    def _drop(self, kill: bool = False) -> dict:
        """Let the workers go (work not started is cancelled); ``kill``: a set broken by a death is
        ended whole, now (SIGKILL: the executor's SIGTERM never reaches a stopped worker, and its
        exit would wait on it for ever).  The set's processes, by pid."""
        pool, self._executor = self._executor, None
        if pool is None:
            return {}
        processes = dict(pool._processes or {})
        pool.shutdown(wait=False, cancel_futures=True)
        if kill:
            for process in processes.values():
                process.kill()   # a no-op for one already ended
            for process in processes.values():
                process.join(5)   # reaped: a zombie would still look alive to its claims' owners check
        return processes

    def shutdown(self, grace: float = 1.0) -> None:
        """Stop the workers, ``grace`` seconds for them to end (the tick that used them has returned:
        no close is under way; a worker still starting is ended; a close cut short would be one
        transaction never committed, due at the next start)."""
        processes = list(self._drop().values())
        end = time.monotonic() + grace
        for process in processes:
            process.join(max(0.0, end - time.monotonic()))
        for process in processes:
            if process.is_alive():
                process.kill()   # SIGTERM would not reach a stopped one
                process.join(5)
        if self._spawner is not None:   # its workers are gone: its end signals none
            self._spawner.stop()
            self._spawner = None
