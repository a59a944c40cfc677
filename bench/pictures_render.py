"""Board pictures: what drawing and rendering them costs, against a close.

Not a test: prints figures.  Replays the recorded samples in ``turns/`` and,
for a few turns of each, measures in the same run:

* baseline: the close without pictures (resolve the turn, every viewer's view
  and report body in text and HTML),
* svg: the game's ``picture`` hook (once per language: every viewer's picture
  is the public one),
* resvg (``resvg-py``) on the game's SVG as it is (how every PNG was made before
  ``referee/pictures/glyphs.py``), the referee's ``pictures.png_of`` (text as cached glyph
  outlines, plain shapes by libvips) and, if installed, CairoSVG (``pip install
  cairosvg``: needs the system's libcairo) turning it into PNG.

Then whole closes through the referee (SQLite store, Maildir sink, 4 players,
default orders): close + sending every report, with the pictures, calendars and
standings, against the same closes with those three switched off.

    python bench/pictures_render.py [ROUNDS]
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from datetime import UTC
from pathlib import Path

import resvg_py
import yaml

from referee.game_api import registry
from referee.game_api.contract import GM, Rng
from referee.pictures import board as pictures
from referee.render.renderer import Renderer
from referee.site.history import read_meta, setup_state

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {"demo-founding_fathers": (1, 30, 60, 84), "demo-perricumer_ratsspiel": (1, 4, 8)}

try:
    import cairosvg
except (ImportError, OSError):      # no wheel, or no libcairo on the machine
    cairosvg = None


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


def baseline(rules, meta, renderer, number, state, orders, seed):
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
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    renderer = Renderer()
    print(f"{'sample':<28} {'turn':>4} {'close ms':>9} {'svg ms':>7} {'resvg ms':>9} {'png_of ms':>9} {'cairo ms':>9} "
          f"{'png KiB':>8} {'share':>6} {'resvg/png_of':>12}")
    shares, ratios, speedups = [], [], []
    for name, wanted in SAMPLES.items():
        for rules, meta, number, state, orders, seed in turn_inputs(ROOT / "turns" / name, wanted):
            res = baseline(rules, meta, renderer, number, state, orders, seed)
            base = timed(lambda: baseline(rules, meta, renderer, number, state, orders, seed), rounds)
            view = rules.view(res.state, None)
            svg_t = timed(lambda: rules.picture(view, meta["language"]), rounds)
            svg = rules.picture(view, meta["language"])
            png = resvg_py.svg_to_bytes(svg_string=svg)
            resvg_t = timed(lambda: resvg_py.svg_to_bytes(svg_string=svg), rounds)
            png_of_t = timed(lambda: pictures.png_of(svg), rounds)
            speedups.append(resvg_t / png_of_t)
            cairo_t = timed(lambda: cairosvg.svg2png(bytestring=svg.encode()), rounds) if cairosvg else float("nan")
            share = (svg_t + png_of_t) / (base + svg_t + png_of_t)
            shares.append(share)
            ratios.append(cairo_t / resvg_t)
            print(f"{name:<28} {number:>4} {1000 * base:>9.1f} {1000 * svg_t:>7.2f} {1000 * resvg_t:>9.1f} "
                  f"{1000 * png_of_t:>9.1f} {1000 * cairo_t:>9.1f} {len(png) / 1024:>8.1f} {share:>6.0%} "
                  f"{resvg_t / png_of_t:>12.2f}")
    print(f"\npictures' share of a close (one picture per close and language, png_of): "
          f"median {statistics.median(shares):.0%}")
    print(f"resvg time / png_of time (wall, same run): median {statistics.median(speedups):.2f}")
    if cairosvg:
        print(f"CairoSVG time / resvg time: median {statistics.median(ratios):.2f}")


def closes(turns: int, seeing: bool) -> tuple[float, float]:
    """(close seconds, send seconds) of ``turns`` Founding Fathers closes."""
    from datetime import datetime, timedelta
    from tempfile import TemporaryDirectory

    from referee.app.referee import Referee
    from referee.authority import base
    from referee.authority.base import Settings
    from referee.mail.sink import MaildirSink
    from referee.store.sqlite import SqliteStore
    from referee.turns import compute as close_compute

    saved = (close_compute.svg_of, base.Lookups.calendar_part, close_compute.standings.read)
    if not seeing:
        close_compute.svg_of = lambda *a: None
        base.Lookups.calendar_part = lambda *a, **k: None
        close_compute.standings.read = lambda *a: {}
    now = [datetime(2026, 3, 1, 12, tzinfo=UTC)]
    try:
        with TemporaryDirectory() as tmp:
            ref = Referee(SqliteStore(Path(tmp) / "r.sqlite"), Path(tmp) / "turns", clock=lambda: now[0],
                          settings=Settings(address="referee@example.org"))
            sink = MaildirSink(Path(tmp) / "out")
            ref.create_match({"id": "bench", "game": "founding_fathers", "lang": "en", "gm": "gm@example.org",
                              "timezone": "Europe/Berlin", "schedule": {"period": "48h", "reminders": ["12h"]},
                              "players": [{"id": p, "name": p.title(), "email": f"{p}@example.org"}
                                          for p in ("ada", "bert", "cleo", "dora")]}, seed="bench")
            ref.send_pending(sink)
            close_t = send_t = 0.0
            for _ in range(turns):
                now[0] += timedelta(hours=1)
                t = time.perf_counter()
                if ref.close_turn("bench") is None:
                    break
                close_t += time.perf_counter() - t
                t = time.perf_counter()
                ref.send_pending(sink)
                send_t += time.perf_counter() - t
            return close_t, send_t
    finally:
        close_compute.svg_of, base.Lookups.calendar_part, close_compute.standings.read = saved


def main_closes(turns: int = 20) -> None:
    bare_close, bare_send = closes(turns, seeing=False)
    full_close, full_send = closes(turns, seeing=True)
    bare, full = bare_close + bare_send, full_close + full_send
    print(f"\n{turns} closes with 4 players + GM: close ms/turn {1000 * bare_close / turns:.1f} -> "
          f"{1000 * full_close / turns:.1f}, send ms/turn {1000 * bare_send / turns:.1f} -> {1000 * full_send / turns:.1f}")
    print(f"pictures, calendars and standings: {full / bare:.2f}x a close with sending; "
          f"their share of it {(full - bare) / full:.0%} (of the close alone {(full_close - bare_close) / full_close:.0%})")


if __name__ == "__main__":
    main()
    main_closes()
