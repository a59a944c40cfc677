"""Closing at scale: N matches due at the same minute, all closed in one ``tick``.

Not a test: prints figures.  For each N (default 10, 100, 1000), in a child
process of its own (so peak memory is that N's alone):

* build N matches of the league mix — Founding Fathers with 3–5 players and
  Perricumer Ratsspiel with 5–12, alternating — and play ``--turns`` turns
  (default 2) with random orders, so every match is a few turns in; then put
  every awaited player's orders in for the open turn;
* baseline, same states, same run: the games' own work of the close —
  ``load`` + ``resolve`` + the views and ``order_form`` for every reader
  (players, the public view and the GM) as the close asks for them, timed
  just before the tick (warm and settled, as the tick) and again just after it
  on the same inputs, under the close's collector policy, and the mean taken
  (this machine's speed drifts over minutes: the two bracket the tick);
* timed: one ``Referee.tick`` after every deadline has passed — re-validate,
  resolve, persist, render and queue every report, write the archive;
* the tick is timed until it returns: every due match closed, its reports
  rendered and queued, its archive written (in process the picture workers
  start the PNGs beside it; close workers make them after the pass's closes);
* READY, the like-for-like figure: the tick and every report's PNG made (in
  process by the picture workers, beside the tick and after it; with close
  workers by them, after the closes), CPU of every process; both variants warm
  (templates compiled, workers started) before the clock;
* WAIT, what a GM waits for: from the deadline (the tick's start) to the last report
  accepted by the outbox's sink (a Maildir), pictures included: the tick, every PNG,
  every queued mail sent (``--senders workers``: by the close workers, each its own closes'
  after its PNGs; ``parent``: by this process after the closes and PNGs, as ``referee run``
  and ``referee tick`` do), CPU of every process beside the wall; ratios to the games' own work
  wall-to-wall and CPU-to-CPU;
* FLOOR (in process only, where the picture workers' CPU stands apart): the PNGs' CPU alone,
  as a ratio to the games' own work and as the least wall time it needs on this machine's
  cores: what no cut elsewhere in the close can go below while every report has its picture;
* reported: seconds for the tick, per match, the ratio tick / games' own
  work, peak RSS of the process, SQLite bytes per match-turn and the
  archive's bytes per match-turn.  The ratio issue 8 sets its target on (<= 2.5) is of
  time, as its other figures are: the tick's wall time, as the service closes (one close
  worker a core: "use both cores where it pays"), against the games' own work, one core's
  seconds; the median of ``--repeat`` runs (3, as the issue's own table took the median
  of 3), each on a fresh copy.  The CPU ratio (every process's CPU seconds in the tick
  against the same work) is printed beside it: what the close costs the machine's cores.

The matches are built once per N; each variant (``--workers``: 0 closes in
this process, P > 0 in P close worker processes that claim the due turns, ``referee/turns/workers.py``)
closes a copy of them, in a child process of its own.

``--cron`` adds the cron path: ``referee tick`` as a process of its own, timed from its start
(imports, store, templates: start-up included) to its end (every due turn closed, every PNG
made, every queued mail accepted by the Maildir sink), CPU of it and its children; with 48 or
more turns due ``referee tick`` starts close workers for the pass, which close and draw
(``Service.tick(workers=True)``; their start-up is in the figure; it sends after them), with
``backups.before_close: false`` (the snapshot is the backups' cost, not the close's).

The league is built by mail (``bench/_league.py``): orders and the GM's observer commands
through ``Referee.handle``, 1–3 observers a match (the third in the match's other language),
so the close sends observer reports and draws a second picture where one reads the other
language.  What it leaves out: the mail server (the sink is a Maildir: SMTP's round trips and
the server's CPU are not in WAIT), the intake of the turn's orders (before the deadline),
the backups' snapshot, fsync of the Maildir's files (the sink does not sync), and in the
in-process variants the service's mail loop.  CPU is counted in every
process: the tick's parent and its close workers (read from /proc while they
live; their whole lives, start-up included, from RUSAGE_CHILDREN once the pool
ends); the picture workers' separately.

Every variant freezes its warm start-up before the tick (``referee.runtime.gc_policy.settle``), as the service does.

    python bench/close_many.py [--n 10 100 1000] [--turns 2] [--workers 0 1 2] [--senders workers parent] [--repeat 3] [--profile FILE] [--smoke]
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from _league import START, Clock, build, games_inputs, games_own_work, league, orders_in, spec_of, views_of  # noqa: E402, F401  (named here too: other benches import them from close_many)
from _procfs import children, cores_idle, cpu_of, db_size, peak_rss_of, size_of  # noqa: E402

from referee.app.referee import Recipe, Referee  # noqa: E402
from referee.authority.base import Settings  # noqa: E402
from referee.mail.sink import MaildirSink  # noqa: E402
from referee.pictures import board as pictures  # noqa: E402
from referee.runtime import gc_policy  # noqa: E402
from referee.store import open_store  # noqa: E402
from referee.turns import worker as close_worker  # noqa: E402
from referee.turns.workers import ClosePool, default_workers  # noqa: E402


def built(n: int, turns: int, folder: Path) -> None:
    """Build the N matches once into ``folder`` (store, archive, the clock's time): every variant copies it."""
    workers, pictures.WORKERS = pictures.WORKERS, 0   # the build's pictures are never sent: none rendered
    t = time.perf_counter()
    ref, clock = build(folder, n, turns)
    pictures.WORKERS = workers
    ref.store.checkpoint()
    ref.store.close()
    (folder / "clock.json").write_text(json.dumps({"now": clock.now.isoformat(), "build_s": time.perf_counter() - t}))


def pictures_ready() -> None:
    """Wait until every picture handed to the picture workers is rendered (none is cancelled)."""
    for future in list(pictures._ready.values()):
        try:
            future.result()
        except Exception:   # cancelled or failed: the sending renders it
            pass


def run_folder(work: str | None) -> contextlib.AbstractContextManager[str]:
    """Where one variant closes its copy of the matches: a new folder in ``work``, left for the caller to
    remove once every variant has run.  This machine's ext4 has no journal, and such an ext4 skips, one by
    one, every inode freed in the last one to six minutes whenever it allocates a new one: a tick run
    just after a removed copy's ~20,000 files paid a kernel scan for the bench's own clean-up, which a
    referee never does (``docs/INTERNALS.md``, "Measuring a close").  Without ``work``: a temporary folder."""
    if work is None:
        return tempfile.TemporaryDirectory()
    return contextlib.nullcontext(tempfile.mkdtemp(prefix="run-", dir=work))


def one(n: int, source: Path, workers: int, profile: str | None, send: bool = True, nice: int = 0,
        chunk: int = 0, keep_in: str | None = None, parent_sends: bool = False) -> dict:
    # like for like: both variants at one priority (``--nice``; the pool's workers get no extra niceness:
    # on a machine shared with others' work a niced close only gets what they leave), the picture cache
    # as the service has it (a pass's PNGs held until sent), the templates compiled before the clock starts
    # (the service's in-process closes compile them at its first close, the workers when they start)
    if nice:
        os.nice(nice)

    with run_folder(keep_in) as tmp:
        root = Path(tmp)
        shutil.copytree(source, root, dirs_exist_ok=True)
        os.sync()   # the copy written out: its writeback is the bench's, not the tick's
        ref, clock, saved = opened(root)
        inputs = games_inputs(ref, n)
        due = due_of(ref)
        built_rows = last_row(ref)
        db_before = db_size(root)
        arch_before = size_of(root / "turns")
        sink = MaildirSink(root / "out")
        pool = ClosePool(Recipe.of(ref), workers, nice=0, sink=None if parent_sends or not send else sink) \
            if workers else None
        if pool is not None:
            pool.warm()   # the workers' start-up is not the close's (games loaded, templates compiled)
        else:
            close_worker.warm_renderer(ref.renderer)
            pictures.warm()
        gc_policy.settle()   # as the service's closing thread does once warm
        # the games' own work is timed just before the tick and again just after it, on the same inputs:
        # this machine's speed drifts over minutes, and the mean of the two brackets the tick
        games_before = games_own_work(inputs)   # warm and settled, as the tick that follows
        apart_before = games_own_work(inputs, together=False)
        pids = pool.pids() if pool is not None else []
        drawers = sorted(set(children()) - set(pids))   # the picture workers: this process's other children
        workers_before, drawers_before = cpu_of(pids), cpu_of(drawers)
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if profile:
            import cProfile
            # the default (wall) timer: a CPU-time timer is a system call at every call and return,
            # and a tick profiled with one spent 17 of its 27 s of CPU in the kernel on this machine
            prof = cProfile.Profile()
            prof.enable()
        load = os.getloadavg()
        ru = resource.getrusage(resource.RUSAGE_SELF)
        idle = cores_idle()
        t, c = time.perf_counter(), time.process_time()
        report = ref.tick(pool=pool)
        while report.more:   # a worker died: the rest at once
            more = ref.tick(pool=pool)
            report.closed += more.closed
            report.failed += more.failed
            report.more = more.more
        tick_s, tick_cpu = time.perf_counter() - t, time.process_time() - c
        tick_idle = cores_idle() - idle
        tick_sys = resource.getrusage(resource.RUSAGE_SELF).ru_stime - ru.ru_stime   # the kernel's part (files, fsync)
        tick_workers_cpu = cpu_of(pids) - workers_before
        tick_drawers_cpu = cpu_of(drawers) - drawers_before
        pictures_ready()   # in-process: the picture workers' PNGs, rendered beside the tick
        if pool is not None:
            pool.pictures_made()   # the close workers' PNGs, made after the pass's closes, and their sending
        ready_s, ready_cpu = time.perf_counter() - t, time.process_time() - c
        close_workers_cpu = cpu_of(pids) - workers_before
        workers_rss = peak_rss_of(pids)
        drawers_cpu = cpu_of(drawers) - drawers_before
        drawn_later = 0
        queued = len(ref.store.outbox(status="queued"))
        # what a GM waits for: every report accepted by the outbox's sink (a Maildir), right after
        if send:   # what the close workers did not send (with them sending: nothing, unless one failed)
            ref.send_pending(sink, limit=queued + 10)
        wait_s, wait_cpu = time.perf_counter() - t, time.process_time() - c
        wait_workers_cpu = cpu_of(pids) - workers_before + cpu_of(drawers) - drawers_before
        send_s, send_cpu = wait_s - ready_s, wait_cpu - ready_cpu
        if profile:   # the close only, not the games' own work after it
            prof.disable()
            prof.dump_stats(profile)
        games_after = games_own_work(inputs)   # the same inputs again, the pictures made: as quiet as before
        games_s = (games_before + games_after) / 2
        apart_s = (apart_before + games_own_work(inputs, together=False)) / 2
        children_before = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
        if pool is not None:
            pool.shutdown()
        # the close workers' whole lives (start-up included), now that they are gone
        pool_cpu = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f)
                       for f in ("ru_utime", "ru_stime")) - children_before
        before_pictures = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
        pictures.shutdown()   # the picture workers' CPU counts once they are gone
        pictures_cpu = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f)
                           for f in ("ru_utime", "ru_stime")) - before_pictures
        ref.store.checkpoint()
        db_after = db_size(root)
        arch_after = size_of(root / "turns")
        resolved = sum(1 for i in range(n) for t_ in ref.store.turns(f"m{i:04d}") if t_["status"] == "resolved")
        rows = [e for e in ref.store.outbox() if e["id"] > built_rows]   # the close's (the build's: marked sent)
        outbox_rows = (len(rows), len({e["dedupe"] for e in rows}))
        observed = sum(1 for e in rows if "obs:" in e["dedupe"])
        sent = sum(1 for e in rows if e["status"] == "sent")
        return {"n": n, "workers": workers, "due": due, "closed": len(report.closed), "failed": len(report.failed),
                "more": report.more, "queued": queued, "outbox_rows": outbox_rows[0], "outbox_keys": outbox_rows[1], "parent_sends": parent_sends, "workers_sent": pool.sent if pool is not None else 0, "observer_rows": observed,
                "sent": sent, "send_s": send_s, "wait_s": wait_s, "wait_cpu": wait_cpu + wait_workers_cpu, "send_cpu": send_cpu, "pictures_cpu": pictures_cpu,
                "build_s": saved["build_s"], "games_s": games_s, "games_before_s": games_before,
                "games_after_s": games_after, "games_apart_s": apart_s, "tick_s": tick_s, "tick_cpu": tick_cpu, "tick_sys": tick_sys,
                "tick_idle": tick_idle,
                "tick_workers_cpu": tick_workers_cpu, "tick_drawers_cpu": tick_drawers_cpu, "drawn_later": drawn_later,
                "ready_s": ready_s, "ready_cpu": ready_cpu, "drawers_cpu": drawers_cpu,
                "close_workers_cpu": close_workers_cpu, "pool_cpu": pool_cpu, "load": load,
                "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "rss_before_mb": rss_before / 1024, "workers_peak_rss_mb": workers_rss,
                "db_bytes": db_after, "db_per_match_turn": db_after / max(resolved, 1),
                "db_close_per_match": (db_after - db_before) / n,
                "archive_close_per_match": (arch_after - arch_before) / n}


def last_row(ref: Referee) -> int:
    """The outbox's last row before the tick: what the build queued (and marked sent) ends there."""
    return max((e["id"] for e in ref.store.outbox()), default=0)


def due_of(ref: Referee) -> int:
    """Matches with a turn to close (a match the build's turns ended has none)."""
    return sum(1 for m in ref.store.matches("running") if ref.store.current_turn(m["id"])["status"] == "open")


def opened(root: Path) -> tuple[Referee, Clock, dict]:
    """The copy's referee, its clock where the build left it, and what the build saved."""
    saved = json.loads((root / "clock.json").read_text())
    clock = Clock()
    clock.now = datetime.fromisoformat(saved["now"])
    return Referee(open_store(root / "referee.sqlite"), root / "turns", clock=clock,
                   settings=Settings(address="referee@league.test")), clock, saved


def child(*args: str) -> dict:
    cmd = [sys.executable, __file__, *args]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=dict(os.environ)).stdout
    return json.loads(out.strip().splitlines()[-1])


def figures(r: dict) -> dict:
    """The tick's and READY's wall and CPU (all processes) seconds of one variant."""
    return {"tick_s": r["tick_s"], "tick_cpu": r["tick_cpu"] + r["tick_workers_cpu"],
            "ready_s": r["ready_s"], "ready_cpu": r["ready_cpu"] + r["close_workers_cpu"] + r["drawers_cpu"]}


def wall_ratio(r: dict) -> float:
    """The tick's wall time against the games' own work: the ratio issue 8's target is set on."""
    return r["tick_s"] / r["games_s"]


def cpu_ratio(r: dict) -> float:
    return figures(r)["tick_cpu"] / r["games_s"]


def show(r: dict, base: dict) -> None:
    """One variant's figures, each with its ratio to the games' own work and to the first variant."""
    f, b, g = figures(r), figures(base), r["games_s"]
    load = " ".join(f"{x:.2f}" for x in r["load"])
    how = "in this process (picture workers beside)" if not r["workers"] else \
        f"{r['workers']} close workers, " + ("this process sends" if r.get("parent_sends") else "they send")
    print(f"N={r['n']:5d} workers={r['workers']} ({how}); load average at the tick {load}", flush=True)
    print(f"  TICK  (closed, rendered, queued, archived): {f['tick_s']:7.2f} s wall, {f['tick_cpu']:7.2f} s CPU all "
          f"processes (parent {r['tick_cpu']:.2f} + close workers {r['tick_workers_cpu']:.2f}; picture workers "
          f"beside it {r['tick_drawers_cpu']:.2f} not counted; the parent's kernel part {r['tick_sys']:.2f}); "
          f"{1000 * f['tick_s'] / r['n']:.1f} ms/match; the cores idle {r['tick_idle']:.2f} s of "
          f"{f['tick_s'] * (os.cpu_count() or 1):.2f}", flush=True)
    print(f"  READY (the tick and every PNG made):     {f['ready_s']:7.2f} s wall, {f['ready_cpu']:7.2f} s CPU all "
          f"processes (parent {r['ready_cpu']:.2f} + close workers {r['close_workers_cpu']:.2f} + picture workers "
          f"{r['drawers_cpu']:.2f})", flush=True)
    if r["sent"]:
        print(f"  WAIT  (deadline to the last report accepted by the sink, pictures included): {r['wait_s']:7.2f} s "
              f"wall, {r['wait_cpu']:7.2f} s CPU all processes; WAIT/games {r['wait_s'] / g:.2f} wall-to-wall (the games' "
              f"work runs on one core: its CPU is its wall), {r['wait_cpu'] / g:.2f} CPU-to-CPU", flush=True)
    if not r["workers"] and r["drawers_cpu"]:   # the pictures' own floor (in process their CPU stands apart)
        cores = os.cpu_count() or 1
        print(f"  FLOOR (the PNGs alone, the picture workers' CPU to READY): {r['drawers_cpu']:.2f} s CPU, "
              f"{r['drawers_cpu'] / g:.1f}x the games' own work; on {cores} cores at least "
              f"{r['drawers_cpu'] / cores:.2f} s wall before anything else", flush=True)
    print(f"  games' own work (resolve + views + order form as the close asks, warm and settled, this run) "
          f"{g:.2f} s CPU (the mean of "
          f"{r['games_before_s']:.2f} just before the tick and {r['games_after_s']:.2f} just after); ratio TICK/games "
          f"{wall_ratio(r):.2f} wall (the target: <= 2.5), {cpu_ratio(r):.2f} CPU; READY/games "
          f"{f['ready_s'] / g:.2f} wall, {f['ready_cpu'] / g:.2f} CPU", flush=True)
    print(f"  the games' work with one view call a reader (as closes asked before views_of) "
          f"{r['games_apart_s']:.2f} s CPU; TICK/that {f['tick_cpu'] / r['games_apart_s']:.2f} CPU", flush=True)
    if r is not base:
        print(f"  against workers={base['workers']} in this run: TICK wall {f['tick_s'] / b['tick_s']:.2f}x, CPU "
              f"{f['tick_cpu'] / b['tick_cpu']:.2f}x; READY wall {f['ready_s'] / b['ready_s']:.2f}x, CPU "
              f"{f['ready_cpu'] / b['ready_cpu']:.2f}x", flush=True)
    print(f"  closed {r['closed']} of {r['due']} due (the other matches ended in the build's turns), failed {r['failed']}, more {r['more']}; pictures left undrawn {r['drawn_later']}; "
          f"outbox {r['outbox_rows']} rows / {r['outbox_keys']} keys ({r['observer_rows']} to observers); sent {r['sent']} into a Maildir ({r.get('workers_sent', 0)} by the close workers) in "
          f"{r['send_s']:.1f} s wall, {r['send_cpu']:.1f} s CPU; the picture workers' whole lives (start-up included) {r['pictures_cpu']:.1f} s CPU; "
          f"close workers' whole lives {r['pool_cpu']:.2f} s CPU; peak RSS {r['peak_rss_mb']:.0f} MB (before tick "
          f"{r['rss_before_mb']:.0f}; a close worker's {r.get('workers_peak_rss_mb', 0):.0f}); SQLite {r['db_per_match_turn'] / 1024:.0f} KB/match-turn, the close adds "
          f"{r['db_close_per_match'] / 1024:.0f} KB/match to SQLite and {r['archive_close_per_match'] / 1024:.0f} "
          f"KB/match to the archive; build {r['build_s']:.0f} s", flush=True)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, nargs="+", default=[10, 100, 1000])
    p.add_argument("--turns", type=int, default=2)
    p.add_argument("--workers", type=int, nargs="+", default=[default_workers()],
                   help="close worker processes per variant (0: the close in this process; default: one a "
                        "core, as the service)")
    p.add_argument("--senders", nargs="+", choices=("workers", "parent"), default=["parent"],
                   help="who sends the reports, a variant each: this process after the close workers' closes and "
                        "PNGs (as the service) or the close workers, each its own closes' mail")
    p.add_argument("--repeat", type=int, default=3, help="runs of each variant, each on a fresh copy: the "
                   "figures shown are the run of the median wall ratio")
    p.add_argument("--profile", help="write a cProfile of the tick (with --one)")
    p.add_argument("--nice", type=int, default=0, help="every variant at this niceness (the service's workers: "
                   "referee.turns.workers.NICE)")
    p.add_argument("--chunk", type=int, default=0, help=argparse.SUPPRESS)   # gone with the parts: workers claim
    p.add_argument("--smoke", action="store_true", help="a tiny run (seconds) that fails if the bench is broken")
    p.add_argument("--cron", action="store_true", help="also the cron path: `referee tick` as a process of its own")
    p.add_argument("--cron-in-process", action="store_true", help="with --cron: also `referee tick` with "
                   "close_workers: 0 (closes in its own process, as before issue 38's cron pool)")
    p.add_argument("--parent-sends", action="store_true", help=argparse.SUPPRESS)   # the child: --senders parent
    p.add_argument("--skip-send", action="store_true", help="not sending the reports after the close (N=1000: minutes)")
    p.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process: one N, JSON out
    p.add_argument("--build", type=int, help=argparse.SUPPRESS)  # the child process that builds N matches
    p.add_argument("--folder", help=argparse.SUPPRESS)
    p.add_argument("--work", help=argparse.SUPPRESS)   # the child's copies go here, removed by the caller
    a = p.parse_args()
    if a.smoke:
        a.n, a.turns, a.repeat, a.workers, a.cron, a.senders = [3], 1, 1, [0, 1], True, ["workers", "parent"]
    if a.build:
        built(a.build, a.turns, Path(a.folder))
        print(json.dumps({}))
        return
    if a.one and a.cron:
        from _cron import one_cron
        print(json.dumps(one_cron(a.one, Path(a.folder), a.work, a.cron_in_process)))
        return
    if a.one:
        print(json.dumps(one(a.one, Path(a.folder), a.workers[0], a.profile, not a.skip_send, a.nice, a.chunk, a.work,
                             a.parent_sends)))
        return
    first: dict[int, dict] = {}
    # every copy and build is kept until the last variant has run: nothing is removed before a tick
    with tempfile.TemporaryDirectory() as work:
        for n in a.n:
            folder = tempfile.mkdtemp(prefix=f"built-{n}-", dir=work)
            child("--build", str(n), "--turns", str(a.turns), "--folder", folder)   # once for every variant
            for w, senders in [(w, x) for w in a.workers for x in a.senders]:
                cmd = ["--one", str(n), "--folder", folder, "--work", work, "--workers", str(w), "--nice",
                       str(a.nice), "--chunk", str(a.chunk)] + \
                    (["--skip-send"] if a.skip_send else []) + (["--parent-sends"] if senders == "parent" else [])
                if a.profile:
                    cmd += ["--profile", f"{a.profile}.{n}.{w}.{senders}"]
                runs = sorted((child(*cmd) for _ in range(max(1, a.repeat))), key=wall_ratio)
                r = runs[(len(runs) - 1) // 2]
                first.setdefault(n, r)
                show(r, first[n])
                if r["closed"] != r["due"] or r["failed"] or not r["observer_rows"] or \
                        (not a.skip_send and r["sent"] < r["outbox_rows"]):
                    raise SystemExit(f"broken: {r['closed']}/{r['due']} due closed, {r['failed']} failed, "
                                     f"{r['sent']}/{r['outbox_rows']} sent, {r['observer_rows']} to observers")
                if len(runs) > 1:
                    print(f"  {len(runs)} runs, ratio TICK/games wall: "
                          f"{', '.join(f'{wall_ratio(x):.2f}' for x in runs)} (median {wall_ratio(r):.2f}); CPU: "
                          f"{', '.join(f'{cpu_ratio(x):.2f}' for x in runs)}", flush=True)
                    if not a.skip_send:   # WAIT's own median: what a GM waits for, each run with its load
                        waits = sorted(runs, key=lambda x: x["wait_s"])
                        print("  WAIT of each run: " + "; ".join(
                            f"{x['wait_s']:.1f} s wall, {x['wait_cpu']:.1f} s CPU (load {x['load'][0]:.1f})"
                            for x in waits) + f" (median {waits[(len(waits) - 1) // 2]['wait_s']:.1f} s wall)", flush=True)
            for in_process in ([False, True] if a.cron_in_process else [False]) if a.cron else []:
                cmd = ["--one", str(n), "--folder", folder, "--work", work, "--cron"] + \
                    (["--cron-in-process"] if in_process else [])
                runs = sorted((child(*cmd) for _ in range(max(1, a.repeat))), key=lambda x: x["wait_s"])
                r = runs[(len(runs) - 1) // 2]
                from _cron import show_cron
                show_cron(r)
                if len(runs) > 1:
                    waits = "; ".join(f"{x['wait_s']:.2f} s wall, {x['wait_cpu']:.1f} s CPU (load {x['load'][0]:.1f})"
                                      for x in runs)
                    print(f"  {len(runs)} runs, WAIT: {waits}", flush=True)
                if r["closed"] != r["due"] or r["sent"] < r["queued"]:
                    raise SystemExit(f"broken (cron): {r['closed']}/{r['due']} due closed, {r['sent']}/{r['queued']} sent")
    if len(first) > 1:
        ns = sorted(first)
        a0, a1 = first[ns[0]], first[ns[-1]]
        print(f"linearity (first variant): per match at N={a1['n']} is "
              f"{a1['tick_s'] / a1['n'] / (a0['tick_s'] / a0['n']):.2f}x that at N={a0['n']}")


if __name__ == "__main__":
    main()
