"""Board pictures to PNG: CPU per picture, today's resvg against the referee's path.

Not a test: prints figures.  For every game's recorded sample in ``turns/``, a few
turns in each language, measured in the same run (CPU time, median of ROUNDS):

* resvg: ``resvg_py.svg_to_bytes`` on the game's SVG (how every PNG was made before),
* outlined+resvg: the text drawn as glyph outlines (``glyphs.outline``), resvg renders,
* png_of: what the referee does now (outlines, then libvips for plain shapes),
* png_of cold: the same with the glyph caches emptied first (a new string each time).

    python bench/pictures_png.py [ROUNDS]
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import resvg_py
from pictures_render import timed

from referee.game_api import registry
from referee.pictures import board as pictures
from referee.pictures import glyphs
from referee.site.history import read_meta, turns

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {"demo-founding_fathers": (1, 30, 84), "demo-perricumer_ratsspiel": (1, 8),
           "demo-nations_dice": (3, 25), "demo-revolution_1848": (5, 99)}


def cpu_ms(fn, rounds: int) -> float:
    return 1000 * timed(fn, rounds, time.process_time)


def boards():
    """(sample, turn, lang, svg) of the wanted turns of every sample."""
    for name, wanted in SAMPLES.items():
        meta = read_meta(ROOT / "turns" / name)
        rules = registry.get(meta["game"])
        for t in turns(ROOT / "turns" / name, meta):
            if t.number in wanted:
                view = rules.view(t.state, None)
                for lang in rules.languages:
                    yield name.removeprefix("demo-"), t.number, lang, rules.picture(view, lang)


def cold(svg: str) -> bytes | None:
    glyphs._shaped.cache_clear()
    glyphs._outline.cache_clear()
    return pictures.png_of(svg)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"load average before: {os.getloadavg()}")
    print(f"{'game':<22} {'turn':>4} {'lang':>4} {'resvg':>7} {'outl+resvg':>10} {'png_of':>7} {'cold':>7} "
          f"{'ratio':>6} {'KiB old/new':>12}")
    per_game: dict[str, list[tuple[float, float, float, float]]] = {}
    for game, number, lang, svg in boards():
        drawn = glyphs.outline(svg)
        outlined = svg if drawn is None else drawn.svg
        old = cpu_ms(lambda: resvg_py.svg_to_bytes(svg_string=svg), rounds)
        mid = cpu_ms(lambda: resvg_py.svg_to_bytes(svg_string=outlined), rounds)
        new = cpu_ms(lambda: pictures.png_of(svg), rounds)
        first = cpu_ms(lambda: cold(svg), rounds)
        sizes = len(resvg_py.svg_to_bytes(svg_string=svg)) / 1024, len(pictures.png_of(svg) or b"") / 1024
        per_game.setdefault(game, []).append((old, mid, new, first))
        print(f"{game:<22} {number:>4} {lang:>4} {old:>7.1f} {mid:>10.1f} {new:>7.1f} {first:>7.1f} "
              f"{old / new:>6.2f} {sizes[0]:>5.0f}/{sizes[1]:<5.0f}")
    print("\nms CPU per picture, mean over the game's boards (ratio = resvg / png_of):")
    for game, rows in per_game.items():
        old, mid, new, first = (statistics.mean(r[i] for r in rows) for i in range(4))
        print(f"  {game:<22} resvg {old:6.1f}  outlined+resvg {mid:6.1f}  png_of {new:6.1f} "
              f"(cold {first:6.1f})  {old / new:4.2f}x ({old / first:4.2f}x cold)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
