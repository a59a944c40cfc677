"""Rendering the reports of a close, alone: this tree's renderer against a baseline's, same run.

Not a test: prints figures.  Builds ``--n`` matches of close_many's league mix
(Founding Fathers and Perricumer Ratsspiel), closes them in one ``tick`` while
recording every call the close makes to the renderer (``game_report`` and
``report``, with their contexts), then replays those calls on

* the baseline: ``referee/render/`` (its own rendering modules, loaded as the package
  ``rbase.render``) and ``templates/`` of git revision ``--base`` (default ``main``), beside this tree's;
* this tree's renderer,

``--rounds`` times each, alternating, each round with cold shared-part caches
(one round is one close's rendering).  Every output of both must be the same
string (every reader's game body, text and HTML, the GM's and the public one, of
both games, and the report mail wrapped around it: subject, text, HTML), and so must
the mailed HTML (styles written inline) of the last round, else the bench stops.
Printed: CPU seconds (best round) of each, the ratio baseline / this tree, and the
median of the rounds' ratios (each round runs both, one after the other: the
steadier figure on a loaded machine), ms per report, the CPU of each one's first replay on a
fresh renderer (templates compiled on the way, as a close worker's first close) and
of this tree's ``warm()`` (compiling, and loading what an earlier warm() compiled), the CPU of writing the styles inline (css-inline, done
when a mail is built) per report, and the load average.

``--calls FILE`` keeps the recorded calls in FILE (pickle) and replays them from
there the next time, so a change can be measured without building the close again.

    python bench/render_reports.py [--n 20] [--rounds 3] [--base REV] [--calls FILE]
    python bench/render_reports.py --smoke     # a tiny run against HEAD: fails if the bench is broken
"""
from __future__ import annotations

import argparse
import copy
import importlib.util
import io
import os
import pickle
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import close_many  # noqa: E402

from referee.pictures import board as pictures  # noqa: E402
from referee.render.renderer import Renderer, inline_styles  # noqa: E402


def baseline_renderer(rev: str, folder: Path):
    """The Renderer class of ``rev`` over that revision's templates (put first in its search path),
    with that revision's own rendering modules (``referee/render/``, loaded as the package ``rbase.render``)."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", rev, "referee/render/"],
                           check=True, capture_output=True, text=True).stdout.split()
    modules = [n for n in names if n.endswith(".py")]
    if "referee/render/renderer.py" not in modules:
        raise SystemExit(f"{rev} has no referee/render/renderer.py (a revision before the package layout)")
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *modules, "templates"],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(folder, filter="data")
    package = folder / "rbase" / "render"
    package.mkdir(parents=True)
    (folder / "rbase" / "__init__.py").write_text("")
    for name in modules:   # its imports of itself (and code it writes into templates) name rbase.render
        code = (folder / name).read_text().replace("referee.render", "rbase.render")
        (package / Path(name).name).write_text(code)
    sys.path.insert(0, str(folder))
    module = importlib.import_module("rbase.render.renderer")
    return module.Renderer(extra_dirs=[folder / "templates"])


def record(n: int, turns: int, root: Path) -> list[tuple]:
    """The renderer calls of one close of ``n`` matches: ("game", args) and ("report", args)."""
    workers, pictures.WORKERS = pictures.WORKERS, 0
    ref, _ = close_many.build(root, n, turns)
    calls: list[tuple] = []
    r = ref.renderer
    game_report, report = r.game_report, r.report

    def rec_game(game, languages, lang, ctx):
        calls.append(("game", copy.deepcopy((game, tuple(languages), lang, ctx))))
        out = game_report(game, languages, lang, ctx)
        calls[-1] += (out, r.last_game_template)
        return out

    def rec_report(lang, ctx, body_text, body_html, game_template=None):
        calls.append(("report", copy.deepcopy((lang, ctx, body_text, body_html, game_template))))
        out = report(lang, ctx, body_text, body_html, game_template=game_template)
        calls[-1] += (out,)
        return out

    r.game_report, r.report = rec_game, rec_report
    ref.tick()
    pictures.WORKERS = workers
    pictures.shutdown()
    return calls


def calls_of(a, folder: Path) -> list[tuple]:
    """The calls of ``--calls`` if that file exists, else recorded now (and kept there if asked)."""
    if a.calls and Path(a.calls).exists():
        with open(a.calls, "rb") as f:
            return pickle.load(f)
    calls = record(a.n, a.turns, folder)
    if a.calls:
        with open(a.calls, "wb") as f:
            pickle.dump(calls, f)
    return calls


def inline_cost(calls: list[tuple]) -> float:
    """CPU seconds of writing every report's styles inline, as the outbox does when it builds the mail."""
    htmls = [c[2][2] for c in calls if c[0] == "report" and c[2][2]]
    t = time.process_time()
    for html in htmls:
        inline_styles(html)
    return time.process_time() - t


def replay(renderer, calls: list[tuple]) -> tuple[float, list]:
    clear = getattr(renderer, "clear_shared", None) or renderer._parts.clear
    clear()
    outs = []
    t = time.process_time()
    for kind, args, *_ in calls:
        if kind == "game":
            game, languages, lang, ctx = args
            outs.append(renderer.game_report(game, languages, lang, ctx))
        else:
            lang, ctx, body_text, body_html, game_template = args
            outs.append(renderer.report(lang, ctx, body_text, body_html, game_template=game_template))
    return time.process_time() - t, outs


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=20)
    p.add_argument("--turns", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--base", default="main")
    p.add_argument("--profile", help="write a cProfile of one replay on this tree's renderer")
    p.add_argument("--calls", help="keep the recorded calls in this file and replay them from it next time")
    p.add_argument("--smoke", action="store_true", help="a tiny run against HEAD (a few seconds)")
    a = p.parse_args()
    if a.smoke:
        a.n, a.turns, a.rounds, a.base = 2, 1, 1, "HEAD"
    with tempfile.TemporaryDirectory() as tmp:
        calls = calls_of(a, Path(tmp) / "close")
        base = baseline_renderer(a.base, Path(tmp) / "base")
        code = Path(tmp) / "compiled"   # this tree's cache of compiled templates, empty at first
        mine = Renderer(code_cache=code)
        cold = {}
        for name, r in (("base", base), ("mine", mine)):   # templates compiled before anything is timed
            cold[name] = replay(r, calls)[0]
        warm_s = {}
        for name, folder in (("compiling", "off"), ("filling", code), ("loading", code)):
            t = time.process_time()
            Renderer(code_cache=folder).warm()
            warm_s[name] = time.process_time() - t
        best = {"base": float("inf"), "mine": float("inf")}
        paired = []   # base / this tree of each round: the two replays ran next to each other
        last: dict[str, list] = {}
        for _ in range(a.rounds):
            took = {}
            for name, r in (("base", base), ("mine", mine)):
                s, outs = replay(r, calls)
                best[name] = min(best[name], s)
                took[name], last[name] = s, outs
                for (kind, args, recorded, *_), out in zip(calls, outs):
                    if out != recorded:
                        raise SystemExit(f"{name}: a {kind} render differs from the close's ({args[0]})")
            paired.append(took["base"] / took["mine"])
        mailed = [(inline_styles(x[2]), inline_styles(y[2])) for (kind, *_), x, y in zip(calls, last["base"], last["mine"])
                  if kind == "report" and x[2]]
        if not mailed or any(x != y for x, y in mailed):
            raise SystemExit("the mailed HTML (styles inline) differs between the baseline and this tree")
        if a.profile:
            import cProfile
            prof = cProfile.Profile()
            prof.enable()
            replay(mine, calls)
            prof.disable()
            prof.dump_stats(a.profile)
        inline_s = min(inline_cost(calls) for _ in range(a.rounds))
    reports = sum(1 for c in calls if c[0] == "report")
    ms = {k: 1000 * v / reports for k, v in best.items()}
    print(f"render_reports: {len({c[1][1]['match']['id'] for c in calls if c[0] == 'report'})} matches, "
          f"{reports} reports; baseline {a.base} {best['base']:.3f} s CPU ({ms['base']:.3f} ms/report), "
          f"this tree {best['mine']:.3f} s CPU ({ms['mine']:.3f} ms/report); ratio {best['base'] / best['mine']:.2f}x "
          f"(best of {a.rounds}, outputs identical); median of the rounds' ratios {statistics.median(paired):.2f}x")
    print(f"  first replay on a fresh renderer (compiling on the way): baseline {cold['base']:.2f} s, "
          f"this tree {cold['mine']:.2f} s; this tree's warm() {warm_s['compiling']:.2f} s compiling, "
          f"{warm_s['loading']:.2f} s loading them compiled (another process's)")
    print(f"  styles written inline (css-inline, when the mail is built): {1000 * inline_s / reports:.3f} ms/report")
    print(f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
