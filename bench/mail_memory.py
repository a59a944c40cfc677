"""Peak memory of reading one mail, up to the raw-size cap (issue 17).

Not a test: prints figures.  Each shape of tests/kits/mail_shapes.py (a photo
beside a small order, an iPhone mail of text and photos, one long plain part,
Apple Mail's HTML beside a blank plain part and a picture) is built at several
sizes up to ``MAX_BYTES`` and read by ``parse_inbound``.  The figure is the
Python heap's peak (``tracemalloc``) over the mail's size; the baseline, in the
same run, is the standard library reading the same bytes
(``email.message_from_bytes``), which is how the referee read mail before.
Target: at most 4x the size plus 1 MB.

    python bench/mail_memory.py
"""
from __future__ import annotations

import email
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "kits"))
from mail_shapes import SHAPES  # noqa: E402

from referee.mail.inbound import MAX_BYTES, parse_inbound  # noqa: E402

SIZES = (250_000, 1_000_000, 2_850_000, MAX_BYTES - 1_000)


def peak(read, raw: bytes) -> tuple[int, float]:
    tracemalloc.start()
    start = time.perf_counter()
    read(raw)
    took = time.perf_counter() - start
    top = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return top, took


def main() -> None:
    print(f"{'shape':<18}{'size':>12}{'peak':>12}{'x size':>8}{'stdlib':>13}{'x size':>8}{'ratio':>7}{'ms':>7}  target")
    worst = 0.0
    for name, build in sorted(SHAPES.items()):
        for size in SIZES:
            raw = build(size)
            ours, took = peak(parse_inbound, raw)
            theirs, _ = peak(email.message_from_bytes, raw)
            ok = ours <= 4 * len(raw) + 1_000_000
            worst = max(worst, ours / len(raw))
            print(f"{name:<18}{len(raw):>12,}{ours:>12,}{ours / len(raw):>8.2f}{theirs:>13,}{theirs / len(raw):>8.2f}"
                  f"{ours / theirs:>7.2f}{took * 1000:>7.0f}  {'ok' if ok else 'OVER'}")
    print(f"worst: {worst:.2f} x the mail's size (target: 4 x + 1 MB)")


if __name__ == "__main__":
    main()
