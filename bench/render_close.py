"""Rendering one tick's reports, without committing: CPU of the renders, A/B against another checkout.

Not a test: prints figures.  Opens a copy of a folder ``bench/close_many.py`` built (every
match due), warms the renderer, then works out every match's close (``CloseCompute.plan``:
resolve, views, every report rendered) and stores nothing.  Timed (process CPU): the whole of
the plans, and inside them the reports' rendering: ``Renderer.game_report`` + ``Renderer.report``
and the public parts' digests (``render_shared.digest``, wherever they run).  A SHA-256 over
every report's text and HTML is printed, so two checkouts can be held to the same bytes.

    python bench/render_close.py --folder /tmp/b100 [--base /work/wt/base] [--pairs 4] [--repeat 3]
    python bench/render_close.py --smoke     # builds 2 matches and renders their close: fails if broken

With ``--base`` it runs interleaved pairs (base, this tree, this tree, base, ...), each run in
a child process of its own (``PYTHONPATH`` set to that tree), and prints every pair's ratio.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent


def one(folder: Path, repeat: int = 1) -> dict:
    from referee.app.referee import Referee
    from referee.authority.base import Settings
    from referee.render import renderer as render
    from referee.render import shared as render_shared
    from referee.runtime import gc_policy
    from referee.store import open_store
    from referee.turns import worker as close_worker
    from referee.turns.compute import CloseCompute
    spent = {"render": 0.0, "games": 0.0}
    depth = [0]

    def timed(f, part="render"):
        def wrapper(*a, **k):
            if depth[0]:
                return f(*a, **k)
            depth[0] += 1
            c = time.process_time()
            try:
                return f(*a, **k)
            finally:
                spent[part] += time.process_time() - c
                depth[0] -= 1
        return wrapper

    # the games' own work in the same plans (resolve, view, order form): the same in both trees, so
    # render / games is a ratio this machine's drift of speed does not move
    from referee.game_api import registry
    for name in registry.names():
        cls = type(registry.get(name))
        for method in ("resolve", "view", "views", "order_form"):
            if hasattr(cls, method):   # views: a game's every-reader-at-once, where it has one
                setattr(cls, method, timed(getattr(cls, method), "games"))

    render.Renderer.game_report = timed(render.Renderer.game_report)
    render.Renderer.report = timed(render.Renderer.report)
    render_shared.digest = timed(render_shared.digest)   # wherever it runs (a close-wide digest too)

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copy(folder / "referee.sqlite", root / "referee.sqlite")
        saved = json.loads((folder / "clock.json").read_text())
        now = datetime.fromisoformat(saved["now"])
        ref = Referee(open_store(root / "referee.sqlite"), root / "turns", clock=lambda: now,
                      settings=Settings(address="referee@league.test"))
        close_worker.warm_renderer(ref.renderer)
        gc_policy.settle()
        compute: CloseCompute = ref.closing.compute
        ids = [m["id"] for m in ref.store._db.execute("SELECT id FROM matches ORDER BY id").fetchall()] \
            if hasattr(ref.store, "_db") else []
        rounds = []
        for _ in range(repeat):   # the least of a few rounds: others' bursts on a shared machine add, never take
            ref.renderer.clear_shared()
            out = hashlib.sha256()
            spent["render"] = spent["games"] = 0.0
            c = time.process_time()
            for mid in ids:
                plan = compute.plan(mid, None)
                if plan is None:
                    continue
                for who in sorted(plan.mails):
                    m = plan.mails[who]
                    out.update(f"{mid}/{who}\0{m['subject']}\0{m['text']}\0{m['html']}\0".encode())
            rounds.append((time.process_time() - c, spent["render"], spent["games"]))
    return {"plan_cpu": min(r[0] for r in rounds), "render_cpu": min(r[1] for r in rounds),
            "render_per_games": min(r[1] / r[2] for r in rounds), "matches": len(ids),
            "bytes": out.hexdigest(), "load": os.getloadavg()[0]}


def run(tree: Path, folder: str, repeat: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, str(TREE / "bench/render_close.py"), "--one", "--folder", folder,
                          "--repeat", str(repeat)],
                         cwd=tree, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--folder", default="/tmp/b100")
    p.add_argument("--base", help="another checkout to compare with, interleaved")
    p.add_argument("--pairs", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3, help="rounds a run; the least counts")
    p.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--smoke", action="store_true", help="a tiny run (a few seconds) that fails if the bench is broken")
    a = p.parse_args()
    if a.smoke:
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, str(TREE / "bench/close_many.py"), "--build", "2", "--turns", "1",
                            "--folder", tmp], check=True, capture_output=True)
            r = run(TREE, tmp, 1)
        print(json.dumps(r))
        if not r["matches"] or not r["render_cpu"] > 0:
            raise SystemExit("render_close: no close rendered")
        return
    if a.one:
        print(json.dumps(one(Path(a.folder), a.repeat)))
        return
    if not a.base:
        print(json.dumps(run(TREE, a.folder, a.repeat)))
        return
    ratios, plans, drifts = [], [], []
    for i in range(a.pairs):
        sides = ("base", "this") if i % 2 == 0 else ("this", "base")
        r = {side: run(Path(a.base) if side == "base" else TREE, a.folder, a.repeat) for side in sides}
        b, t = r["base"], r["this"]
        ratios.append(t["render_cpu"] / b["render_cpu"])
        plans.append(t["plan_cpu"] / b["plan_cpu"])
        drifts.append(t["render_per_games"] / b["render_per_games"])
        print(f"pair {i + 1}: render base {b['render_cpu']:.2f}s this {t['render_cpu']:.2f}s ratio {ratios[-1]:.3f};"
              f" render/games base {b['render_per_games']:.3f} this {t['render_per_games']:.3f} ratio {drifts[-1]:.3f};"
              f" plan base {b['plan_cpu']:.2f}s this {t['plan_cpu']:.2f}s ratio {plans[-1]:.3f};"
              f" same bytes {b['bytes'] == t['bytes']}; load {b['load']:.2f}/{t['load']:.2f}", flush=True)
    print(f"median render ratio {statistics.median(ratios):.3f}, render/games ratio {statistics.median(drifts):.3f},"
          f" plan ratio {statistics.median(plans):.3f}")


if __name__ == "__main__":
    main()
