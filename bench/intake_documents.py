"""Intake throughput, in memory: what reading a mail's orders costs beyond a bare parse.

Not a test: prints figures.  For N realistic order mails (greeting, YAML,
signature, quoted earlier mail) it times, in the same run:

* bare:   ``email`` parse of the bytes + C YAML load of the YAML part
* intake: ``parse_inbound`` + ``read_document`` + ``read_envelope`` +
          ``check_orders`` against a stand-in pydantic schema
* hostile: a billion-laughs document and 30,000 nested brackets through
          ``read_text`` (both must be refused, fast, without a crash)

    python bench/intake_documents.py [N | --smoke]
"""
from __future__ import annotations

import email
import sys
import time
from email import policy
from email.message import EmailMessage
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict

from referee.intake import check_orders, read_document, read_envelope, read_text
from referee.mail.inbound import parse_inbound


class Vote(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["declare_vote", "snub"]
    state: str
    side: Literal["yea", "nay"]
    delegates: list[str]
    take: list[int] = []


class Rules:
    name, languages, messages = "bench", ("en", "de"), {}

    def order_schema(self, state, stage):
        return Vote

    def validate(self, state, player, orders):
        return []


def order_yaml(n: int) -> str:
    return (f"match: ff-bench\nplayer: p{n % 7}\nkey: 4F7Q-K2XD-{n:04d}   # secret\nturn: 12\n"
            "orders:\n  action: declare_vote\n  state: PA\n  side: yea\n"
            "  delegates: [ingersoll, mifflin]\n  take: [2]\n")


def order_mail(n: int) -> bytes:
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = f"Player {n} <p{n % 7}@example.org>"
    msg["To"] = "referee@example.net"
    msg["Subject"] = "orders"
    msg["Message-ID"] = f"<bench-{n}@example.org>"
    quoted = "".join("> " + line + "\n" for line in order_yaml(n + 1).splitlines())
    msg.set_content("Hallo Spielleitung,\n\nhier meine Befehle:\n\n" + order_yaml(n) +
                    "\nViele Grüße\n\n-- \nPlayer\n\nAm Sa. schrieb Referee:\n" + quoted)
    return msg.as_bytes()


def bare(raw: bytes) -> dict:
    msg = email.message_from_bytes(raw, policy=policy.compat32)
    body = msg.get_payload(decode=True).decode(msg.get_content_charset() or "utf-8")
    start = body.index("match:")
    end = body.index("\nViele")
    return yaml.load(body[start:end], Loader=yaml.CSafeLoader)


def intake(raw: bytes, rules: Rules):
    mail = parse_inbound(raw)
    doc = read_document(mail)
    env = read_envelope(doc)
    model, problems = check_orders(rules, None, "vote", env.player, env.orders, doc)
    assert model is not None and not problems
    return model


def timed(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return time.perf_counter() - start


def main(n: int) -> None:
    mails = [order_mail(i) for i in range(n)]
    rules = Rules()
    bare(mails[0]), intake(mails[0], rules)   # warm up imports and pydantic
    t_bare = min(timed(bare, mails) for _ in range(3))
    t_intake = min(timed(lambda raw: intake(raw, rules), mails) for _ in range(3))
    t_read = min(timed(lambda m: read_document(m), [parse_inbound(r) for r in mails]) for _ in range(3))
    print(f"{n} mails")
    print(f"bare email parse + C YAML load : {n / t_bare:8.0f} mails/s ({t_bare / n * 1e6:6.1f} us/mail)")
    print(f"intake (parse..check_orders)   : {n / t_intake:8.0f} mails/s ({t_intake / n * 1e6:6.1f} us/mail)")
    print(f"  of which read_document only  : {t_read / n * 1e6:6.1f} us/mail")
    print(f"ratio intake / bare            : {t_intake / t_bare:8.2f}x")
    laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'] + [
        f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]" for i in range(1, 9)]
    for name, text in (("billion laughs", "match: x\n" + "\n".join(laughs) + "\n"),
                       ("30,000 nested [", "match: x\norders: " + "[" * 30000 + "]" * 30000 + "\n")):
        start = time.perf_counter()
        result = read_text(text)
        elapsed = time.perf_counter() - start
        if not result:
            raise SystemExit(f"{name}: not refused")
        print(f"{name:15s}: refused as {[p.code for p in result]} in {elapsed * 1e3:.2f} ms")


if __name__ == "__main__":
    # --smoke: a tiny run (a few seconds) that fails if the bench is broken
    main(20 if sys.argv[1:] == ["--smoke"] else int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
