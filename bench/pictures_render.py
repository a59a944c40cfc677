"""Board pictures: what drawing one costs (wall and CPU, the game's hook included),
before and after issue 34's one library, beside the close it belongs to.

Not a test: prints figures.  For a few turns of each recorded sample in ``turns/``:

* close: this tree's close of that turn without pictures (resolve the turn, every
  viewer's view and report body), the yardstick a picture's share is read against;
* before / after: ``pictures.board.picture_png`` (the game's ``picture`` hook, then
  the PNG) of the baseline tree (``--baseline``, default /work/main: resvg + HarfBuzz
  outlines + libvips, full colour, 960 px) and of this tree (libvips alone, palette,
  720 px), each in an interpreter of its own (``pictures_png.sides``), taking turns,
  ``--rounds`` times, warm; medians of the rounds.

Left out: the picture workers' start-up (a service starts them once) and the mail
(``bench/send_reports.py``).  A picture is drawn once per turn and language, not per reader.

    python bench/pictures_render.py [--rounds 3] [--baseline /work/main] [--smoke]

``--smoke``: one turn, this tree only, one round; exits non-zero if it fails.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import yaml
from pictures_png import ROOT, median_of, sides

from referee.game_api import registry
from referee.game_api.contract import GM, Rng
from referee.render.renderer import Renderer
from referee.site.history import read_meta, setup_state

SAMPLES = {"demo-founding_fathers": (1, 30, 84), "demo-perricumer_ratsspiel": (1, 8),
           "demo-nations_dice": (3, 25), "demo-revolution_1848": (5, 75)}


def timed(fn, rounds: int, clock=time.perf_counter) -> float:
    """Median seconds of ``rounds`` calls of ``fn`` by ``clock`` (wall; ``time.process_time``: CPU)."""
    best = []
    for _ in range(rounds):
        t = clock()
        fn()
        best.append(clock() - t)
    return statistics.median(best)


def turn_inputs(match_dir: Path, wanted):
    """(number, state before, orders, seed) of the wanted turns."""
    meta = read_meta(match_dir)
    rules = registry.get(meta["game"])
    state, number = setup_state(rules, meta), 1
    while (match_dir / f"t{number:03d}" / "turn.json").exists() and number <= max(wanted):
        d = match_dir / f"t{number:03d}"
        seed = json.loads((d / "turn.json").read_text())["seed"]
        used = yaml.safe_load((d / "orders.yaml").read_text())
        orders = {p: rules.order_schema(state, u["stage"]).model_validate(u["orders"]) for p, u in used.items()}
        if number in wanted:
            yield rules, meta, number, state, orders, seed
        state = rules.resolve(state, orders, Rng(seed)).state
        number += 1


def close_without_pictures(rules, meta, renderer, number, state, orders, seed):
    res = rules.resolve(state, orders, Rng(seed))
    viewers = [p["id"] for p in meta["players"]] + [GM]
    for viewer in viewers:
        view = rules.view(res.state, viewer)
        ctx = {"match": {"id": meta["id"], "title": meta["title"], "game": rules.name, "lang": meta["language"],
                         "timezone": meta["timezone"]},
               "turn": number, "viewer": viewer, "view": view,
               "log": [{"kind": e.kind, "data": dict(e.data)} for e in res.log if e.visible_for(viewer)],
               "missing": [], "players": {p["id"]: {"name": p["name"]} for p in meta["players"]},
               "outcome": res.outcome, "order_form": "", "next": None}
        renderer.game_report(rules.name, rules.languages, meta["language"], ctx)
    return res


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--baseline", type=Path, default=Path("/work/main"))
    p.add_argument("--smoke", action="store_true")
    a = p.parse_args()
    samples = {"demo-founding_fathers": (30,)} if a.smoke else SAMPLES
    baseline = None if a.smoke or not (a.baseline / "referee").is_dir() else a.baseline
    rounds = 1 if a.smoke else a.rounds
    print(f"load average before: {os.getloadavg()}; rounds {rounds}; baseline {baseline or '(none)'}")
    renderer, closes = Renderer(), {}
    for name, wanted in samples.items():
        for rules, meta, number, state, orders, seed in turn_inputs(ROOT / "turns" / name, wanted):
            closes[(name.removeprefix("demo-"), number)] = timed(
                lambda: close_without_pictures(rules, meta, renderer, number, state, orders, seed), rounds)
    runs = sides(baseline, rounds, "render", {k: list(v) for k, v in samples.items()})
    if a.smoke:
        bad = [r for r in runs["after"][0] if not r["bytes"]]
        print(f"smoke: {len(runs['after'][0])} pictures, {len(bad)} without a PNG; close {closes}")
        sys.exit(1 if bad or not runs["after"][0] or not closes else 0)
    names = list(runs)
    print(f"{'game':<22} {'turn':>4} {'lang':>4} {'close ms':>9} "
          + " ".join(f"{n + ' ms':>10} {n + ' CPU':>10} {n + ' share':>12}" for n in names))
    keys = [(g, n, lang) for g, n in closes for lang in registry.get(g).languages]   # the child's order
    shares: dict[str, list[float]] = {n: [] for n in names}
    walls: dict[str, list[float]] = {n: [] for n in names}
    for i, (game, number, lang) in enumerate(keys):
        close_ms = 1000 * closes[(game, number)]
        line = f"{game:<22} {number:>4} {lang:>4} {close_ms:>9.1f} "
        for n in names:
            wall, cpu = median_of(runs[n], i, "wall_ms"), median_of(runs[n], i, "cpu_ms")
            shares[n].append(wall / (close_ms + wall))
            walls[n].append(wall)
            line += f"{wall:>10.1f} {cpu:>10.1f} {wall / (close_ms + wall):>12.0%} "
        print(line)
    for n in names:
        print(f"{n}: picture (hook + PNG) median {statistics.median(walls[n]):.1f} ms wall; "
              f"its share of a close with its picture: median {statistics.median(shares[n]):.0%}")
    if "before" in walls:
        print(f"before/after, wall per picture: {statistics.median(walls['before']) / statistics.median(walls['after']):.2f}x")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
