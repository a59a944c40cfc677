"""The file-system work of closes (issue 8): each close's reports staged, synced and
placed (``stage_reports``, ``place_staged``), then its record written (``write_turn``, or
staged with the reports and placed after, ``place_record``, where the checkout has it),
into a fresh folder, with this checkout's ``referee/archive/record.py`` and another's (``--base``,
e.g. a checkout of main) in interleaved rounds of the same closes.  Prints CPU (user and
system, the sync threads included) and wall per close, and each round's ratio.

    python bench/close_files.py --base /work/wt/base --closes 200 --rounds 4
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from referee.archive import staging as mine  # a close's files (it holds Archive too)


def load_base(checkout: str):
    # a base checkout (old layout) holds a close's files in referee/archive_close.py, or in archive.py before that
    # (an archive_close.py calls the durable writes of this checkout's archive.py)
    path = Path(checkout) / "referee" / "archive_close.py"
    if not path.exists():
        path = Path(checkout) / "referee" / "archive.py"
    if not path.exists():   # the package layout (issue 34): referee/archive/staging.py
        path = Path(checkout) / "referee" / "archive" / "staging.py"
    spec = importlib.util.spec_from_file_location("base_archive", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["base_archive"] = module   # dataclasses look their module up
    spec.loader.exec_module(module)   # its own imports are this checkout's (archive_yaml, checks, fastjson)
    return module


def reports(readers: int, rng: random.Random) -> dict[str, str]:
    """A close's reports: text and HTML per reader, of the sizes a Ratsspiel close writes."""
    out = {}
    for i in range(readers):
        out[f"p{i}.en.txt"] = "".join(rng.choice("abcdefgh \n") for _ in range(3000))
        out[f"p{i}.en.html"] = "<p>" + "".join(rng.choice("abcdefgh <>") for _ in range(14000))
    return out


def close_all(module, root: Path, closes: list[dict[str, str]], turn_folder_exists: bool) -> tuple[float, float, float]:
    archive = module.Archive(root)
    if turn_folder_exists:   # the service's case: the turn's received mails are in its inbox/
        for m in range(len(closes)):
            (archive.turn_dir(f"m{m}", 1) / "inbox").mkdir(parents=True)
    os.sync()
    r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    orders = {"p0": {"orders": {"bid": 3}, "source": "player"}}
    staged_record = hasattr(module, "place_record")   # the record staged with the reports, placed after the commit
    for m, texts in enumerate(closes):
        turn = {"match": f"m{m}", "turn": 1, "seed": 7, "hash": "ab" * 32, "log": []}
        if staged_record:
            staged = module.stage_reports(archive, f"m{m}", 1, texts, (orders, turn))
            module.place_staged(staged)
            module.place_record(archive, f"m{m}", 1)
        else:
            staged = module.stage_reports(archive, f"m{m}", 1, texts)
            module.place_staged(staged)
            archive.write_turn(f"m{m}", 1, orders, turn, {})
    t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    n = len(closes)
    return ((r1.ru_utime - r0.ru_utime) * 1000 / n, (r1.ru_stime - r0.ru_stime) * 1000 / n, (t1 - t0) * 1000 / n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", help="a checkout whose referee/archive/record.py is compared (required but with --smoke)")
    ap.add_argument("--closes", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--readers", type=int, default=7)
    ap.add_argument("--fresh-turn-folder", action="store_true", help="the turn's folder made by the close")
    ap.add_argument("--smoke", action="store_true", help="a tiny run against this checkout itself")
    args = ap.parse_args()
    if args.smoke:
        args.base, args.closes, args.rounds = args.base or str(Path(__file__).resolve().parent.parent), 5, 1
    elif not args.base:
        ap.error("--base is required")
    base = load_base(args.base)
    rng = random.Random(8)
    closes = [reports(args.readers, rng) for _ in range(args.closes)]
    work = Path(tempfile.mkdtemp(prefix="close-files-", dir=os.environ.get("CLOSE_FILES_DIR", "/tmp")))
    ratios = []
    try:
        for r in range(args.rounds):
            got = {}
            for label, module in (("base", base), ("this", mine)):
                root = work / f"{label}{r}"
                got[label] = close_all(module, root, closes, not args.fresh_turn_folder)
                shutil.rmtree(root)
            (bu, bs, bw), (tu, ts, tw) = got["base"], got["this"]
            ratios.append(((tu + ts) / (bu + bs), tw / bw))
            print(f"round {r}: base user {bu:.2f} sys {bs:.2f} wall {bw:.2f} | this user {tu:.2f} sys {ts:.2f} "
                  f"wall {tw:.2f} ms/close | CPU {ratios[-1][0]:.2f}x wall {ratios[-1][1]:.2f}x  load {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"median: CPU {statistics.median(r[0] for r in ratios):.2f}x, wall {statistics.median(r[1] for r in ratios):.2f}x"
          f" of base ({args.closes} closes of {2 * args.readers} reports a round)", file=sys.stdout)


if __name__ == "__main__":
    main()
