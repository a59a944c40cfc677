"""Sending a close's reports: what each report mail costs beyond writing its file.

Not a test: prints figures.  Builds N matches of ``close_many``'s league mix,
closes them in one ``tick`` (every report queued), renders every picture once
(pictures are the picture workers' cost, not this bench's), then, in the same
run, over every queued row:

* ``library``: the mail as the ``email`` library builds it (``build_message``
  then ``as_bytes``: what every mail with HTML, a picture or a calendar part
  cost before the fast path);
* ``wire``: ``wire_message``, the bytes the outbox sends (checked equal to
  ``library`` for every row);
* ``parts``: only the queued row's parts (the report body read from the
  archive, the style sheet inlined), the share of ``wire`` that is no MIME;
* ``raw write``: the finished bytes written into a Maildir (``send_bytes``),
  the baseline: what sending costs at the least;
* ``send``: ``send_pending`` into a Maildir, the whole outbox path.

    python bench/send_reports.py [--n 100] [--turns 2]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from email import policy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from close_many import build  # noqa: E402

from referee import pictures  # noqa: E402
from referee.mail.sink import MaildirSink  # noqa: E402


def timed(fn, rows) -> tuple[float, list]:
    t = time.process_time()
    out = [fn(r) for r in rows]
    return time.process_time() - t, out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=100)
    p.add_argument("--turns", type=int, default=2)
    a = p.parse_args()
    pictures.WORKERS = 0   # every picture rendered here, once, before anything is timed
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ref, _ = build(root, a.n, a.turns)
        ref.tick()
        rows = [r["message"] for r in ref.store.outbox(status="queued")]
        queue = ref.mail_queue
        for data in rows:
            queue.wire_message(data)   # warms the PNG cache and the frames
        print(f"N={a.n}: {len(rows)} queued mails; load average {os.getloadavg()}")
        lib_s, lib = timed(lambda d: queue.build_message(d).as_bytes(policy=policy.SMTP), rows)
        wire_s, wire = timed(queue.wire_message, rows)
        parts_s, _ = timed(queue._parts, rows)
        same = sum(w[0] == b for w, b in zip(wire, lib))
        sink = MaildirSink(root / "raw")
        t, c = time.perf_counter(), time.process_time()
        for raw, sender, rcpts in wire:
            sink.send_bytes(raw, sender, rcpts)
        raw_wall, raw_cpu = time.perf_counter() - t, time.process_time() - c
        t, c = time.perf_counter(), time.process_time()
        sent = ref.send_pending(MaildirSink(root / "out"), limit=len(rows) + 10).sent
        send_wall, send_cpu = time.perf_counter() - t, time.process_time() - c
        k = len(rows) or 1
        ms = lambda s: f"{s / k * 1000:7.2f} ms"   # noqa: E731
        print(f"identical bytes: {same} of {len(rows)}; sent {sent}; {sum(len(r) for r, *_ in wire) / k / 1024:.0f} kB a mail")
        print(f"build, CPU per mail:  library {ms(lib_s)}  wire {ms(wire_s)}  (of it parts {ms(parts_s)})"
              f"  library/wire {lib_s / wire_s:.1f}x")
        print(f"send, per mail:       raw write {ms(raw_wall)} wall {ms(raw_cpu)} CPU;"
              f"  send_pending {ms(send_wall)} wall {ms(send_cpu)} CPU")
        print(f"send_pending / raw write: {send_wall / raw_wall:.2f}x wall, {send_cpu / raw_cpu:.2f}x CPU;"
              f"  beyond the write: {ms(send_cpu - raw_cpu)} CPU")
        print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
