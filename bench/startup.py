"""Start-up: what a GM's cron job waits for on a quiet minute (issue 34).

Not a test: prints figures.  In a fresh folder: ``referee init`` (SQLite + Maildir),
the README's example match created with ``referee new``, its welcome mails sent.
Then each command is run as a GM runs it, as a new process of the installed
``referee`` script, and timed from its start to its exit (wall), with the CPU it
used beside (user + system, from the child's rusage):

* ``python -c pass``: the baseline, the interpreter alone, measured in the same run;
* ``referee --help`` and ``referee status`` (target <= 0.5 s);
* ``referee poll --once`` on an empty mailbox and ``referee tick`` with nothing due
  (the match's first deadline is two days away, the outbox empty) (target <= 1 s).

Each figure is the median of ``--repeat`` runs (default 5), with the ratio to the
baseline and the machine's load average before and after.  ``--why CMD`` prints the
ten costliest imports of one command (``python -X importtime``).

Left out: a busy minute (mail to answer, turns to close: ``bench/close_many.py``
times that), a PostgreSQL store or an IMAP server (the network's time, not ours),
and the file cache being cold (every run after the first finds the files cached).

    python bench/startup.py [--repeat 5] [--why status] [--smoke]
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"--help": 0.5, "status": 0.5, "poll --once": 1.0, "tick": 1.0}


def referee_cmd() -> list[str]:
    script = Path(sys.executable).with_name("referee")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from referee.app.cli import main; main()"]


def readme_match() -> str:
    """The README's example match file, as a newcomer copies it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(id: .*?)```", text, re.S)
    if not found:
        raise SystemExit("README.md: the example match file was not found")
    return found.group(1)


def timed(args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one child process, run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def prepare(folder: Path) -> None:
    ref = referee_cmd()
    for args in (["init"], None, ["new", "match.yaml"], ["tick"]):
        if args is None:
            (folder / "match.yaml").write_text(readme_match(), encoding="utf-8")
            continue
        subprocess.run(ref + args, cwd=folder, check=True, capture_output=True)


def why(command: str, folder: Path) -> None:
    args = [sys.executable, "-X", "importtime", "-c",
            "import sys; from referee.app.cli import main; sys.argv[0] = 'referee'; main()", *command.split()]
    err = subprocess.run(args, cwd=folder, capture_output=True, text=True).stderr
    rows = []
    for line in err.splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            _, cumulative, name = line[len("import time:"):].split("|")
            if len(name) - len(name.lstrip()) <= 3:   # imported by the command itself, not by another import
                rows.append((int(cumulative), name.strip()))
    print(f"costliest imports of `referee {command}` (cumulative ms):")
    for cumulative, name in sorted(rows, reverse=True)[:10]:
        print(f"  {cumulative / 1000:7.1f}  {name}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--why", help="print the costliest imports of one command, e.g. status")
    p.add_argument("--smoke", action="store_true", help="one run of each, no targets judged (CI)")
    a = p.parse_args()
    repeat = 1 if a.smoke else max(1, a.repeat)
    folder = Path(tempfile.mkdtemp(prefix="referee-startup-"))
    try:
        prepare(folder)
        if a.why:
            why(a.why, folder)
            return 0
        load = os.getloadavg()[0]
        runs: dict[str, list[tuple[float, float]]] = {}
        commands = {"python -c pass": [sys.executable, "-c", "pass"]}
        commands.update({name: referee_cmd() + name.split() for name in TARGETS})
        for _ in range(repeat):   # interleaved: a drift of the machine's speed reaches every command alike
            for name, args in commands.items():
                runs.setdefault(name, []).append(timed(args, folder))
        base = statistics.median(w for w, _ in runs["python -c pass"])
        print(f"start-up, median of {repeat}; load {load:.2f} -> {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(f"{'command':22} {'wall s':>7} {'cpu s':>7} {'x python':>9} {'target':>7}")
        over = []
        for name, measured in runs.items():
            wall = statistics.median(w for w, _ in measured)
            cpu = statistics.median(c for _, c in measured)
            target = TARGETS.get(name)
            mark = "" if target is None else (f"{target:.1f}" + ("" if wall <= target else " OVER"))
            if target is not None and wall > target:
                over.append(name)
            print(f"{name:22} {wall:7.3f} {cpu:7.3f} {wall / base:9.1f} {mark:>7}")
        if over and not a.smoke:
            print("over target: " + ", ".join(over))
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
