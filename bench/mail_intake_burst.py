"""Benchmark: a burst of order mails in a real Dovecot, and IDLE latency.

1. Burst: N order mails (default 2,000: 10 Ratsspiel matches x 20 players x
   10 mails) wait in the referee's INBOX.  Timed: one ``Service.poll_once()``
   — bulk FETCH, parse, find + check the YAML, validate with the game, store
   (last valid wins), queue a rendered confirmation, MOVE to Processed, and
   send every confirmation through SMTP (aiosmtpd -> LMTP -> Dovecot).
   Baseline, same mails, same run: a bare bulk FETCH + ``email`` parse +
   C YAML load.  Reported: mails/s and the ratio to the baseline, both with
   and without the SMTP delivery of the confirmations; run twice, once with
   the SMTP front in a process of its own (bench/mail_smtp_process.py, as a
   real MTA would be) and once in this process (where its CPU time and GIL
   contention count against the referee).
   ``--distinct``: the same with 2,000 distinct players (100 matches x 20),
   one mail each, so every key is checked for the first time (the cost of
   the key hash counts).
2. IDLE latency: ``referee run``'s loop in a thread, waiting in IMAP IDLE;
   an order mail is APPENDed and the time until its confirmation reaches the
   SMTP capture is measured (median of K).

Left out: closing the turn and its reports (bench/close_many.py), start-up of the
service and of Dovecot (before the clock).  ``--smoke``: 40 mails of 40 players, SMTP
in its own process, 2 IDLE rounds, for CI.

Run: python bench/mail_intake_burst.py [--mails 2000] [--idle 15] [--smtp both|process|thread] [--distinct]
     [--profile FILE] [--smoke]  (cProfile of the timed poll into FILE.process / FILE.thread)
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import email
import os
import re
import smtplib
import statistics
import sys
import tempfile
import threading
import time
from email import policy
from email.message import EmailMessage
from pathlib import Path

import yaml
from imapclient import IMAPClient

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "kits")]
from mail_smtp_process import separate_smtp_front  # noqa: E402  (bench/ is on sys.path as the script's folder)
from mailservers import running_mailservers  # noqa: E402

from referee.app.referee import Referee  # noqa: E402
from referee.app.service import Service  # noqa: E402
from referee.authority.base import Settings  # noqa: E402
from referee.game_api.contract import Rng  # noqa: E402
from referee.mail.imap_source import ImapSource  # noqa: E402
from referee.mail.sink import SmtpSink, envelope, message_bytes  # noqa: E402
from referee.store.sqlite import SqliteStore  # noqa: E402

KEY = re.compile(rb"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")
MATCHES, PLAYERS = 10, 20
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class TimedSink:
    """The real SMTP sink, with the time spent in it counted and what went out
    kept (bytes and envelope), to time the server alone with it afterwards."""

    def __init__(self, sink) -> None:
        self.sink, self.seconds, self.cpu, self.count, self.sent = sink, 0.0, 0.0, 0, []

    def send(self, msg) -> None:
        t, c = time.perf_counter(), time.process_time()
        try:
            self.sink.send(msg)
        finally:
            self.seconds += time.perf_counter() - t
            self.cpu += time.process_time() - c
            self.count += 1
        self.sent.append((message_bytes(msg), *envelope(msg)))

    def send_bytes(self, data: bytes, sender: str, rcpts: list[str]) -> None:
        t, c = time.perf_counter(), time.process_time()
        try:
            self.sink.send_bytes(data, sender, rcpts)
        finally:
            self.seconds += time.perf_counter() - t
            self.cpu += time.process_time() - c
            self.count += 1
        self.sent.append((data, sender, rcpts))


def server_alone(host: str, port: int, sent: list) -> float:
    """Seconds the SMTP server needs for the same messages sent bare, one after
    another on one connection: the floor under the "with SMTP" figure."""
    with smtplib.SMTP(host, port, timeout=30) as smtp:
        t = time.perf_counter()
        for data, sender, rcpts in sent:
            smtp.sendmail(sender, rcpts, data)
        return time.perf_counter() - t


def order_mail(sender: str, to: str, match: str, player: str, key: str, turn: int, orders: dict, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, f"Befehle {n}"
    msg["Message-ID"] = f"<burst-{match}-{player}-{n}@players.test>"
    doc = yaml.safe_dump({"match": match, "player": player, "key": key, "turn": turn, "orders": orders},
                         allow_unicode=True, sort_keys=False)
    msg.set_content(f"Hallo,\n\nmeine Befehle:\n\n{doc}\n-- \nGruß\n")
    return msg.as_bytes(policy=policy.SMTP)


def setup(servers, folder: Path, per_player: int, matches: int = MATCHES):
    referee_addr = servers.address("referee")
    ref = Referee(SqliteStore(folder / "referee.sqlite"), folder / "turns",
                  settings=Settings(address=referee_addr, rate_limit_per_hour=1_000_000))
    mails, rng = [], Rng(2026)
    for m in range(matches):
        match = f"burst{m:02d}"
        seats = [f"p{m:02d}x{i:02d}" for i in range(PLAYERS)]
        ref.create_match({"id": match, "game": "perricumer_ratsspiel", "lang": "de", "gm": servers.address("gm"),
                          "early_close": False, "schedule": {"period": "7d"},
                          "players": [{"id": s, "name": s, "email": servers.address(s)} for s in seats]})
        keys = {}
        for entry in ref.store.outbox(match):
            found = KEY.search(entry["message"])
            if found and entry["dedupe"].startswith("welcome:"):
                keys[entry["recipient"].split("@")[0]] = found.group(1).decode()
        rules = ref.rules(ref.store.match(match))
        state = rules.load(ref.store.current_turn(match)["state"])
        for s in seats:
            for n in range(per_player):
                orders = rules.random_orders(state, s, rng)
                mails.append(order_mail(servers.address(s), referee_addr, match, s, keys[s], 1, orders, n))
    return ref, mails


def append_all(servers, raws: list[bytes]) -> None:
    with servers.dovecot.imap("referee") as c:
        for i in range(0, len(raws), 500):
            c.multiappend("INBOX", raws[i:i + 500])


def baseline(servers) -> tuple[float, int, float]:
    """(wall seconds, mails, CPU seconds of this process)."""
    t, cpu = time.perf_counter(), time.process_time()
    n = 0
    with IMAPClient(servers.host, port=servers.dovecot.imap_port, ssl=False, timeout=30) as c:
        c.login("referee", servers.password("referee"))
        c.select_folder("INBOX", readonly=True)
        uids = sorted(c.search(["ALL"]))
        for i in range(0, len(uids), 500):
            for data in c.fetch(uids[i:i + 500], ["BODY.PEEK[]"]).values():
                msg = email.message_from_bytes(data[b"BODY[]"], policy=policy.default)
                text = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
                yaml.load(text.split("-- \n")[0].split("Befehle:\n", 1)[-1], Loader=LOADER)
                n += 1
    return time.perf_counter() - t, n, time.process_time() - cpu


def burst(total: int, separate_smtp: bool, distinct: bool = False, profile: str | None = None) -> dict:
    """One timed poll.  ``separate_smtp``: the SMTP front the confirmations go to
    runs in a child process (as a real MTA would); else in this process.
    ``distinct``: as many players as mails, one mail each."""
    matches = max(1, total // PLAYERS) if distinct else MATCHES
    per_player = 1 if distinct else max(1, total // (matches * PLAYERS))
    users = ("referee", "gm") + tuple(f"p{m:02d}x{i:02d}" for m in range(matches) for i in range(PLAYERS))
    with running_mailservers(users=users, tls=False, mail_location="mdbox:~/mdbox") as s, \
            tempfile.TemporaryDirectory() as tmp, \
            (separate_smtp_front(s) if separate_smtp else contextlib.nullcontext()) as child:
        ref, mails = setup(s, Path(tmp), per_player, matches)
        welcome_sink = SmtpSink(s.host, s.smtp.port)
        while ref.send_pending(welcome_sink).sent:  # every welcome goes out before the clock starts
            pass   # (it sends 500 at a time: 100 matches' 2,100 welcomes were once left to the timed poll)
        append_all(s, mails)
        base_s, base_n, base_cpu = baseline(s)
        source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), chunk=500)
        sink = TimedSink(SmtpSink(s.host, child.port if child else s.smtp.port))
        service = Service(ref, source, sink, address=s.address("referee"))
        prof = cProfile.Profile() if profile else None
        t, c = time.perf_counter(), time.process_time()
        with prof if prof is not None else contextlib.nullcontext():
            report = service.poll_once(limit=len(mails))
        full_s, full_cpu = time.perf_counter() - t, time.process_time() - c
        if prof is not None:
            prof.dump_stats(profile)
        source.close()
        sink.sink.close()
        alone_s = server_alone(s.host, child.port if child else s.smtp.port, sink.sent)
        accepted = sum(1 for m in range(matches) for _ in ref.store.submissions(f"burst{m:02d}", 1))
    result = {"mails": len(mails), "outcomes": report.outcomes, "confirmations_sent": sink.count,
              "players_with_orders": accepted, "baseline_s": base_s, "baseline_n": base_n,
              "full_s": full_s, "smtp_s": sink.seconds,
              "baseline_cpu": base_cpu, "full_cpu": full_cpu, "smtp_cpu": sink.cpu, "server_alone_s": alone_s}
    if child is not None and child.captured != 2 * sink.count:
        raise RuntimeError(f"the SMTP process took {child.captured} messages, the referee sent {sink.count} "
                           f"(and the same again, bare)")
    return result


def idle_latency(rounds: int) -> list[float]:
    with running_mailservers(users=("referee", "gm", "alice", "bob"), tls=False) as s, \
            tempfile.TemporaryDirectory() as tmp:
        referee_addr = s.address("referee")
        ref = Referee(SqliteStore(Path(tmp) / "r.sqlite"), Path(tmp) / "turns",
                      settings=Settings(address=referee_addr, rate_limit_per_hour=1_000_000))
        ref.create_match({"id": "idle", "game": "perricumer_ratsspiel", "lang": "de", "gm": s.address("gm"),
                          "early_close": False, "schedule": {"period": "7d"},
                          "players": [{"id": p, "name": p, "email": s.address(p)} for p in ("alice", "bob")]})
        key = next(KEY.search(e["message"]).group(1).decode() for e in ref.store.outbox("idle")
                   if e["dedupe"].startswith("welcome:") and e["recipient"].startswith("alice"))
        rules = ref.rules(ref.store.match("idle"))
        state = rules.load(ref.store.current_turn("idle")["state"])
        source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"))
        service = Service(ref, source, SmtpSink(s.host, s.smtp.port), address=referee_addr, poll_interval=30)
        service.tick()
        stop = threading.Event()
        runner = threading.Thread(target=service.run, args=(stop,), daemon=True)
        runner.start()
        time.sleep(1.0)  # let it settle into IDLE
        rng, latencies = Rng(5), []
        for n in range(rounds):
            raw = order_mail(s.address("alice"), referee_addr, "idle", "alice", key, 1,
                             rules.random_orders(state, "alice", rng), n)
            want = f"<burst-idle-alice-{n}@players.test>"
            t = time.perf_counter()
            s.append("referee", raw)
            while not any(want.encode() in c.raw for c in s.captured):
                if time.perf_counter() - t > 30:
                    raise TimeoutError("no confirmation within 30 s")
                time.sleep(0.005)
            latencies.append(time.perf_counter() - t)
            time.sleep(0.3)
        stop.set()
        runner.join(timeout=15)
        return latencies


def report_burst(r: dict, where: str) -> None:
    without = r["full_s"] - r["smtp_s"]
    front = "its own process" if where == "process" else "this process (shares CPU and GIL)"
    print(f"burst, SMTP front in {front} (load average now {os.getloadavg()[0]:.1f}): {r['mails']} order mails, outcomes {r['outcomes']}, "
          f"{r['confirmations_sent']} confirmations sent, {r['players_with_orders']} players with orders stored")
    print(f"  baseline (bulk FETCH + email parse + C YAML load): {r['baseline_s']:.2f} s "
          f"= {r['baseline_n'] / r['baseline_s']:.0f} mails/s")
    print(f"  referee, all of it incl. SMTP delivery of confirmations: {r['full_s']:.2f} s "
          f"= {r['mails'] / r['full_s']:.0f} mails/s, ratio {r['full_s'] / r['baseline_s']:.1f}x")
    print(f"    the SMTP server alone, same {r['confirmations_sent']} messages sent bare on one connection: "
          f"{r['server_alone_s']:.2f} s")
    print(f"  referee without the SMTP delivery ({r['smtp_s']:.2f} s in the SMTP sink): {without:.2f} s "
          f"= {r['mails'] / without:.0f} mails/s, ratio {without / r['baseline_s']:.2f}x (target <= 3x)")
    cpu = r["full_cpu"] - r["smtp_cpu"]
    print(f"  CPU of this process (less noisy on a loaded machine): baseline {r['baseline_cpu']:.2f} s, referee "
          f"without the SMTP client {cpu:.2f} s, ratio {cpu / r['baseline_cpu']:.2f}x")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mails", type=int, default=2000)
    p.add_argument("--idle", type=int, default=15)
    p.add_argument("--distinct", action="store_true", help="one mail from each of as many distinct players")
    p.add_argument("--profile", metavar="FILE", help="profile the timed poll (cProfile stats into FILE)")
    p.add_argument("--smtp", choices=("both", "process", "thread"), default="both",
                   help="where the SMTP front runs: its own process, a thread of this one, or both in turn")
    p.add_argument("--smoke", action="store_true", help="a tiny run for CI: 40 distinct players' mails, SMTP in "
                                                       "its own process, 2 IDLE rounds")
    a = p.parse_args()
    if a.smoke:
        a.mails, a.distinct, a.idle, a.smtp = 40, True, 2, "process"
    for where in (("process", "thread") if a.smtp == "both" else (a.smtp,)):
        report_burst(burst(a.mails, separate_smtp=where == "process", distinct=a.distinct,
                           profile=a.profile and f"{a.profile}.{where}"), where)
    if a.idle:
        lat = idle_latency(a.idle)
        print(f"IDLE latency, APPEND -> confirmation captured by SMTP ({len(lat)} mails): median "
              f"{statistics.median(lat):.3f} s, max {max(lat):.3f} s (target median <= 1 s)")


if __name__ == "__main__":
    main()
