"""The store's backends side by side: SQLite, PostgreSQL with one worker, and
PostgreSQL with two workers sharing it, on the same two jobs in the same run.

Not a test: prints figures.  Jobs (each on a fresh store and archive):

* close: N Founding Fathers matches of 3 seats, every seat's orders in, every
  deadline passed; the workers ``tick`` until every turn is closed (re-validate,
  resolve, persist, render and queue every report, write the archive);
* burst: M order mails (M/3 matches, all seats) handled by ``Referee.handle``.
  With two workers, twice: "one order", both read the whole mailbox in the same
  order, as two ``referee run`` on one IMAP INBOX do today (the processed record
  decides who handles each; a match's seats come together, so the two wait on
  each other's match lock); and each reading its own share first (every
  other mail), then the rest: what disjoint slices of the mailbox would give.

Every job is built once on SQLite and copied (``store copy``) for each run.
Each worker is a process of its own, imported, connected and warm (templates
compiled) before the clock starts.  Reported: wall seconds per job, the ratio
to SQLite's (the baseline, run first in the same run), the load average, and
with ``--why`` each worker's counts (closes, archives, mails taken by the
other, seconds waiting for a match's lock, CPU seconds beside wall seconds).
PostgreSQL is a throwaway server started for the run (tests/kits/pg.py: Debian's
binaries, fsync off as in the tests; a production server's commits cost more).

    python bench/store_backends.py [--matches 1000] [--mails 2000] [--why] [--profile DIR]
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import queue
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from referee.app.referee import Referee  # noqa: E402
from referee.authority.base import Settings  # noqa: E402
from referee.game_api.contract import Rng  # noqa: E402
from referee.mail.inbound import parse_inbound  # noqa: E402
from referee.store import open_store  # noqa: E402

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SEATS = ("ann", "bob", "cyd")
ADDRESS = "referee@league.test"


def referee(location, archive: Path, now: datetime) -> Referee:
    return Referee(open_store(location), archive, clock=lambda: now, settings=Settings(address=ADDRESS,
                   rate_limit_per_hour=100_000))


def spec(name: str) -> dict:
    return {"id": name, "game": "founding_fathers", "gm": "gm@league.test", "schedule": {"period": "48h"},
            "players": [{"id": s, "name": s.title(), "email": f"{s}.{name}@league.test"} for s in SEATS]}


def build_close(location, archive: Path, n: int) -> None:
    ref = referee(location, archive, START)
    for i in range(n):
        name = f"c{i:04d}"
        ref.create_match(spec(name))
        rules = ref.rules(ref.store.match(name))
        turn = ref.store.current_turn(name)
        with ref.store.transaction():
            for k, s in enumerate(SEATS):
                orders = rules.random_orders(rules.load(turn["state"]), s, Rng(i * 7 + k))
                ref.store.put_submission(name, 1, s, orders, f"<{name}.{s}@league.test>", "0" * 64, START)
    ref.store._exec("DELETE FROM outbox")
    ref.store.close()


def build_burst(location, archive: Path, mails: int) -> list[bytes]:
    """Matches for ``mails`` order mails; the mails themselves (raw), keys from the welcome rows."""
    import json
    import re
    ref = referee(location, archive, START)
    raws = []
    for i in range((mails + 2) // 3):
        name = f"b{i:04d}"
        ref.create_match(spec(name))
        keys = {}
        for row in ref.store.outbox(match=name):
            if row["dedupe"].startswith("welcome:"):
                parts = json.loads(row["message"])
                keys[parts["to"].split(".")[0]] = re.search(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}",
                                                            parts["text"]).group(0)
        rules = ref.rules(ref.store.match(name))
        state = rules.load(ref.store.current_turn(name)["state"])
        for k, s in enumerate(SEATS):
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = f"{s}.{name}@league.test", ADDRESS, "orders"
            msg["Message-ID"] = f"<{name}.{s}@players.test>"
            msg.set_content(yaml.safe_dump({"match": name, "player": s, "key": keys[s], "turn": 1,
                                            "orders": rules.random_orders(state, s, Rng(i * 7 + k))}))
            raws.append(msg.as_bytes())
    ref.store._exec("DELETE FROM outbox")
    ref.store.close()
    return raws[:mails]


class Counts:
    """What one worker did, counted in the worker (``--why``): the measurement
    behind a ratio (turns it closed, closes it found taken, archives it wrote,
    mails it handled or found taken, seconds it waited for a match's lock)."""

    def __init__(self, ref) -> None:
        self.c: dict[str, float] = {}
        self._cpu, self._wall = 0.0, 0.0
        closing, store = ref.closing, ref.store
        self._wrap(closing, "archive_turn", "archived")
        self._wrap(closing, "close_turn", "close tries", lambda r: "closed" if r is not None else None)
        self._wrap(store, "claim_match", "claim_match", timed=True)
        self._wrap(store, "claim_mail", "mail claims", lambda r: {None: "mails taken by the other", False: "mails done"
                                                                  }.get(r, "mails handled"))

    def start(self) -> None:
        self._cpu, self._wall = time.process_time(), time.monotonic()

    def end(self) -> dict:
        """The counts, with the worker's own CPU seconds beside its wall seconds
        (the rest it waited: for the database, a lock, or a core)."""
        self.c["cpu s"] = time.process_time() - self._cpu
        self.c["wall s"] = time.monotonic() - self._wall
        return self.c

    def _wrap(self, obj, name: str, key: str, outcome=None, timed: bool = False) -> None:
        real = getattr(obj, name)

        def counted(*args, **kwargs):
            t = time.perf_counter()
            r = real(*args, **kwargs)
            self.c[key] = self.c.get(key, 0) + 1
            if timed:
                self.c[key + " s"] = self.c.get(key + " s", 0) + time.perf_counter() - t
            if outcome is not None and outcome(r) is not None:
                self.c[outcome(r)] = self.c.get(outcome(r), 0) + 1
            return r
        setattr(obj, name, counted)


def _left(store) -> int:
    """Turns still to close or to archive (one statement, not one per match)."""
    return store._one("SELECT COUNT(*) AS n FROM turns WHERE (number = 1 AND status = 'open')"
                      " OR (status = 'resolved' AND archived = 0)")["n"]


def _profiled():
    """``--profile DIR``: the worker's profile from the start signal on, in DIR/<pid>.prof."""
    if not os.environ.get("BENCH_PROFILE"):
        return None
    import cProfile
    prof = cProfile.Profile()
    prof.enable()
    return prof


def _finish(ref, prof=None) -> None:
    if prof is not None:
        prof.disable()
        prof.dump_stats(Path(os.environ["BENCH_PROFILE"]) / f"{os.getpid()}.prof")
    ref.store.close()
    os._exit(0)   # nothing left to flush: skip the exit's join of any process the worker started


def _worker_setup() -> None:
    """No picture processes beside the worker: the PNGs are the sender's (not timed
    here), and a spawned worker's exit waits on a pool it started (it hung)."""
    from referee.pictures import board as pictures
    pictures.WORKERS = 0


def _warm(ref, ready) -> None:
    """What a long-running worker has done long before: every template compiled
    (13 of them took a worker 3 to 6 s of its first close), then ready."""
    for env in (ref.renderer.text_env, ref.renderer.html_env, ref.renderer.mail_env):
        for name in env.list_templates():
            try:
                env.get_template(name)
            except Exception:   # a partial or a file for another environment: compiled when used
                pass
    ready.put(os.getpid())


def close_worker(location, archive, ready, go, done) -> None:
    _worker_setup()
    ref = referee(location, archive, START + timedelta(hours=49))
    counts = Counts(ref)
    _warm(ref, ready)
    go.wait()
    prof = _profiled()
    counts.start()
    while _left(ref.store):
        ref.tick()
        time.sleep(0.01)   # another worker holds the rest: look again
    done.put((time.monotonic(), counts.end()))
    _finish(ref, prof)


def burst_worker(location, archive, raws, ready, go, done) -> None:
    _worker_setup()
    ref = referee(location, archive, START + timedelta(hours=1))
    counts = Counts(ref)
    _warm(ref, ready)
    go.wait()
    prof = _profiled()
    counts.start()
    for raw in raws:
        ref.handle(parse_inbound(raw, own_addresses=[ADDRESS]))
    done.put((time.monotonic(), counts.end()))
    _finish(ref, prof)


def _next(q, procs):
    """The next item a worker puts on ``q``; a worker that failed ends the run."""
    while True:
        try:
            return q.get(timeout=2)
        except queue.Empty:
            if any(p.exitcode not in (None, 0) for p in procs):
                raise SystemExit("a worker failed: " + ", ".join(f"exit {p.exitcode}" for p in procs)) from None


def timed(target, args, workers: int, slices=None) -> tuple[float, list[dict]]:
    """Wall seconds from the start signal to the last worker's end; each worker's counts.
    ``slices(k, n)``: worker k's own arguments (its share of the mailbox)."""
    ctx = mp.get_context("spawn")
    ready, go, done = ctx.Queue(), ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*(slices(k, workers) if slices else args), ready, go, done))
             for k in range(workers)]
    for p in procs:
        p.start()
    # every worker imported, connected and warm (a fixed pause was too short on a loaded
    # machine: a second worker's start-up fell into the timed window)
    for _ in procs:
        _next(ready, procs)
    start = time.monotonic()
    go.set()
    ends = [_next(done, procs) for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode:
            raise SystemExit(f"a worker failed (exit {p.exitcode})")
    return max(e[0] for e in ends) - start, [e[1] for e in ends]


def check(location, job: str, n: int) -> str:
    store = open_store(location)
    try:
        if job == "close":
            closed = sum(1 for m in store.matches() if store.turn(m["id"], 1)["status"] == "resolved")
            twice = store._one("SELECT COUNT(*) AS n FROM turns WHERE number > 2")["n"]
            unarchived = len(store.unarchived())
            return f"{closed}/{n} closed" + (f", {twice} closed twice!" if twice else "") + \
                (f", {unarchived} not archived!" if unarchived else "")
        handled = store._one("SELECT COUNT(*) AS n FROM processed WHERE outcome != 'taken'")["n"]
        return f"{handled}/{n} handled"
    finally:
        store.close()


def built(tmp: Path, job: str, n: int) -> tuple[Path, Path, list[bytes]]:
    """The job's matches, built once on SQLite (every backend starts from a copy)."""
    folder = tmp / f"{job}-built"
    folder.mkdir()
    location, archive = folder / "referee.sqlite", folder / "turns"
    raws = []
    if job == "close":
        build_close(location, archive, n)
    else:
        raws = build_burst(location, archive, n)
    return location, archive, raws


def copied(built_store: Path, built_archive: Path, folder: Path, backend: str, server) -> tuple[object, Path]:
    from referee.store.copy import copy_store
    folder.mkdir()
    shutil.copytree(built_archive, folder / "turns")
    if backend == "sqlite":
        shutil.copy(built_store, folder / "referee.sqlite")
        return folder / "referee.sqlite", folder / "turns"
    url = server.new_database()
    source, target = open_store(built_store), open_store(url)
    try:
        copy_store(source, target)
    finally:
        source.close()
        target.close()
    return url, folder / "turns"


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=40, help="matches due at once for the close job")
    ap.add_argument("--mails", type=int, default=120, help="order mails in the burst job")
    ap.add_argument("--jobs", default="close,burst")
    ap.add_argument("--same-order", action="store_true",
                    help="every worker reads the whole mailbox in the same order (no slices)")
    ap.add_argument("--profile", metavar="DIR", help="each worker's cProfile in DIR/<pid>.prof")
    ap.add_argument("--why", action="store_true", help="print each worker's counts beside its figure")
    a = ap.parse_args()
    if a.profile:
        os.environ["BENCH_PROFILE"] = str(Path(a.profile).resolve())   # the spawned workers inherit it
    from pg import PgServer
    server = PgServer()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for job in a.jobs.split(","):
                n = a.matches if job == "close" else a.mails
                t = time.monotonic()
                store0, archive0, raws = built(Path(tmp), job, n)
                print(f"{job:6} n={n:<5} built in {time.monotonic() - t:.0f} s ({load()})", flush=True)
                base = None
                runs = [("sqlite", 1, False), ("postgresql", 1, False), ("postgresql", 2, False)]
                if job == "burst" and not a.same_order:   # before: both workers read in the same order
                    runs.insert(2, ("postgresql", 2, True))
                for backend, workers, same in runs:
                    location, archive = copied(store0, archive0, Path(tmp) / f"{job}-{backend}-{workers}{'-same' if same else ''}",
                                               backend, server)
                    if job == "close":
                        seconds, counts = timed(close_worker, (location, archive), workers)
                    else:
                        # a worker reads its own share of the mailbox first, then the rest (as
                        # ``referee run`` does: its slice of the UIDs first, the others' after)
                        def share(k: int, w: int) -> tuple:
                            if a.same_order or same:
                                return location, archive, raws
                            return location, archive, ([r for i, r in enumerate(raws) if i % w == k]
                                                       + [r for i, r in enumerate(raws) if i % w != k])
                        seconds, counts = timed(burst_worker, None, workers, slices=share)
                    base = base or seconds
                    order = " one order" if job == "burst" and workers > 1 and (same or a.same_order) else ""
                    print(f"{job:6} n={n:<5} {backend:10} workers={workers}{order}  {seconds:7.2f} s  "
                          f"ratio {seconds / base:5.2f}  ({check(location, job, n)}; {load()})", flush=True)
                    if a.why:
                        for k, c in enumerate(counts):
                            print(f"        worker {k}: " + ", ".join(
                                f"{key} {v:.2f}" if isinstance(v, float) else f"{key} {v}"
                                for key, v in sorted(c.items())), flush=True)
    finally:
        server.remove()


if __name__ == "__main__":
    main()
