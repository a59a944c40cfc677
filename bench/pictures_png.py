"""Board pictures to PNG: bytes and CPU per picture, before and after issues 34/38.

Not a test: prints figures.  The same SVGs (every game's recorded sample in
``turns/``, a few turns in each language) go through ``pictures.board.png_of`` of
two trees, each in an interpreter of its own, taking turns, ``--rounds`` times:

* before: the baseline tree (``--baseline``, default /work/main, with its own
  ``.venv``): text as HarfBuzz outlines, plain shapes by libvips, resvg for the
  rest; full colour, 960 pixels wide;
* after: this tree: libvips alone (librsvg + Pango), palette PNG, 720 pixels wide.

Each round renders every picture once untimed (a service's caches are warm),
then once timed (CPU time of the process); the figures are the medians over the
rounds.  Left out: the game's ``picture`` hook and the wall time around a close
(``bench/pictures_render.py``), the mail around the picture (``bench/send_reports.py``).

    python bench/pictures_png.py [--rounds 3] [--baseline /work/main] [--smoke]

``--smoke``: this tree only, two pictures, one round; exits non-zero if one fails.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {"demo-founding_fathers": (1, 30, 84), "demo-perricumer_ratsspiel": (1, 8),
           "demo-nations_dice": (3, 25), "demo-revolution_1848": (5, 75)}


def public_views(samples=SAMPLES):
    """(game, turn, lang, rules, public view) of the wanted turns of every sample."""
    from referee.game_api import registry
    from referee.site.history import read_meta, turns
    for name, wanted in samples.items():
        meta = read_meta(ROOT / "turns" / name)
        rules = registry.get(meta["game"])
        for t in turns(ROOT / "turns" / name, meta):
            if t.number in wanted:
                view = rules.view(t.state, None)
                for lang in rules.languages:
                    yield name.removeprefix("demo-"), t.number, lang, rules, view


def boards(samples=SAMPLES):
    """(game, turn, lang, svg) of the wanted turns of every sample, drawn by this tree's games."""
    for game, number, lang, rules, view in public_views(samples):
        yield game, number, lang, rules.picture(view, lang)


def python_of(tree: Path) -> str:
    """The interpreter that runs ``tree``'s code: its own venv's, else this one."""
    venv = tree / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() and tree.resolve() != ROOT else sys.executable


def run_side(tree: Path, mode: str, payload: Path) -> list[dict]:
    """One round in a fresh interpreter running ``tree``'s referee (this file's ``child``)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([python_of(tree), str(Path(__file__).resolve()), "--child", mode, str(payload)],
                         cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"{tree}: the {mode} child failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.splitlines()[-1])


def child(mode: str, payload: Path) -> None:
    """In a side's interpreter: time each picture once warm; one JSON line out.  ``png``: the
    given SVGs through ``png_of``; ``render``: the samples' public views (payload: ``SAMPLES``'s
    shape) through ``picture_png``, the game's hook included, as the side's code draws them."""
    from referee.pictures import board
    if mode == "png":
        jobs = [lambda svg=svg: board.png_of(svg) for svg in json.loads(payload.read_text())]
    elif mode == "render":
        jobs = [lambda r=rules, v=view, lang=lang: board.picture_png(r, v, lang)
                for _g, _n, lang, rules, view in public_views(json.loads(payload.read_text()))]
    else:
        raise SystemExit(f"unknown mode {mode}")
    for job in jobs:    # warm: libvips loaded, fonts read, the old path's glyph caches filled
        job()
    rows = []
    for job in jobs:
        cpu, wall = time.process_time(), time.perf_counter()
        png = job() or b""
        rows.append({"cpu_ms": 1000 * (time.process_time() - cpu), "wall_ms": 1000 * (time.perf_counter() - wall),
                     "bytes": len(png), "width": int.from_bytes(png[16:20], "big") if png else 0})
    print(json.dumps(rows))


def sides(baseline: Path | None, rounds: int, mode: str, work) -> dict[str, list[list[dict]]]:
    """{side: [round's rows]}, the sides taking turns within each round; ``work``: the child's payload."""
    with tempfile.TemporaryDirectory() as tmp:
        payload = Path(tmp) / "work.json"
        payload.write_text(json.dumps(work))
        trees = {"before": baseline, "after": ROOT} if baseline else {"after": ROOT}
        out: dict[str, list[list[dict]]] = {name: [] for name in trees}
        for _ in range(rounds):
            for name, tree in trees.items():
                out[name].append(run_side(tree, mode, payload))
    return out


def median_of(runs: list[list[dict]], i: int, key: str) -> float:
    return statistics.median(run[i][key] for run in runs)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--baseline", type=Path, default=Path("/work/main"))
    p.add_argument("--smoke", action="store_true")
    p.add_argument("--child", nargs=2)
    a = p.parse_args()
    if a.child:
        return child(a.child[0], Path(a.child[1]))
    rows = list(boards({"demo-founding_fathers": (1,)})) if a.smoke else list(boards())
    baseline = None if a.smoke or not (a.baseline / "referee").is_dir() else a.baseline
    rounds = 1 if a.smoke else a.rounds
    print(f"load average before: {os.getloadavg()}; rounds {rounds}; baseline {baseline or '(none)'}")
    runs = sides(baseline, rounds, "png", [svg for *_, svg in rows])
    if a.smoke:
        bad = [r for r in runs["after"][0] if not (r["bytes"] > 1000 and 0 < r["width"] <= 720)]
        print(f"smoke: {len(runs['after'][0])} pictures, {len(bad)} bad")
        sys.exit(1 if bad or not runs["after"][0] else 0)
    names = list(runs)
    print(f"{'game':<22} {'turn':>4} {'lang':>4} " + " ".join(f"{n + ' ms':>10} {n + ' kB':>10} {n + ' px':>9}"
                                                              for n in names))
    per_game: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for i, (game, number, lang, _svg) in enumerate(rows):
        line = f"{game:<22} {number:>4} {lang:>4} "
        for n in names:
            ms, kb = median_of(runs[n], i, "cpu_ms"), median_of(runs[n], i, "bytes") / 1024
            per_game.setdefault(game, {}).setdefault(n, []).append((ms, kb))
            line += f"{ms:>10.1f} {kb:>10.1f} {runs[n][0][i]['width']:>9} "
        print(line)
    print("\nper game, mean over its boards (CPU ms per picture, kB per PNG; medians of the rounds):")
    for game, by_side in per_game.items():
        said = "  ".join(f"{n} {statistics.mean(m for m, _ in v):5.1f} ms {statistics.mean(k for _, k in v):5.1f} kB"
                         for n, v in by_side.items())
        if "before" in by_side:
            ms = statistics.mean(m for m, _ in by_side["before"]) / statistics.mean(m for m, _ in by_side["after"])
            kb = statistics.mean(k for _, k in by_side["before"]) / statistics.mean(k for _, k in by_side["after"])
            said += f"  before/after: {ms:4.2f}x CPU, {kb:4.2f}x bytes"
        print(f"  {game:<22} {said}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
