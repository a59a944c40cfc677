"""Mail answered while a league closes: a confirmation's latency during a large close.

Not a test: prints figures.  With a real Dovecot (IMAP in, LMTP delivery) and
the tests' SMTP front in a process of its own (tests/kits/mailservers.py,
bench/mail_smtp_process.py):

* build N matches of the league mix of ``close_many.py`` (a few turns in,
  every order in, every deadline passed), and one more match, far from its
  deadline, whose player ``alice`` writes during the close;
* run the service loop as ``referee run`` does (``Service.run``: read mail,
  close in slices, send) in this process, reading the referee's INBOX over
  IMAP with IDLE;
* a probe process APPENDs an order mail from alice to that INBOX every
  ``--every`` seconds and times it until the confirmation (its In-Reply-To
  naming the order) is in alice's mailbox: delivered -> answered, end to end;
* until every due match is closed, and all of its reports are sent (the
  reports go into a Maildir: the test SMTP front, which delivers each message
  over LMTP synchronously, would be measured instead of the referee); alice's
  answers go through SMTP and Dovecot.

Reported: the close's wall time, the confirmations' latency (median, p90, p99, max)
during the close, and before it (the service running and warm, nothing due: the baseline).
Target: p99 <= 2 s during a 1,000-match close.

The league is built once; each variant (``--workers``: 0 = the closing thread
closes itself, as before; P = the thread decides, P close worker processes
close) runs the service on a copy of it, in the same run.

    python bench/close_latency.py [--n 1000] [--turns 2] [--every 0.5] [--workers 0 2] [--in-loop]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent.parent / "tests" / "kits"))   # mailservers, pg (the tests' kits)
sys.path.insert(0, str(HERE.parent))

KEY = re.compile(rb"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# -- the probe: a player writing during the close (a process of its own) ------------------------
def probe(args: dict) -> None:
    """APPEND alice's order mails one after another; print each one's latency (JSON lines)."""
    from imapclient import IMAPClient

    orders, n = args["orders"], 0   # the same valid orders each time: the referee keeps the last
    with IMAPClient(args["host"], port=args["port"], ssl=False, timeout=30) as referee_box, \
            IMAPClient(args["host"], port=args["port"], ssl=False, timeout=30) as alice_box:
        referee_box.login("referee", args["referee_pw"])
        alice_box.login("alice", args["alice_pw"])
        alice_box.select_folder("INBOX", readonly=True)
        stop = Path(args["stop"])
        while not stop.exists() and n < args["most"]:
            mid = f"<probe-{n}-{time.time_ns()}@players.test>"
            raw = order_mail(args["alice"], args["referee"], args["match"], args["key"], orders, mid)
            t = time.perf_counter()
            referee_box.append("INBOX", raw)
            while True:
                alice_box.noop()
                if alice_box.search(["HEADER", "In-Reply-To", mid]):
                    break
                if time.perf_counter() - t > 120:
                    print(json.dumps({"n": n, "timeout": True}), flush=True)
                    break
                time.sleep(0.02)
            print(json.dumps({"n": n, "latency": time.perf_counter() - t, "at": time.time()}), flush=True)
            n += 1
            time.sleep(args["every"])


def order_mail(sender: str, to: str, match: str, key: str, orders: dict, mid: str) -> bytes:
    from email import policy
    from email.message import EmailMessage

    import yaml
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, to, "Befehle", mid
    doc = yaml.safe_dump({"match": match, "player": "alice", "key": key, "turn": 1, "orders": orders},
                         allow_unicode=True, sort_keys=False)
    msg.set_content(f"Hallo,\n\n{doc}\n")
    return msg.as_bytes(policy=policy.SMTP)


# -- the service side ---------------------------------------------------------------------------
class Routing:
    """Reports to the league (league.test) into a Maildir, everything else through SMTP."""

    def __init__(self, maildir, smtp) -> None:
        self.maildir, self.smtp, self.smtp_sent = maildir, smtp, 0

    def send_bytes(self, data: bytes, sender: str, rcpts: list[str]) -> None:
        if all(r.endswith("@league.test") for r in rcpts):
            self.maildir.send_bytes(data, sender, rcpts)
        else:
            self.smtp.send_bytes(data, sender, rcpts)
            self.smtp_sent += 1

    def send(self, msg) -> None:
        from referee.mail.sink import envelope, message_bytes
        self.send_bytes(message_bytes(msg), *envelope(msg))


def run(n: int, turns: int, every: float, quiet_rounds: int, variants: list[int | None]) -> list[dict]:
    """Build the league once, then for each variant (None: closing in the mail loop; 0: a thread
    apart closing itself; P: a thread apart deciding, P close worker processes closing) a copy of it
    closed by the service while alice writes."""
    from close_many import build
    from mail_smtp_process import separate_smtp_front
    from mailservers import running_mailservers

    from referee.authority.base import Settings

    with running_mailservers(users=("referee", "gm", "alice", "bob"), tls=False, mail_location="mdbox:~/mdbox") as s, \
            tempfile.TemporaryDirectory() as tmp, separate_smtp_front(s) as front:
        built = Path(tmp) / "built"
        settings = Settings(address=s.address("referee"), rate_limit_per_hour=100_000)
        from referee.pictures import board as pictures
        t = time.perf_counter()
        workers, pictures.WORKERS = pictures.WORKERS, 0   # the build's pictures are never sent: none rendered
        try:                                              # (a picture pool left rendering them would load the close)
            ref, clock = build(built, n, turns, settings)
        finally:
            pictures.WORKERS = workers
        build_s = time.perf_counter() - t
        ref.create_match({"id": "probe", "game": "perricumer_ratsspiel", "lang": "de", "gm": s.address("gm"),
                          "early_close": False, "schedule": {"period": "30d"},
                          "players": [{"id": p, "name": p, "email": s.address(p)} for p in ("alice", "bob")]})
        ref.store.checkpoint()
        ref.store.close()
        results = []
        for k, workers in enumerate(variants):
            root = Path(tmp) / f"variant{k}"
            shutil.copytree(built, root)
            r = one_variant(s, front, root, clock.now, settings, n, every, quiet_rounds, workers)
            results.append(dict(r, build_s=build_s, workers=workers))
            shutil.rmtree(root)
        return results


def one_variant(s, front, root: Path, now, settings, n: int, every: float, quiet_rounds: int,
                workers: int | None) -> dict:
    from close_many import Clock

    from referee.app.referee import Referee
    from referee.app.service import Service
    from referee.game_api.contract import Rng
    from referee.mail.imap_source import ImapSource
    from referee.mail.sink import MaildirSink, SmtpSink
    from referee.store import open_store

    clock = Clock()
    clock.now = now
    ref = Referee(open_store(root / "referee.sqlite"), root / "turns", clock=clock, settings=settings)
    key = next(KEY.search(e["message"]).group(1).decode() for e in ref.store.outbox("probe")
               if e["dedupe"].startswith("welcome:") and e["recipient"].startswith("alice"))
    rules = ref.rules(ref.store.match("probe"))
    orders = rules.random_orders(rules.load(ref.store.current_turn("probe")["state"]), "alice", Rng(3))
    opened = {m["id"]: ref.store.current_turn(m["id"])["number"] for m in ref.store.matches("running")
              if m["id"] != "probe"}
    due = len(opened)
    watch = open_store(root / "referee.sqlite")   # this thread's own connection: never the service's

    def closed_now() -> int:   # read from the store: the closing is another Referee's (a thread or processes apart)
        return sum(1 for mid, number in opened.items()
                   if (watch.current_turn(mid) or {"number": number})["number"] > number
                   or watch.match(mid)["status"] == "ended")
    sink = Routing(MaildirSink(root / "out"), SmtpSink(s.host, front.port))
    source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"))
    service = Service(ref, source, sink, address=s.address("referee"), poll_interval=1,
                      close_apart=workers is not None, close_workers=workers)
    probe_args = {"host": s.host, "port": s.dovecot.imap_port, "referee_pw": s.password("referee"),
                  "alice_pw": s.password("alice"), "alice": s.address("alice"), "referee": s.address("referee"),
                  "match": "probe", "key": key, "orders": orders, "every": every, "stop": str(root / "stop")}

    def probing(most: int) -> list[dict]:
        proc = subprocess.Popen([sys.executable, str(HERE), "--probe", json.dumps(dict(probe_args, most=most))],
                                stdout=subprocess.PIPE, text=True)
        rows = [json.loads(line) for line in proc.stdout]
        proc.wait()
        return rows

    def unsent() -> int:
        return watch._one("SELECT count(*) AS c FROM outbox WHERE status IN ('queued', 'sending')")["c"]

    # 1. the service running and warm, nothing due yet (the clock before the deadlines): the baseline
    clock.now -= timedelta(hours=49)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,), daemon=True)
    runner.start()
    before = [r["latency"] for r in probing(quiet_rounds) if "latency" in r]
    if service._pool is not None:
        service._pool.warm()   # the close workers' start-up is not the close's (the service starts them once)
    # 2. every deadline passes: the league closes while alice writes
    clock.now += timedelta(hours=49)
    load = os.getloadavg()
    started = time.perf_counter()
    closed_at = None
    rows: list[dict] = []
    prober = threading.Thread(target=lambda: rows.extend(probing(100_000)), daemon=True)
    prober.start()
    while True:
        time.sleep(0.5)
        closed = closed_now()
        if closed >= due and closed_at is None:
            closed_at = time.perf_counter() - started
        if closed >= due and not unsent():   # every due match closed, every report sent
            break
        if time.perf_counter() - started > 3600:
            break
    close_s = time.perf_counter() - started
    (root / "stop").write_text("")
    prober.join()
    during = [r["latency"] for r in rows if "latency" in r]
    # the close itself: the mails sent before every due match was closed
    closing = [r["latency"] for r in rows if "latency" in r and r["at"] - r["latency"] <= started_wall(started)
               + (closed_at or close_s)]
    timeouts = sum(1 for r in rows if r.get("timeout"))
    stop.set()
    runner.join(timeout=120)
    sink.smtp.close()
    watch.close()
    return {"n": n, "due": due, "closed": closed, "close_s": close_s, "closed_s": closed_at, "during": during,
            "closing": closing, "timeouts": timeouts, "after": before, "answers_by_smtp": sink.smtp_sent,
            "load": load, "load_end": os.getloadavg()}


def started_wall(started_perf: float) -> float:
    """The wall-clock time (time.time) of a perf_counter reading."""
    return time.time() - (time.perf_counter() - started_perf)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--turns", type=int, default=2)
    p.add_argument("--every", type=float, default=0.5, help="seconds between the probe's mails")
    p.add_argument("--quiet", type=int, default=10, help="probe mails before the close (the baseline)")
    p.add_argument("--workers", type=int, nargs="+", default=[0, 2],
                   help="variants, on copies of one league: 0 = a thread apart closing itself (before), "
                        "P = P close worker processes (after)")
    p.add_argument("--in-loop", action="store_true", help="also a variant closing in the mail loop's slices")
    p.add_argument("--probe", help=argparse.SUPPRESS)
    p.add_argument("--smoke", action="store_true", help="a tiny run that fails if the bench is broken")
    a = p.parse_args()
    if a.smoke:
        a.n, a.turns, a.quiet, a.workers, a.every = 3, 1, 1, [1], 0.2
    if a.probe:
        probe(json.loads(a.probe))
        return
    variants: list[int | None] = ([None] if a.in_loop else []) + list(a.workers)
    for r in run(a.n, a.turns, a.every, a.quiet, variants):
        w = r["workers"]
        how = "in the mail loop" if w is None else "in a thread apart" if w == 0 else f"in {w} close worker processes"
        print(f"N={r['n']}, closing {how}: {r['closed']} of {r['due']} due matches closed in {r['closed_s'] or 0:.1f} s, "
              f"their reports sent by {r['close_s']:.1f} s, while alice wrote every {a.every} s (build {r['build_s']:.0f} s); "
              f"load average at the start {' '.join(f'{x:.2f}' for x in r['load'])}, at the end "
              f"{' '.join(f'{x:.2f}' for x in r['load_end'])}")
        for label, d in (("while closing", r["closing"]), ("until every report was sent", r["during"])):
            if d:
                print(f"  confirmation latency {label} ({len(d)} mails, {r['timeouts']} without answer in 120 s): "
                      f"median {statistics.median(d):.2f} s, p90 {percentile(d, 0.9):.2f} s, p99 {percentile(d, 0.99):.2f} s, "
                      f"max {max(d):.2f} s (target p99 <= 2 s)")
        print("  in the order sent: " + " ".join(f"{x:.2f}" for x in r["during"]))
        q = r["after"]
        if q:
            print(f"  before, the service warm and nothing due ({len(q)} mails): median {statistics.median(q):.2f} s, "
                  f"max {max(q):.2f} s", flush=True)


if __name__ == "__main__":
    main()
