"""Hostile mail at the size cap: time and peak memory of the whole intake path.

Not a test: prints figures.  Each pathological shape of the security audit
(issue 16, findings 4, 7 and 8; issue 32 item 17 and issue 38: one HTML tag of
many attributes) is built at the mail size cap (or beyond it, where the shape is
about size) and timed as the service takes it: ``parse_inbound`` ->
``Referee.handle`` (dedupe, the raw mail archived, document, envelope, key,
a mailed ``create``'s match file, the game's checks, stored, the reply rendered
and queued, on SQLite with a Founding Fathers match) -> ``send_pending`` of the
reply into a Maildir.  Each mail gets a Message-ID of its own, so no run is a
duplicate.  Every figure is also given as a ratio against an ordinary order mail
of the same size (greeting, YAML, a long quoted earlier mail) through the same
path in the same run.  Target: every mail under 0.5 s and 64 MB.

Left out: fetching from IMAP (bench/mail_fetch_parse.py), SMTP delivery of the
reply (a Maildir sink takes it), closing a turn.

Time: median of ``--runs``.  Memory: the rise of the process's peak resident
set (Linux ``VmHWM``, reset per shape; counts C allocations such as libxml2's
and libyaml's) and the Python heap peak (``tracemalloc``), whichever is larger.

    python bench/hostile_mail.py [--runs 3] [--only NAME] [--smoke]

``--smoke``: a tiny run for CI (three shapes, one run, no Maildir poll); exits
non-zero if the path raises or a shape goes over its target tenfold.
"""
from __future__ import annotations

import argparse
import base64
import email
import gc
import itertools
import os
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from email import policy
from pathlib import Path

import yaml

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api.contract import Rng
from referee.mail.inbound import MAX_BYTES, parse_inbound
from referee.mail.mime import MAX_TEXT_PART
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource
from referee.store import open_store

CAP = MAX_BYTES - 2_000      # a mail just under the cap: its body is read
TARGET_S, TARGET_MB = 0.5, 64

ORDER = ("match: ff-bench\nplayer: madison\nkey: 4F7Q-K2XD-9MRA\nturn: 1\n"
         "orders:\n  action: declare_vote\n  state: PA\n  side: yea\n  delegates: [ingersoll, mifflin]\n")


def head(ctype: str = "text/plain; charset=utf-8", extra: str = "", subject: str = "orders",
         sender: str = "Player <p@example.org>", to: str = "referee@example.net") -> str:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\n"
            f"Message-ID: <hostile@example.org>\r\nDate: Sun, 22 Nov 2026 18:00:00 +0000\r\n{extra}"
            f"MIME-Version: 1.0\r\nContent-Type: {ctype}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")


def fill(prefix: str, unit: str, suffix: str = "", size: int = CAP) -> str:
    """``prefix`` + ``unit`` repeated + ``suffix``, about ``size`` bytes in all."""
    return prefix + unit * max(1, (size - len(prefix) - len(suffix)) // len(unit)) + suffix


def ordinary(size: int = CAP) -> bytes:
    """A real order mail: greeting, the YAML, a signature, a long quoted earlier mail."""
    top = head() + "Hallo Spielleitung,\n\nhier meine Befehle:\n\n" + ORDER + "\nViele Grüße\n-- \nPlayer\n\n"
    return fill(top + "Am Sa. schrieb Referee:\n", "> Zug 11: Pennsylvania stimmt mit yea, Virginia mit nay.\n",
                size=size).encode()


def _laughs() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'] + [
        f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]" for i in range(1, 9)]
    return "\n".join(lines)


def _create(match_file: str) -> bytes:
    body = ("match: bomb\nplayer: \"@gm\"\nkey: BOSS-KEY2-3456\ncommand: create\nmatch_file: |\n" +
            "".join("  " + line + "\n" for line in match_file.splitlines()))
    return (head() + body).encode()


def _multipart_nested(size: int) -> bytes:
    unit = "Content-Type: multipart/mixed; boundary=b{0}\r\n\r\n--b{0}\r\n"
    parts, used, i = [], 0, 0
    while used < size - 200:
        parts.append(unit.format(i))
        used += len(parts[-1])
        i += 1
    return ("From: p@example.org\r\nMessage-ID: <nested@example.org>\r\n" + "".join(parts) +
            "Content-Type: text/plain\r\n\r\n" + ORDER).encode()


SHAPES = {
    # finding 4: quadratic parsing
    "html: '<a ' * 16000 (48 kB)": lambda: (head("text/html") + "<a " * 16000).encode(),
    "html: '<a ' at the cap": lambda: fill(head("text/html"), "<a ").encode(),
    "html: <div> nested at the cap": lambda: fill(head("text/html"), "<div>").encode(),
    "html: <blockquote>*1000 + <br>": lambda: fill(head("text/html") + "<blockquote>" * 1000, "<br>").encode(),
    "html: <b>x</b> pieces": lambda: fill(head("text/html"), "<b>x</b>").encode(),
    "html: <pre> of newlines": lambda: fill(head("text/html") + "<pre>", "\n").encode(),
    "html: '<' only": lambda: fill(head("text/html"), "<").encode(),
    # issue 32 item 17: one tag, 27,000 attributes (232 kB), and as many as the cap holds
    "html: one tag of 27,000 attributes": lambda: (head("text/html") + "<p " + " ".join(
        f"a{i}=1" for i in range(27_000)) + ">" + ORDER.replace("\n", "<br>") + "</p>").encode(),
    "html: one tag, attributes at the cap": lambda: fill(head("text/html") + "<p ", "a=1 ", ">x</p>").encode(),
    "html: one tag, distinct attributes at the text cap": lambda: _distinct_attributes(MAX_TEXT_PART - 1_000),
    "References: 80,000 ids (too large)": lambda: (head(extra="References: " + " ".join(
        f"<{i}.thread@example.org>" for i in range(80_000)) + "\r\n") + ORDER).encode(),
    "References: ids at the cap": lambda: (fill(head(extra="References:"), " <1234567.t@example.org>",
                                                "\r\n", CAP - 400) + "\r\n" + ORDER).encode(),
    "body: 23,000 'match:' lines": lambda: (head() + "match: x\n" * 23_000).encode(),
    "body: 'match:' / prose alternating": lambda: fill(head(), "match: x\nnot yaml here\n").encode(),
    "body: staircase of anchors + blanks": lambda: (head() + "".join(
        " " * i + "match: x\n" + "\n" * 500 for i in range(300, 0, -1))).encode(),
    "body: empty lines only": lambda: fill(head() + ORDER, "\n").encode(),
    "body: '>' quoted lines only": lambda: fill(head() + ORDER, "> >\n").encode(),
    "body: one line, no breaks": lambda: fill(head() + ORDER, "x").encode(),
    "body: tab-indented lines": lambda: fill(head() + ORDER, "\t\ta: b\n").encode(),
    "body: format=flowed soft breaks": lambda: fill(head("text/plain; charset=utf-8; format=flowed"),
                                                    "ab \r\n").encode(),
    "body: quoted-printable soft breaks": lambda: fill(head().replace("8bit", "quoted-printable"),
                                                       "a=\r\n").encode(),
    "subject: unclosed encoded words": lambda: (fill(head(subject=""), "=?a?q?x", "", CAP - 400)
                                                .replace("Subject: \r\n", "") + "\r\n" + ORDER).encode(),
    "subject: 18,000 encoded words": lambda: (head(subject="=?utf-8?q?a?= " * 18_000) + ORDER).encode(),
    "from: '(' and '\"' runs": lambda: (head(sender="(" * 60_000 + '"a' * 60_000 + " <p@example.org>") +
                                       ORDER).encode(),
    "to: 25,000 addresses": lambda: (head(to=",".join(f"a{i}@x.example" for i in range(25_000))) +
                                    ORDER).encode(),
    "header: 60,000 folded lines": lambda: (head(extra="X-Fold: a\r\n" + " b\r\n" * 60_000) + ORDER).encode(),
    "header: 30,000 fields": lambda: (head(extra="X-A: b\r\n" * 30_000) + ORDER).encode(),
    "content-type: 60,000 ';' params": lambda: (head("text/plain; charset=utf-8" + ";a" * 60_000) +
                                                ORDER).encode(),
    "mime: multipart nested at the cap": lambda: _multipart_nested(CAP),
    "mime: 6,000 parts": lambda: (fill(head("multipart/mixed; boundary=b"),
                                       "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n", "--b--\r\n")).encode(),
    "attachment: YAML, 60,000 '['": lambda: (head("multipart/mixed; boundary=b") +
                                             "--b\r\nContent-Type: text/yaml; name=o.yaml\r\n"
                                             "Content-Transfer-Encoding: base64\r\n\r\n" +
                                             base64.encodebytes(("match: x\norders: " + "[" * 47_000)
                                                                .encode()).decode() + "--b--\r\n").encode(),
    "yaml: 60 kB of list items": lambda: (head() + "match: x\norders:\n" + "  - a\n" * 10_000).encode(),
    "yaml: '- ' * 30,000 on one line": lambda: (head() + "match: x\norders: " + "- " * 30_000 + "\n").encode(),
    "yaml: flow mapping of 7,000 keys": lambda: (head() + "match: x\norders: {" +
                                                 ", ".join(f"k{i}: 1" for i in range(7_000)) + "}\n").encode(),
    "yaml: syntax error after 60 kB": lambda: (head() + "match: x\norders:\n" + "  a: b\n" * 8_500 +
                                               "  c: [\n").encode(),
    "body: x-uuencode": lambda: fill(head().replace("8bit", "x-uuencode") + "begin 644 o.txt\n",
                                     "M" + "86%A" * 15 + "\n", "`\nend\n").encode(),
    # finding 7: billion laughs in a mailed create
    "create: billion laughs match_file": lambda: _create("id: bomb\n" + _laughs()),
    # finding 8: size
    "size: 50 MB mail (its header read)": lambda: (head() + ORDER + "x" * 50_000_000).encode(),
}


def _distinct_attributes(size: int) -> bytes:
    """One <p> tag whose attributes all have names of their own (a0=1 a1=1 ...), then the order,
    ``size`` bytes of text part in all: the most of this shape an HTML part under its cap holds."""
    top, names, used = head("text/html") + "<p", [], 0
    for i in itertools.count():
        names.append(f" a{i}=1")
        used += len(names[-1])
        if used > size - 600:
            break
    return (top + "".join(names) + ">" + ORDER.replace("\n", "<br>") + "</p>").encode()


REFEREE = "referee@example.net"
SEATS = ("madison", "hamilton", "jay")
_ids = itertools.count()


class Service:
    """A referee on SQLite in a temporary folder, with a Founding Fathers match ``ff-bench``
    in which madison's key is the one ``ORDER`` carries (set from the welcome mail)."""

    def __init__(self, root: Path) -> None:
        now = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
        self.ref = Referee(open_store(root / "referee.sqlite"), root / "turns", clock=lambda: now,
                           settings=Settings(address=REFEREE, rate_limit_per_hour=0,
                                             gm_keys={"p@example.org": "BOSS-KEY2-3456"}))
        self.ref.create_match({"id": "ff-bench", "game": "founding_fathers", "gm": "gm@example.org",
                               "schedule": {"period": "48h"},
                               "players": [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in SEATS]})
        # the shapes carry an order the game takes (the ordinary mail's is then accepted and stored)
        global ORDER
        rules = self.ref.rules(self.ref.store.match("ff-bench"))
        state = rules.load(self.ref.store.current_turn("ff-bench")["state"])
        orders = yaml.safe_dump({"orders": rules.random_orders(state, "madison", Rng(7))}, default_flow_style=None)
        ORDER = "match: ff-bench\nplayer: madison\nkey: 4F7Q-K2XD-9MRA\nturn: 1\n" + orders
        self.sink = MaildirSink(root / "out")
        self.ref.send_pending(self.sink)
        self.key = b"4F7Q-K2XD-9MRA"
        for f in (root / "out" / "new").iterdir():
            msg = email.message_from_bytes(f.read_bytes(), policy=policy.default)
            hit = re.search(r"Your key: (\S+)", msg.get_body(("plain",)).get_content())
            if hit and msg["To"].startswith("madison"):
                self.key = hit.group(1).encode()

    def fresh(self, raw: bytes) -> bytes:
        """``raw`` with madison's real key and a Message-ID no run had (no run is a duplicate)."""
        return raw.replace(b"4F7Q-K2XD-9MRA", self.key).replace(b"Message-ID: <", b"Message-ID: <r%07d." % next(_ids), 1)

    def take(self, raw: bytes) -> str:
        """One mail as the service takes it: parsed, handled, its reply sent; the outcome."""
        handled = self.ref.handle(parse_inbound(raw, own_addresses=[REFEREE]))
        self.ref.send_pending(self.sink)
        return handled.reason


def _status(name: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(name + ":"):
                return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def measure(fn, runs: int, prepare=None) -> tuple[float, float]:
    """(median time in s, peak memory in MB) of ``fn(prepare())`` (``fn()`` without
    ``prepare``); what ``prepare`` makes is made before the clock and the memory count."""
    def once(timed):
        arg = prepare() if prepare else None
        gc.collect()
        return timed(lambda: fn(arg) if prepare else fn())
    once(lambda call: call())  # warm up

    def clocked(call):
        start = time.perf_counter()
        call()
        return time.perf_counter() - start
    median = statistics.median(once(clocked) for _ in range(runs))

    def resident(call):
        if not _reset_peak():
            return 0.0
        before = _status("VmRSS")
        call()
        return max(0, _status("VmHWM") - before) / 1e6

    def heap(call):
        tracemalloc.start()
        call()
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        return peak
    return median, max(once(resident), once(heap))


def maildir_poll(service: Service, count: int, size: int, runs: int) -> tuple[float, float]:
    """Reading a Maildir of ``count`` mails of ``size`` bytes as ``poll_once`` does."""
    with tempfile.TemporaryDirectory() as tmp:
        box = MaildirSource(Path(tmp) / "in")
        big = (head() + ORDER).encode() + b"x" * size
        for i in range(count):
            (Path(tmp) / "in" / "new" / f"{i}.bench").write_bytes(big)

        def poll() -> None:
            for item in box.incoming(500, max_bytes=MAX_BYTES):
                service.take(service.fresh(item.raw)) if item.size <= MAX_BYTES else parse_inbound(item.raw, size=item.size)
        return measure(poll, runs)


SMOKE = ("body: '>' quoted lines only", "html: one tag, distinct attributes at the text", "create: billion laughs")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--smoke", action="store_true", help="a tiny run for CI: three shapes, one run")
    args = ap.parse_args()
    if args.smoke:
        args.runs = 1
    with tempfile.TemporaryDirectory() as tmp:
        service = Service(Path(tmp))
        return run(service, args)


def run(service: Service, args) -> int:
    base_raw = ordinary()
    print(f"load average {os.getloadavg()[0]:.1f}; median of {args.runs} runs; "
          f"ordinary mail's outcome: {service.take(service.fresh(base_raw))}")
    base_t, base_m = measure(service.take, args.runs, lambda: service.fresh(base_raw))
    print(f"baseline: ordinary order mail of {len(base_raw):,} bytes: {base_t * 1e3:7.1f} ms, "
          f"{base_m:6.1f} MB\n")
    print(f"{'shape':52s} {'bytes':>11s} {'ms':>8s} {'x base':>7s} {'MB':>6s} {'x base':>7s}  ok  outcome")
    worst = 0.0
    rows = [(name, build) for name, build in SHAPES.items() if args.only.lower() in name.lower()
            and (not args.smoke or name.startswith(SMOKE))]
    for name, build in rows:
        raw = build()
        outcome = service.take(service.fresh(raw))
        t, m = measure(service.take, args.runs, lambda raw=raw: service.fresh(raw))
        ok = t < TARGET_S and m < TARGET_MB
        worst = max(worst, t)
        print(f"{name:52s} {len(raw):11,d} {t * 1e3:8.1f} {t / base_t:7.1f} {m:6.1f} {m / max(base_m, 0.1):7.1f}"
              f"  {'yes' if ok else 'NO '} {outcome}", flush=True)
        del raw
    if not args.smoke and (not args.only or "maildir" in args.only.lower()):
        t, m = maildir_poll(service, 12, 25_000_000, 1)
        print(f"{'maildir poll: 12 mails of 25 MB':52s} {12 * 25_000_000:11,d} {t * 1e3:8.1f} {t / base_t:7.1f} "
              f"{m:6.1f} {m / max(base_m, 0.1):7.1f}  (whole poll; per mail {t / 12 * 1e3:.1f} ms)")
    print(f"\nslowest shape: {worst * 1e3:.1f} ms (target < {TARGET_S * 1e3:.0f} ms, < {TARGET_MB} MB per mail)")
    return 1 if args.smoke and (worst > 10 * TARGET_S or len(rows) != len(SMOKE)) else 0


if __name__ == "__main__":
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
