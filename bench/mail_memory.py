"""Peak memory of reading one mail, up to the raw-size cap (issues 17 and 38).

Not a test: prints figures.  Each shape of tests/kits/mail_shapes.py (a photo
beside a small order, an iPhone mail of text and photos, one long plain part,
Apple Mail's HTML beside a blank plain part and a picture) is built at several
sizes up to ``MAX_BYTES`` and read by ``parse_inbound``.  Each reading runs in a
fresh child process, which measures two figures over the mail's size:

* heap: the Python heap's peak (``tracemalloc``), which misses C allocations;
* RSS: the rise of the process's resident-set high-water mark (Linux ``VmHWM``,
  reset just before reading through ``/proc/self/clear_refs``, after the memory
  freed while building the mail went back with glibc's ``malloc_trim``), which counts what
  libxml2 (the HTML parts), libyaml and the interpreter allocate in C as well.

The baseline, in the same run and measured the same way, is the standard
library reading the same bytes (``email.message_from_bytes``), which is how the
referee read mail before.  Target: at most 4x the size plus 1 MB, by either figure.
Left out: fetching the mail (IMAP), the YAML of the orders, handling and replying
(bench/hostile_mail.py times those for the hostile shapes).

    python bench/mail_memory.py [--smoke]

``--smoke``: one size (250 kB) of each shape, for CI; exits non-zero if a reading fails.
"""
from __future__ import annotations

import ctypes
import email
import gc
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "kits"))
from mail_shapes import SHAPES  # noqa: E402

from referee.mail.inbound import MAX_BYTES, parse_inbound  # noqa: E402

SIZES = (250_000, 1_000_000, 2_850_000, MAX_BYTES - 1_000)
READERS = {"ours": parse_inbound, "stdlib": email.message_from_bytes}


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def child(shape: str, size: int, reader: str) -> None:
    """In the child: read the mail once; print the heap's peak, the RSS rise and the ms."""
    raw = SHAPES[shape](size)
    read = READERS[reader]
    read(raw[:1000])                       # imports and first-call set-up are not the mail's
    gc.collect()
    ctypes.CDLL(None).malloc_trim(0)       # memory freed while building the mail goes back to the
    with open("/proc/self/clear_refs", "w") as f:   # system: reading it counts from what it takes anew
        f.write("5")                       # VmHWM := VmRSS now
    before = _status("VmRSS")
    start = time.perf_counter()
    read(raw)
    took = time.perf_counter() - start
    rss = _status("VmHWM") - before
    tracemalloc.start()
    read(raw)
    heap = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(len(raw), heap, rss, took)


def measure(shape: str, size: int, reader: str) -> tuple[int, int, int, float]:
    """(mail bytes, heap peak, RSS rise, seconds) of one reading in a fresh process."""
    out = subprocess.run([sys.executable, __file__, "--child", shape, str(size), reader],
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"{shape} {size} {reader}: {out.stderr[-2000:]}")
    n, heap, rss, took = out.stdout.split()
    return int(n), int(heap), int(rss), float(took)


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return 0
    sizes = SIZES[:1] if "--smoke" in sys.argv[1:] else SIZES
    print(f"load average {os.getloadavg()[0]:.1f}; bytes; 'x' = over the mail's size; ours/stdlib ratio by RSS")
    print(f"{'shape':<18}{'size':>11}{'heap':>11}{'x':>6}{'RSS':>11}{'x':>6}{'stdlib RSS':>12}{'x':>6}"
          f"{'ratio':>7}{'ms':>7}  target")
    worst = 0.0
    for name in sorted(SHAPES):
        for size in sizes:
            n, heap, rss, took = measure(name, size, "ours")
            _, _, theirs, _ = measure(name, size, "stdlib")
            ours = max(heap, rss)
            worst = max(worst, ours / n)
            ok = ours <= 4 * n + 1_000_000
            print(f"{name:<18}{n:>11,}{heap:>11,}{heap / n:>6.2f}{rss:>11,}{rss / n:>6.2f}{theirs:>12,}"
                  f"{theirs / n:>6.2f}{rss / max(theirs, 1):>7.2f}{took * 1000:>7.0f}  {'ok' if ok else 'OVER'}")
    print(f"worst: {worst:.2f} x the mail's size, heap or RSS (target: 4 x + 1 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
