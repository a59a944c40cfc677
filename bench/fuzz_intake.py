"""Fuzzing the intake at scale (issue 13): hostile mails through the whole path.

Not a test: prints figures.  Runs ``--inputs`` generated mails (the
generator of tests/kits/fuzzmail.py, one seed per input, so any input can
be made again with ``--show SEED``) through the whole path a real mail takes
(tests/kits/fuzzpath.py: raw bytes -> parse_inbound -> Referee.handle on
SQLite with the real games -> the outbox's wire bytes), spread over
``--workers`` processes, each with its own store.  Prints the inputs, the
internal errors (exceptions, mails refused as internal.error, fault records)
with the seeds that make them, the slowest input, and peak memory: the most
one input raised the resident set by, and the largest resident set of a worker.
The issue's limits: no internal error, no input over 1 s (of CPU: the wall
time, also printed, counts whatever else the machine runs) or 200 MB.

Left out: IMAP and SMTP (the mails are bytes in hand, the replies wire bytes), closing
turns.  ``--smoke``: 40 inputs on one worker, for CI.

    python bench/fuzz_intake.py [--inputs 100000] [--workers 2] [--show SEED] [--smoke]
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "kits")]

LIMIT_S, LIMIT_BYTES = 1.0, 200_000_000


def work(task: tuple[int, int, int]) -> dict:
    first, step, count = task
    import logging

    from fuzzmail import RandomDraw, build
    from fuzzpath import FuzzPath

    logging.getLogger("referee").setLevel(logging.CRITICAL)   # the figures, not 100,000 log lines
    logging.getLogger("referee").propagate = False
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as tmp:
        path = FuzzPath(Path(tmp))
        logging.getLogger("referee").setLevel(logging.ERROR)  # the errors handler of FuzzPath still sees tracebacks
        out = {"inputs": 0, "errors": [], "slowest": (0.0, None), "cpu": (0.0, None), "memory": (0, None), "peak": 0,
               "over": [], "outcomes": {}, "bytes": 0}
        start = time.perf_counter()
        for seed in range(first, first + step * count, step):
            raw = build(RandomDraw(seed), path.seeds)
            result = path.run(raw)
            out["inputs"] += 1
            out["bytes"] += len(raw)
            out["outcomes"][result.outcome] = out["outcomes"].get(result.outcome, 0) + 1
            if result.error:
                out["errors"].append((seed, result.error))
            if result.seconds > out["slowest"][0]:
                out["slowest"] = (result.seconds, seed)
            if result.cpu > out["cpu"][0]:
                out["cpu"] = (result.cpu, seed)
            if result.memory > out["memory"][0]:
                out["memory"] = (result.memory, seed)
            if result.cpu > LIMIT_S or result.memory > LIMIT_BYTES:
                out["over"].append((seed, result.cpu, result.memory))
            out["peak"] = max(out["peak"], result.peak)
        out["seconds"] = time.perf_counter() - start
        path.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--show", type=int, help="print the mail of one seed and exit")
    parser.add_argument("--smoke", action="store_true", help="a tiny run for CI: 40 inputs, one worker")
    args = parser.parse_args()
    if args.smoke:
        args.inputs, args.workers = 40, 1
    if args.show is not None:
        from fuzzmail import RandomDraw, build
        from fuzzpath import FuzzPath
        with tempfile.TemporaryDirectory() as tmp:
            sys.stdout.buffer.write(build(RandomDraw(args.show), FuzzPath(Path(tmp)).seeds))
        return 0
    per = -(-args.inputs // args.workers)
    tasks = [(w, args.workers, min(per, len(range(w, args.inputs, args.workers)))) for w in range(args.workers)]
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        parts = pool.map(work, tasks)
    wall = time.perf_counter() - start
    inputs = sum(p["inputs"] for p in parts)
    errors = [e for p in parts for e in p["errors"]]
    slowest = max(p["slowest"] for p in parts)
    cpu = max(p["cpu"] for p in parts)
    memory = max(p["memory"] for p in parts)
    outcomes: dict[str, int] = {}
    for p in parts:
        for k, v in p["outcomes"].items():
            outcomes[k] = outcomes.get(k, 0) + v
    print(f"inputs:          {inputs} ({sum(p['bytes'] for p in parts) / 1e6:.0f} MB of mail) in {wall:.0f} s "
          f"on {args.workers} workers ({inputs / wall:.0f} inputs a second, setting up included)")
    print(f"outcomes:        {dict(sorted(outcomes.items()))}")
    print(f"internal errors: {len(errors)}")
    kinds: dict[str, list[int]] = {}
    for seed, error in errors:
        kinds.setdefault(error.strip().splitlines()[-1][:200], []).append(seed)
    for kind, seeds in kinds.items():
        print(f"  {len(seeds)}x {kind}  (seeds {seeds[:5]})")
    print(f"slowest input:   {cpu[0] * 1000:.0f} ms of CPU (seed {cpu[1]}); "
          f"{slowest[0] * 1000:.0f} ms wall time (seed {slowest[1]}, with the machine shared)")
    print(f"peak memory:     one input raised the resident set by at most {memory[0] / 1e6:.1f} MB (seed {memory[1]}); "
          f"largest worker resident set {max(p['peak'] for p in parts) / 1e6:.0f} MB")
    over = [o for p in parts for o in p["over"]]
    print(f"over 1 s of CPU or 200 MB: {len(over)} {over[:5]}")
    return 1 if errors or over else 0


if __name__ == "__main__":
    sys.exit(main())
