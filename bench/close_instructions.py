"""The close counted in instructions, not timed: valgrind's callgrind counts every instruction a
process runs in user space, the same count for the same code and inputs whatever else this machine
does (its speed drifts by a quarter within minutes, so seconds compare only in interleaved runs).

Not a test: prints figures.  N matches of the league mix (``close_many``'s builder) are built once;
then, for this checkout and, with ``--against``, another one (run by its own ``.venv`` where it has
one), four processes each run under callgrind (two at a time) on a copy of them:

* ``setup``: the store opened, every due turn's inputs read, the renderer warmed, the heap settled;
* ``tick``: the setup, then one ``Referee.tick`` closing every match in this process (no picture
  workers: the PNGs are the picture workers', not the close's);
* ``together``: the setup, then the games' own work of the close — load, resolve, every reader's
  views as the close asks them (``contract.views_of``) and the order forms;
* ``apart``: the same with one ``view`` call a reader (as closes asked before ``views_of``).

Each figure is its process's count less the setup's.  Printed: the tick's instructions, the games'
own work both ways, and the ratios tick / games.  The kernel's part (file creation, fsync, the
store's I/O) is not counted here: ``close_many.py`` times it (``tick_sys``).

    python bench/close_instructions.py [--n 40] [--turns 2] [--against CHECKOUT]
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = ("setup", "tick", "together", "apart")


def counted(mode: str, folder: Path, work: Path) -> None:
    """One process's part (run under callgrind, by the measured checkout's interpreter)."""
    import close_many as cm  # this checkout's bench, beside this file

    from referee.app.referee import Referee
    from referee.authority.base import Settings
    from referee.pictures import board as pictures
    from referee.runtime import gc_policy
    from referee.store import open_store
    from referee.turns import worker as close_worker

    pictures.WORKERS = 0
    root = Path(tempfile.mkdtemp(dir=work))
    shutil.copytree(folder, root, dirs_exist_ok=True)
    clock = cm.Clock()
    clock.now = datetime.fromisoformat(json.loads((root / "clock.json").read_text())["now"])
    ref = Referee(open_store(root / "referee.sqlite"), root / "turns", clock=clock,
                  settings=Settings(address="referee@league.test"))
    work_of = cm.games_inputs(ref, len(list((root / "turns").iterdir())))
    close_worker.warm_renderer(ref.renderer)
    gc_policy.settle()
    if mode == "tick":
        closed = ref.tick().closed
        assert len(closed) == len(work_of), f"closed {len(closed)} of {len(work_of)}"
    elif mode != "setup":
        cm.games_own_work(work_of, together=mode == "together")


def count(tree: Path, mode: str, folder: Path, work: Path) -> int:
    """Instructions of one process of ``mode`` on ``tree``'s code, from callgrind's summary.  The tree's
    own virtual environment runs it where it has one (its games are installed from it, by name)."""
    venv = tree / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, __file__,
           "--count", mode, "--folder", str(folder), "--work", str(work)]
    out = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or found is None:
        raise SystemExit(f"{tree} {mode}: callgrind failed\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=40)
    p.add_argument("--turns", type=int, default=2)
    p.add_argument("--against", help="another checkout of referee, counted on the same matches")
    p.add_argument("--count", choices=MODES, help=argparse.SUPPRESS)   # the counted child
    p.add_argument("--folder", help=argparse.SUPPRESS)
    p.add_argument("--work", help=argparse.SUPPRESS)
    p.add_argument("--smoke", action="store_true", help="a tiny run of every mode, not counted (no valgrind needed)")
    a = p.parse_args()
    if a.count:
        counted(a.count, Path(a.folder), Path(a.work))
        return
    if a.smoke:   # every counted mode runs, uncounted, on 2 matches: fails (non-zero) if the bench is broken
        with tempfile.TemporaryDirectory() as work:
            folder = Path(work) / "built"
            subprocess.run([sys.executable, str(ROOT / "bench" / "close_many.py"), "--build", "2", "--turns", "1",
                            "--folder", str(folder)], check=True, capture_output=True)
            for mode in MODES:
                subprocess.run([sys.executable, __file__, "--count", mode, "--folder", str(folder), "--work", work],
                               check=True)
        print("smoke: every mode ran")
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    trees = [ROOT] + ([Path(a.against).resolve()] if a.against else [])
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "built"
        subprocess.run([sys.executable, str(ROOT / "bench" / "close_many.py"), "--build", str(a.n), "--turns",
                        str(a.turns), "--folder", str(folder)], check=True, capture_output=True)
        jobs = [(tree, mode) for tree in trees for mode in MODES]
        with ThreadPoolExecutor(2) as pool:   # this machine's two cores
            got = dict(zip(jobs, pool.map(lambda j: count(j[0], j[1], folder, Path(work)), jobs)))
    for tree in trees:
        setup = got[(tree, "setup")]
        tick, together, apart = (got[(tree, m)] - setup for m in ("tick", "together", "apart"))
        print(f"{tree}: N={a.n}, instructions (user space, the setup's {setup / 1e9:.3f} G taken off each):")
        print(f"  tick {tick / 1e9:.3f} G; games' own work {together / 1e9:.3f} G (views together), "
              f"{apart / 1e9:.3f} G (one view call a reader)")
        print(f"  ratio tick / games' own work: {tick / together:.2f} (together), {tick / apart:.2f} (apart)")
    if a.against:
        mine, theirs = ((got[(t, "tick")] - got[(t, "setup")]) for t in trees)
        print(f"tick instructions, this checkout / {trees[1]}: {mine / theirs:.3f}")


if __name__ == "__main__":
    main()
