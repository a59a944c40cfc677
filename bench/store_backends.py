"""The store's backends side by side: SQLite, PostgreSQL with one worker, and
PostgreSQL with two workers sharing it, on the same two jobs in the same run.

Not a test: prints figures.  Jobs (each on a fresh store and archive):

* close: N Founding Fathers matches of 3 seats, every seat's orders in, every
  deadline passed; the workers ``tick`` until every turn is closed (re-validate,
  resolve, persist, render and queue every report, write the archive);
* burst: M order mails (M/3 matches, all seats) handled by ``Referee.handle``;
  with two workers both read the same mails in the same order, as two
  ``referee run`` on one IMAP INBOX would: the processed record decides who
  handles each.

Reported: wall seconds per job and the ratio to SQLite's (the baseline, run
first in the same run).  Each worker is a process of its own.  PostgreSQL is
a throwaway server started for the run (tests/pg.py: Debian's binaries,
fsync off as in the tests; a production server's commits cost more).

    python bench/store_backends.py [--matches 40] [--mails 120]
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from referee.authority import Referee, Settings  # noqa: E402
from referee.contract import Rng  # noqa: E402
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


def close_worker(location, archive, go, done) -> None:
    ref = referee(location, archive, START + timedelta(hours=49))
    go.wait()
    while True:
        ref.tick()
        left = [m for m in ref.store.matches("running") if ref.store.current_turn(m["id"])["number"] == 1]
        if not left:
            break
        time.sleep(0.01)   # another worker holds the rest: look again
    done.put(time.monotonic())
    ref.store.close()


def burst_worker(location, archive, raws, go, done) -> None:
    ref = referee(location, archive, START + timedelta(hours=1))
    go.wait()
    for raw in raws:
        ref.handle(parse_inbound(raw, own_addresses=[ADDRESS]))
    done.put(time.monotonic())
    ref.store.close()


def timed(target, args, workers: int) -> float:
    ctx = mp.get_context("spawn")
    go, done = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*args, go, done)) for _ in range(workers)]
    for p in procs:
        p.start()
    time.sleep(3.0)   # every worker imported and connected
    start = time.monotonic()
    go.set()
    ends = [done.get(timeout=1800) for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode:
            raise SystemExit(f"a worker failed (exit {p.exitcode})")
    return max(ends) - start


def check(location, job: str, n: int) -> str:
    store = open_store(location)
    try:
        if job == "close":
            closed = sum(1 for m in store.matches() if store.turn(m["id"], 1)["status"] == "resolved")
            twice = store._one("SELECT COUNT(*) AS n FROM turns WHERE number > 2")["n"]
            return f"{closed}/{n} closed" + (f", {twice} closed twice!" if twice else "")
        handled = store._one("SELECT COUNT(*) AS n FROM processed")["n"]
        return f"{handled}/{n} handled"
    finally:
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--mails", type=int, default=120)
    a = ap.parse_args()
    from pg import PgServer
    server = PgServer()
    try:
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            for job, n in (("close", a.matches), ("burst", a.mails)):
                base = None
                for backend, workers in (("sqlite", 1), ("postgresql", 1), ("postgresql", 2)):
                    folder = Path(tmp) / f"{job}-{backend}-{workers}"
                    folder.mkdir()
                    location = folder / "referee.sqlite" if backend == "sqlite" else server.new_database()
                    archive = folder / "turns"
                    if job == "close":
                        build_close(location, archive, n)
                        seconds = timed(close_worker, (location, archive), workers)
                    else:
                        raws = build_burst(location, archive, n)
                        seconds = timed(burst_worker, (location, archive, raws), workers)
                    base = base or seconds
                    rows.append((job, n, backend, workers, seconds, seconds / base, check(location, job, n)))
                    print(f"{job:6} n={n:<5} {backend:10} workers={workers}  {seconds:7.2f} s  "
                          f"ratio {seconds / base:5.2f}  ({rows[-1][-1]})", flush=True)
    finally:
        server.remove()


if __name__ == "__main__":
    main()
