"""Closing at scale: N matches due at the same minute, all closed in one ``tick``.

Not a test: prints figures.  For each N (default 10, 100, 1000), in a child
process of its own (so peak memory is that N's alone):

* build N matches of the league mix — Founding Fathers with 3–5 players and
  Perricumer Ratsspiel with 5–12, alternating — and play ``--turns`` turns
  (default 2) with random orders, so every match is a few turns in; then put
  every awaited player's orders in for the open turn;
* baseline, same states, same run: the games' own work of the close —
  ``load`` + ``resolve`` + ``view`` and ``order_form`` for every reader
  (players, the public view and the GM);
* timed: one ``Referee.tick`` after every deadline has passed — re-validate,
  resolve, persist, render and queue every report, write the archive;
* then (not timed as part of the close) the outbox sends every report into a
  Maildir, and the store is measured as it stays;
* reported: seconds for the tick, per match, the ratio tick / games' own
  work, peak RSS of the process, SQLite bytes per match-turn and the
  archive's bytes per match-turn.  The ratio is of CPU seconds (this machine is shared);
  the wall time of the tick is printed beside it.

    python bench/close_many.py [--n 10 100 1000] [--turns 2] [--profile FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from referee import pictures, registry  # noqa: E402
from referee.authority import Referee, Settings  # noqa: E402
from referee.contract import GM, Rng, derive_seed  # noqa: E402
from referee.mail.sink import MaildirSink  # noqa: E402
from referee.scripted import random_player  # noqa: E402
from referee.store import open_store  # noqa: E402

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def league(i: int) -> tuple[str, list[str], str]:
    """The i-th match of the mix: (game, seats, language)."""
    if i % 2 == 0:
        return "founding_fathers", [f"f{k}" for k in range(3 + (i // 2) % 3)], ("en", "de")[(i // 2) % 2]
    return "perricumer_ratsspiel", [f"r{k}" for k in range(5 + (i // 2) % 8)], "de"


def spec_of(i: int) -> dict:
    game, seats, lang = league(i)
    spec = {"id": f"m{i:04d}", "game": game, "lang": lang, "gm": f"gm{i % 50}@league.test",
            "timezone": "Europe/Berlin", "schedule": {"period": "48h"}, "early_close": False,
            "players": [{"id": s, "name": s.title(), "email": f"{s}.{i}@league.test"} for s in seats]}
    sample = getattr(registry.get(game), "sample_options", None)
    if callable(sample):
        spec["options"] = sample(seats)
    return spec


def orders_in(ref: Referee, match_id: str, rng: Rng) -> None:
    """Every awaited player's random orders, stored as an accepted mail would store them."""
    rules = registry.get(ref.store.match(match_id)["game"])
    turn = ref.store.current_turn(match_id)
    state = rules.load(turn["state"])
    rand = random_player(rules)
    with ref.store.transaction():
        for pid in sorted(turn["awaiting"]):
            if pid.startswith("@"):
                continue
            ref.store.put_submission(match_id, turn["number"], pid, rand(state, pid, rng),
                                     f"<{match_id}.{turn['number']}.{pid}@league.test>", "0" * 64, ref.now())


def build(root: Path, n: int, turns: int, settings: Settings | None = None) -> tuple[Referee, Clock]:
    """N matches of the mix, ``turns`` turns in, every awaited player's orders in, the clock past their deadline."""
    clock = Clock()
    ref = Referee(open_store(root / "referee.sqlite"), root / "turns", clock=clock,
                  settings=settings or Settings(address="referee@league.test"))
    rng = Rng(derive_seed("close_many", n))
    for i in range(n):
        ref.create_match(spec_of(i), seed=f"league-{i}")
    ref.tick()
    for _ in range(turns + 1):
        for i in range(n):
            orders_in(ref, f"m{i:04d}", rng)
        if _ < turns:
            clock.now += timedelta(hours=49)
            ref.tick()
    with ref.store.transaction():  # the build's own mail is not what is measured
        ref.store._db.execute("DELETE FROM outbox")
    clock.now += timedelta(hours=49)
    return ref, clock


def games_own_work(ref: Referee, n: int) -> float:
    """Seconds for what the games do in a close: load, resolve, view and order form for every reader."""
    work = []
    for i in range(n):
        match = ref.store.match(f"m{i:04d}")
        rules = registry.get(match["game"])
        turn = ref.store.current_turn(match["id"])
        subs = ref.store.submissions(match["id"], turn["number"])
        work.append((rules, turn, subs, [p["id"] for p in ref.store.players(match["id"])],
                     match["spec"].get("language") or "en"))
    t = time.process_time()
    for rules, turn, subs, seats, lang in work:
        state = rules.load(turn["state"])
        orders = {p: rules.order_schema(state, stage).model_validate(subs[p]["orders"]) if p in subs
                  else rules.default_orders(state, p) for p, stage in sorted(turn["awaiting"].items())}
        res = rules.resolve(state, orders, Rng(turn["seed"]))
        after = rules.awaiting(res.state)
        for viewer in seats + [None, GM]:
            rules.view(res.state, viewer)
            if viewer in after:
                rules.order_form(res.state, viewer, lang)
    return time.process_time() - t


def size_of(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def db_size(root: Path) -> int:
    """The store's bytes on disk (the database, its write-ahead log and index)."""
    return sum(f.stat().st_size for f in root.glob("referee.sqlite*"))


def one(n: int, turns: int, profile: str | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t = time.perf_counter()
        workers, pictures.WORKERS = pictures.WORKERS, 0   # the build's pictures are never sent: none rendered
        ref, clock = build(root, n, turns)
        pictures.WORKERS = workers
        build_s = time.perf_counter() - t
        games_s = games_own_work(ref, n)
        ref.store.checkpoint()
        db_before = db_size(root)
        arch_before = size_of(root / "turns")
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if profile:
            import cProfile
            prof = cProfile.Profile()
            prof.enable()
        t, c = time.perf_counter(), time.process_time()
        report = ref.tick()
        tick_s, tick_cpu = time.perf_counter() - t, time.process_time() - c
        if profile:
            prof.disable()
            prof.dump_stats(profile)
        queued = len(ref.store.outbox())
        t, c = time.perf_counter(), time.process_time()   # not part of the close: the outbox sends later
        sent = ref.send_pending(MaildirSink(root / "out"), limit=queued + 10).sent
        send_s, send_cpu = time.perf_counter() - t, time.process_time() - c
        pictures.shutdown()   # the picture workers' CPU counts once they are gone
        workers_cpu = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
        ref.store.checkpoint()
        db_after = db_size(root)
        arch_after = size_of(root / "turns")
        resolved = sum(1 for i in range(n) for t_ in ref.store.turns(f"m{i:04d}") if t_["status"] == "resolved")
        return {"n": n, "closed": len(report.closed), "failed": len(report.failed), "queued": queued, "sent": sent, "send_s": send_s, "send_cpu": send_cpu, "workers_cpu": workers_cpu,
                "build_s": build_s, "games_s": games_s, "tick_s": tick_s, "tick_cpu": tick_cpu,
                "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "rss_before_mb": rss_before / 1024,
                "db_bytes": db_after, "db_per_match_turn": db_after / max(resolved, 1),
                "db_close_per_match": (db_after - db_before) / n,
                "archive_close_per_match": (arch_after - arch_before) / n}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, nargs="+", default=[10, 100, 1000])
    p.add_argument("--turns", type=int, default=2)
    p.add_argument("--profile", help="write a cProfile of the tick (with --one)")
    p.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process: one N, JSON out
    a = p.parse_args()
    if a.one:
        print(json.dumps(one(a.one, a.turns, a.profile)))
        return
    rows = []
    for n in a.n:
        cmd = [sys.executable, __file__, "--one", str(n), "--turns", str(a.turns)]
        if a.profile:
            cmd += ["--profile", f"{a.profile}.{n}"]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=dict(os.environ)).stdout
        r = json.loads(out.strip().splitlines()[-1])
        rows.append(r)
        print(f"N={n:5d}: tick {r['tick_s']:7.2f} s wall, {r['tick_cpu']:7.2f} s CPU, {1000 * r['tick_s'] / n:6.1f} ms/match; "
              f"games' own work {r['games_s']:6.2f} s CPU, ratio {r['tick_cpu'] / r['games_s']:.2f} CPU "
              f"(target <= 2.5); closed {r['closed']}, "
              f"failed {r['failed']}, queued {r['queued']}, sent {r['sent']} into a Maildir in {r['send_s']:.1f} s wall, "
              f"{r['send_cpu']:.1f} s CPU (+{r['workers_cpu']:.1f} s CPU in picture workers); peak RSS {r['peak_rss_mb']:.0f} MB "
              f"(before tick {r['rss_before_mb']:.0f}); SQLite {r['db_per_match_turn'] / 1024:.0f} KB/match-turn, "
              f"close adds {r['db_close_per_match'] / 1024:.0f} KB/match to SQLite and "
              f"{r['archive_close_per_match'] / 1024:.0f} KB/match to the archive; build {r['build_s']:.0f} s",
              flush=True)
    if len(rows) > 1:
        a0, a1 = rows[0], rows[-1]
        print(f"linearity: per match at N={a1['n']} is {a1['tick_s'] / a1['n'] / (a0['tick_s'] / a0['n']):.2f}x "
              f"that at N={a0['n']}")


if __name__ == "__main__":
    main()
