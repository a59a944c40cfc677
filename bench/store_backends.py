"""The close on the store's backends side by side: SQLite, and PostgreSQL with fsync ON, each
closing the same league with 1, 2 and 4 close worker processes (``referee.turns.workers``:
identical workers claiming due turns in the store's queue), in the same run.

Not a test: prints figures.  The league: N Founding Fathers matches of 3 seats, every seat's
orders in, every deadline passed (built once on SQLite, copied for every run: ``store copy``).
Timed: from the tick's start to the last close committed and its pictures' PNGs made
(``ClosePool.tick`` + ``pictures_made``), the workers started and warm before the clock (a
service's workers are); the reports' sending is not timed here (``close_many.py`` times it).
Reported per run: wall seconds (median of ``--repeat``), the workers' CPU seconds over the pass
(from /proc), the ratio of wall and of CPU to one worker's on the same backend, the load
average, and the closes tried per match (must be 1: no match tried by two workers).
PostgreSQL is a throwaway server started for the run with Debian's binaries, fsync,
synchronous_commit and full_page_writes ON, as a production server commits.
Left out: the mail burst (``mail_intake_burst.py``), and a server on another machine (here
the server shares the 2 cores with the workers).

    python bench/store_backends.py [--matches 200] [--workers 1 2 4] [--repeat 3] [--smoke]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "kits"))

from referee.app.referee import Recipe, Referee  # noqa: E402
from referee.authority.base import Settings  # noqa: E402
from referee.game_api.contract import Rng  # noqa: E402
from referee.store import open_store  # noqa: E402

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SEATS = ("ann", "bob", "cyd")
ADDRESS = "referee@league.test"
TICKS = os.sysconf("SC_CLK_TCK")


def referee(location, archive: Path, now: datetime) -> Referee:
    return Referee(open_store(location), archive, clock=lambda: now,
                   settings=Settings(address=ADDRESS, rate_limit_per_hour=100_000))


def build(location, archive: Path, n: int) -> None:
    ref = referee(location, archive, START)
    for i in range(n):
        name = f"c{i:04d}"
        ref.create_match({"id": name, "game": "founding_fathers", "gm": "gm@league.test",
                          "schedule": {"period": "48h"},
                          "players": [{"id": s, "name": s.title(), "email": f"{s}.{name}@league.test"} for s in SEATS]})
        rules = ref.rules(ref.store.match(name))
        turn = ref.store.current_turn(name)
        with ref.store.transaction():
            for k, s in enumerate(SEATS):
                orders = rules.random_orders(rules.load(turn["state"]), s, Rng(i * 7 + k))
                ref.store.put_submission(name, 1, s, orders, f"<{name}.{s}@league.test>", "0" * 64, START)
    ref.store.close()


def fsync_on_server():
    """The kit's throwaway server with fsync, synchronous_commit and full_page_writes ON (shown back)."""
    import psycopg
    from pg import PgServer

    server = PgServer(durable=True)
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        shown = {k: conn.execute(f"SHOW {k}").fetchone()[0] for k in ("fsync", "synchronous_commit")}
    return server, shown


def copied(store0: Path, archive0: Path, folder: Path, backend: str, server):
    from referee.store.copy import copy_store
    folder.mkdir()
    shutil.copytree(archive0, folder / "turns")
    if backend == "sqlite":
        shutil.copy(store0, folder / "referee.sqlite")
        return str(folder / "referee.sqlite"), folder / "turns"
    url = server.new_database()
    source, target = open_store(store0), open_store(url)
    try:
        copy_store(source, target)
    finally:
        source.close()
        target.close()
    return url, folder / "turns"


def cpu(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])   # utime, stime
    return total / TICKS


def one_run(location, archive: Path, n: int, workers: int) -> tuple[float, float, int, str]:
    """(wall, workers' CPU, the most tries of one match, what the store says)."""
    from referee.turns.workers import ClosePool
    ref = referee(location, archive, START + timedelta(hours=49))
    pool = ClosePool(Recipe.of(ref), workers, nice=0)
    try:
        pool.warm()
        pids = pool.pids()
        before = cpu(pids)
        start = time.monotonic()
        report = ref.tick(pool=pool)
        while report.more:
            report = ref.tick(pool=pool)
        pool.pictures_made()
        wall = time.monotonic() - start
        spent = cpu(pids) - before
        tries = max(pool.tries.values(), default=0)
        closed = sum(1 for m in ref.store.matches() if ref.store.turn(m["id"], 1)["status"] == "resolved")
        unarchived = ref.store._one("SELECT COUNT(*) AS n FROM turns WHERE status='resolved' AND archived=0")["n"]
        state = f"{closed}/{n} closed" + (f", {unarchived} not archived!" if unarchived else "")
        if closed != n or unarchived:
            raise SystemExit(f"broken: {state}")
        return wall, spent, tries, state
    finally:
        pool.shutdown()
        ref.store.close()


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=200, help="matches due at once")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--smoke", action="store_true", help="a tiny run that fails if the bench is broken")
    a = ap.parse_args()
    if a.smoke:
        a.matches, a.workers, a.repeat = 4, [1, 2], 1
    backends = a.backends.split(",")
    server = None
    if "postgresql" in backends:
        server, shown = fsync_on_server()
        print(f"PostgreSQL: {shown}", flush=True)
        if shown["fsync"] != "on":
            raise SystemExit("PostgreSQL runs without fsync")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            t = time.monotonic()
            store0, archive0 = Path(tmp) / "built" / "referee.sqlite", Path(tmp) / "built" / "turns"
            build(store0, archive0, a.matches)
            print(f"n={a.matches} built in {time.monotonic() - t:.0f} s ({load()}), {os.cpu_count()} cores", flush=True)
            worst = 0
            for backend in backends:
                base = None
                for workers in a.workers:
                    runs = []
                    for r in range(a.repeat):
                        location, archive = copied(store0, archive0, Path(tmp) / f"{backend}-{workers}-{r}",
                                                   backend, server)
                        runs.append(one_run(location, archive, a.matches, workers))
                    wall = statistics.median(x[0] for x in runs)
                    spent = statistics.median(x[1] for x in runs)
                    tries = max(x[2] for x in runs)
                    worst = max(worst, tries)
                    base = base or (wall, spent)
                    print(f"{backend:10} workers={workers}  wall {wall:6.2f} s ({wall / base[0]:4.2f}x one worker's)"
                          f"  CPU {spent:6.2f} s ({spent / max(base[1], 1e-9):4.2f}x)  "
                          f"{wall * 1000 / a.matches:5.1f} ms/match  tries/match max {tries}  "
                          f"({runs[-1][3]}; {load()})", flush=True)
            if worst != 1:
                raise SystemExit(f"a match was tried {worst} times")
    finally:
        if server is not None:
            server.remove()


if __name__ == "__main__":
    main()
