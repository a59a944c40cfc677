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
* ``send``: ``send_pending`` into a Maildir, the whole outbox path, as it
  was (every mail built by the library: ``before``) and as it is;
* the archive: every ``write_turn`` of the close written again into a fresh
  folder, as it is written now and as it was before (``json.dumps(indent=1)``,
  a ``mkdir`` per file), checked to give the same files.  A close now stages its
  record with its reports (``archive.staging``) and calls ``write_turn`` only when
  a staged record was not placed: with fewer calls than closes the comparison is
  skipped and says so (it would time a fallback, not the close).

Then the weight of the mails (issue 38): ``referee demo`` of every game (orders by
mail, reports through the outbox into a Maildir), run by the baseline tree
(``--baseline``, default /work/main, its own ``.venv``) and by this tree; the
size of every report mail that carries a picture, median and largest, per game.
The sizes are the same on every run (a seeded demo), so each side runs once;
the wall time of each demo is printed beside them, not compared.

    python bench/send_reports.py [--n 100] [--turns 2] [--baseline /work/main] [--weight-only] [--smoke]

``--smoke``: N=2, one turn, this tree's weight of one short game; exits non-zero if
a mail differs between the two builds, or a report mail is over 150 kB.
"""
from __future__ import annotations

import argparse
import copy
import email
import json
import mailbox
import os
import statistics
import subprocess
import sys
import tempfile
import time
from email import policy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from close_many import build  # noqa: E402
from pictures_png import ROOT, python_of  # noqa: E402

from referee.archive import record as archive
from referee.intake import checks
from referee.mail import qp
from referee.mail.sink import MaildirSink  # noqa: E402
from referee.pictures import board as pictures  # noqa: E402


def timed(fn, rows) -> tuple[float, list]:
    t = time.process_time()
    out = [fn(r) for r in rows]
    return time.process_time() - t, out


def write_turn_before(arch: archive.Archive, match_id, number, orders, turn, reports) -> None:
    """``Archive.write_turn`` as it was before this bench's change, for the comparison."""
    def write(path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    d = arch.turn_dir(match_id, number)
    write(d / "orders.yaml", archive._yaml(dict(orders)))
    write(d / "turn.json", json.dumps(turn, indent=1, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    for name, text in sorted(reports.items()):
        write(d / "reports" / checks.path_part(name), text.encode("utf-8"))


def archive_writes(root: Path, calls: list) -> None:
    """Every write_turn of the close again, before and after, best of three each."""
    best: dict[str, list[float]] = {}
    files = {}
    for i in range(3):
        for label, write in (("before", write_turn_before), ("now", archive.Archive.write_turn)):
            arch = archive.Archive(root / f"arch-{label}-{i}")
            t, c = time.perf_counter(), time.process_time()
            for args in calls:
                write(arch, *args)
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            old = best.get(label)
            best[label] = [min(old[0], wall), min(old[1], cpu)] if old else [wall, cpu]
            files[label] = {str(p.relative_to(arch.root)): p.read_bytes() for p in arch.root.rglob("*") if p.is_file()}
    k = len(calls) or 1
    print(f"archive: {k} closes, {len(files['now'])} files, identical: {files['now'] == files['before']}")
    for label in ("before", "now"):
        print(f"  write_turn {label:6}: {best[label][0] / k * 1000:6.2f} ms wall {best[label][1] / k * 1000:6.2f} ms CPU per close")
    print(f"  before/now: {best['before'][0] / best['now'][0]:.2f}x wall, {best['before'][1] / best['now'][1]:.2f}x CPU")


MAX_MAIL = 150_000   # bytes: issue 38's report mail with its picture
GAMES = ("founding_fathers", "perricumer_ratsspiel", "nations_dice", "revolution_1848")


def demo_weights(tree: Path, games, out: Path) -> tuple[dict[str, list[int]], float]:
    """({game: sizes of its report mails with a picture}, wall seconds) of ``referee demo`` by ``tree``'s code."""
    args = [a for g in games for a in ("--game", g)]
    t = time.perf_counter()
    run = subprocess.run([python_of(tree), "-c", "from referee.app.cli import main; main()", "demo", *args,
                          "--out", str(out)], cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)),
                         capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - t
    if run.returncode != 0:
        raise SystemExit(f"{tree}: referee demo failed:\n{run.stderr[-3000:]}")
    sizes: dict[str, list[int]] = {}
    for game in games:
        box = mailbox.Maildir(str(out / "demo" / game / "mail" / "out"), factory=None, create=False)
        for key in box.keys():
            raw = box.get_bytes(key)
            msg = email.message_from_bytes(raw, policy=policy.default)
            if any(part.get_content_type() == "image/png" for part in msg.walk()):
                sizes.setdefault(game, []).append(len(raw))
    return sizes, wall


def weights(baseline: Path | None, games) -> int:
    """Print the report mails' weight per side; returns how many of this tree's are over ``MAX_MAIL``."""
    trees = {"before": baseline, "after": ROOT} if baseline else {"after": ROOT}
    over = 0
    print(f"\nreport mails with their picture (referee demo), load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        for side, tree in trees.items():
            sizes, wall = demo_weights(tree, games, Path(tmp) / side)
            for game in games:
                got = sizes.get(game, [])
                if side == "after":
                    over += sum(s > MAX_MAIL for s in got) + (not got)
                if got:
                    print(f"  {side:<6} {game:<22} {len(got):4} mails  median {statistics.median(got) / 1024:6.1f} kB"
                          f"  largest {max(got) / 1024:6.1f} kB")
            print(f"  {side:<6} (the demo took {wall:.1f} s wall)")
    print(f"load average {os.getloadavg()}")
    return over


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=100)
    p.add_argument("--turns", type=int, default=2)
    p.add_argument("--baseline", type=Path, default=Path("/work/main"))
    p.add_argument("--weight-only", action="store_true")
    p.add_argument("--smoke", action="store_true")
    a = p.parse_args()
    if a.smoke:
        a.n, a.turns = 2, 1
    baseline = None if a.smoke or not (a.baseline / "referee").is_dir() else a.baseline
    same = sending(a) if not a.weight_only else True
    over = weights(baseline, ("perricumer_ratsspiel",) if a.smoke else GAMES)
    if a.smoke and (not same or over):
        sys.exit(1)


def sending(a) -> bool:
    """The sending figures; whether every mail came out the same from both builds."""
    pictures.WORKERS = 0   # every picture rendered here, once, before anything is timed
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ref, _ = build(root, a.n, a.turns)
        calls = []
        real_write_turn = archive.Archive.write_turn

        def keep(arch, *args):   # what the close writes, kept for the archive comparison
            calls.append(copy.deepcopy(args))
            return real_write_turn(arch, *args)
        archive.Archive.write_turn = keep   # type: ignore[method-assign]
        closes = len(ref.tick().closed)
        archive.Archive.write_turn = real_write_turn   # type: ignore[method-assign]
        queued = ref.store.outbox(status="queued")   # the close's (the build's were marked sent)
        rows = [r["message"] for r in queued]
        queue = ref.mail_queue
        for data in rows:
            queue.wire_message(data)   # warms the PNG cache and the frames
        print(f"N={a.n}: {len(rows)} queued mails; load average {os.getloadavg()}")
        lib_s, lib = timed(lambda d: queue.build_message(d).as_bytes(policy=policy.SMTP), rows)
        qp._kept.cache_clear()   # the line breaks kept: each timing starts as a fresh process's first close
        wire_s, wire = timed(queue.wire_message, rows)
        parts_s, _ = timed(queue._parts, rows)
        same = sum(w[0] == b for w, b in zip(wire, lib))
        sink = MaildirSink(root / "raw")
        t, c = time.perf_counter(), time.process_time()
        for raw, sender, rcpts in wire:
            sink.send_bytes(raw, sender, rcpts)
        raw_wall, raw_cpu = time.perf_counter() - t, time.process_time() - c
        # the whole outbox path as it was (every one of these mails built by the library), then as it is
        real_wire = queue.wire_message
        queue.wire_message = lambda d: (queue.build_message(d).as_bytes(policy=policy.SMTP),   # type: ignore[method-assign]
                                        *real_wire(d)[1:])
        t, c = time.perf_counter(), time.process_time()
        ref.send_pending(MaildirSink(root / "before"), limit=len(rows) + 10)
        before_wall, before_cpu = time.perf_counter() - t, time.process_time() - c
        queue.wire_message = real_wire   # type: ignore[method-assign]
        with ref.store.transaction():
            ref.store.requeue([r["id"] for r in queued])
        qp._kept.cache_clear()
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
        print(f"send_pending before:  {ms(before_wall)} wall {ms(before_cpu)} CPU;"
              f"  before/now {before_wall / send_wall:.2f}x wall, {before_cpu / send_cpu:.2f}x CPU")
        print(f"send_pending / raw write: {send_wall / raw_wall:.2f}x wall, {send_cpu / raw_cpu:.2f}x CPU;"
              f"  beyond the write: {ms(send_cpu - raw_cpu)} CPU")
        print(f"load average {os.getloadavg()}")
        if len(calls) < closes:
            print(f"archive: {closes} closes staged their records (write_turn called {len(calls)} times):"
                  " no write_turn comparison")
        else:
            archive_writes(root, calls)
        print(f"load average {os.getloadavg()}")
        return same == len(rows) and sent == len(rows)


if __name__ == "__main__":
    main()
