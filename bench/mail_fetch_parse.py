"""Mail layer throughput: 2,000 order mails through ImapSource + parse_inbound.

Not a test: prints figures.  Compares, in the same run against the same
Dovecot folder, a bare bulk FETCH + ``email`` parse + C YAML load with the
mail layer's own path (ImapSource.fetch + parse_inbound + C YAML load), and
the cost of marking mail done one by one vs. in one MOVE.

Left out: handling the orders (``Referee.handle``), the replies, the store.  Also
printed: IDLE wake-up after an APPEND.  ``--smoke``: 50 mails, one round, for CI.

    python bench/mail_fetch_parse.py [N] [maildir|mdbox] [--smoke]
"""
from __future__ import annotations

import email
import statistics
import sys
import time
from email import policy
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "kits"))
from mailservers import running_mailservers  # noqa: E402

from referee.mail.imap_source import ImapSource  # noqa: E402
from referee.mail.inbound import parse_inbound  # noqa: E402

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def order_mail(n: int) -> bytes:
    return (f"From: player{n % 50}@players.test\r\nTo: referee@referee.test\r\n"
            f"Subject: Befehle {n}\r\nMessage-ID: <o{n}@players.test>\r\n"
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            f"Hallo,\r\n\r\nmatch: ff-1\r\nplayer: p{n % 50}\r\nkey: K-{n}\r\nturn: 3\r\n"
            "orders:\r\n  vote: Zölle senken\r\n  delegates: [a, b, c]\r\n\r\n-- \r\nGruß\r\n"
            ).encode()


def bare(client, uids) -> int:
    count = 0
    for start in range(0, len(uids), 500):
        for data in client.fetch(uids[start:start + 500], ["BODY.PEEK[]"]).values():
            msg = email.message_from_bytes(data[b"BODY[]"], policy=policy.default)
            text = msg.get_body(("plain",)).get_content()
            yaml.load(text[text.index("match:"):text.index("\n-- ")], Loader=Loader)
            count += 1
    return count


def layered(source: ImapSource, n: int) -> int:
    count = 0
    for _ref, raw in source.fetch(limit=n):
        mail = parse_inbound(raw)
        text = mail.text
        yaml.load(text[text.index("match:"):text.index("\n-- ")], Loader=Loader)
        count += 1
    return count


def main() -> None:
    smoke = "--smoke" in sys.argv[1:]   # a tiny run for CI: 50 mails, one round, two IDLE wakes
    args = [a for a in sys.argv[1:] if a != "--smoke"]
    n = 50 if smoke else int(args[0]) if args else 2000
    store = args[1] if len(args) > 1 else "maildir"
    print(f"Dovecot storage: {store}")
    with running_mailservers(users=("referee",), tls=False,
                             mail_location=f"{store}:~/{store}") as servers:
        with servers.dovecot.imap("referee") as client:
            client.create_folder("Orders")
            mails = [order_mail(i) for i in range(n)]
            t = time.perf_counter()
            for start in range(0, n, 500):
                client.multiappend("Orders", mails[start:start + 500])
            print(f"seed {n} mails (MULTIAPPEND): {time.perf_counter() - t:.2f} s")
            client.select_folder("Orders", readonly=True)
            uids = sorted(client.search(["ALL"]))
            source = ImapSource("127.0.0.1", servers.dovecot.imap_port, "referee",
                                servers.password("referee"), folder="Orders")
            bare_times, layer_times = [], []
            for _ in range(1 if smoke else 5):
                t = time.perf_counter()
                assert bare(client, uids) == n
                bare_times.append(time.perf_counter() - t)
                t = time.perf_counter()
                assert layered(source, n) == n
                layer_times.append(time.perf_counter() - t)
            b, m = statistics.median(bare_times), statistics.median(layer_times)
            print(f"bare FETCH + email + CSafeLoader:      {b:.3f} s  {n / b:8.0f} mails/s")
            print(f"ImapSource + parse_inbound + CSafeLoader: {m:.3f} s  {n / m:8.0f} mails/s"
                  f"  ratio {m / b:.2f}")
            refs = [ref for ref, _ in source.fetch(limit=n)]
            half = len(refs) // 2
            t = time.perf_counter()
            for ref in refs[:half]:
                source.done(ref, "processed")
            one = time.perf_counter() - t
            t = time.perf_counter()
            source.done_many(refs[half:], "processed")
            many = time.perf_counter() - t
            print(f"done() one by one: {one / half * 1e3:.2f} ms/mail;"
                  f" done_many(): {many / (len(refs) - half) * 1e3:.3f} ms/mail")
            source.close()
        idle_latency(servers, 2 if smoke else 10)


def idle_latency(servers, rounds: int = 10) -> None:
    """APPEND by another client -> ImapSource.wait() returns (IDLE), median."""
    import threading
    source = ImapSource("127.0.0.1", servers.dovecot.imap_port, "referee",
                        servers.password("referee"))
    lags = []
    for i in range(rounds):
        woke = threading.Event()
        thread = threading.Thread(target=lambda: (source.wait(10), woke.set()))
        thread.start()
        time.sleep(0.2)  # let IDLE start
        servers.dovecot.append("referee", order_mail(100_000 + i))
        t = time.perf_counter()
        woke.wait(15)
        lags.append(time.perf_counter() - t)
        thread.join()
        source.done_many([ref for ref, _ in source.fetch()], "processed")
    source.close()
    print(f"IDLE wake after APPEND: median {statistics.median(lags) * 1e3:.0f} ms,"
          f" max {max(lags) * 1e3:.0f} ms (n={rounds})")


if __name__ == "__main__":
    main()
