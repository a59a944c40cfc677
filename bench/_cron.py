"""The cron path of ``bench/close_many.py --cron``: ``referee tick`` as a process of its own, timed from
its start to its end (start-up, the closes, every PNG, every mail accepted by the Maildir sink), beside
the same games' own work.  Not a bench itself (the smoke test skips ``_`` files)."""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _league import games_inputs, games_own_work
from close_many import last_row, opened, run_folder

from referee.runtime import gc_policy

CRON_YAML = ("address: referee@league.test\nstore: referee.sqlite\narchive: turns\n"
             "mail_in:\n  maildir: mail/in\nmail_out:\n  maildir: out\nbackups:\n  before_close: false\n")


def one_cron(n: int, source: Path, keep_in: str | None = None, in_process: bool = False) -> dict:
    """The cron path: ``referee tick`` as a process of its own (start-up, imports, templates, the closes,
    every PNG, every mail accepted by the sink), timed from its start to its end; the same games' own work."""
    with run_folder(keep_in) as tmp:
        root = Path(tmp)
        shutil.copytree(source, root, dirs_exist_ok=True)
        os.sync()
        (root / "referee.yaml").write_text(CRON_YAML + ("close_workers: 0\n" if in_process else ""))
        (root / "mail" / "in").mkdir(parents=True, exist_ok=True)
        ref, clock, saved = opened(root)
        inputs = games_inputs(ref, n)
        gc_policy.settle()
        games_before = games_own_work(inputs)
        open_turns = {m["id"]: ref.store.current_turn(m["id"])["number"] for m in ref.store.matches("running")}
        built_rows = last_row(ref)
        ref.store.close()
        load = os.getloadavg()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "referee.app.cli", "--config", str(root / "referee.yaml"), "tick"],
                              cwd=root, capture_output=True, text=True)
        wait_s = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            raise SystemExit(f"referee tick failed: {done.stderr[-2000:]}")
        wait_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        games_s = (games_before + games_own_work(inputs)) / 2
        ref, _, _ = opened(root)
        closed = sum(1 for m, number in open_turns.items() if ref.store.turn(m, number)["status"] == "resolved")
        rows = [e for e in ref.store.outbox() if e["id"] > built_rows]
        queued, sent = len(rows), sum(1 for e in rows if e["status"] == "sent")
        ref.store.close()
        return {"n": n, "workers": "cron", "in_process": in_process, "due": len(open_turns), "closed": closed, "queued": queued, "sent": sent, "wait_s": wait_s,
                "wait_cpu": wait_cpu, "games_s": games_s, "load": load, "said": done.stdout.strip()[-200:]}


def show_cron(r: dict) -> None:
    load = " ".join(f"{x:.2f}" for x in r["load"])
    how = "close_workers: 0, closes in process" if r.get("in_process") else "close workers from 48 due turns"
    print(f"N={r['n']:5d} cron (`referee tick` as a process: start-up, {how}, closes, pictures, sending); "
          f"load average at the start {load}", flush=True)
    print(f"  WAIT  (start of `referee tick` to the last report accepted by the sink, pictures included): "
          f"{r['wait_s']:7.2f} s wall, {r['wait_cpu']:7.2f} s CPU all processes; {1000 * r['wait_s'] / r['n']:.1f} "
          f"ms/match; WAIT/games {r['wait_s'] / r['games_s']:.2f} wall-to-wall, {r['wait_cpu'] / r['games_s']:.2f} "
          f"CPU-to-CPU (games' own work {r['games_s']:.2f} s); sent {r['sent']} of {r['queued']} queued", flush=True)
