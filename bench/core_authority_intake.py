"""Authority throughput: order mails handled end to end vs a bare parse, in one run.

Not a test: prints figures.  N order mails (50 toy matches × 4 players, each
player resubmitting; last valid wins) are timed, on the same bytes, as:

* bare:      ``email`` parse + C YAML load of the body
* authority: ``parse_inbound`` + ``Referee.handle`` (dedupe, archive the raw
             mail, envelope, key check, orders checked by the game, stored,
             reply rendered and queued — one SQLite transaction per mail) +
             ``send_pending`` of the replies into a Maildir

Times are CPU seconds of this process (``time.process_time``) and wall seconds.

    python bench/core_authority_intake.py [N | --smoke]
"""
from __future__ import annotations

import email
import re
import sys
import tempfile
import time
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path += [str(ROOT / "tests"), str(ROOT / "tests" / "referee")]

import toygame  # noqa: E402

from referee.app.referee import Referee  # noqa: E402
from referee.authority.base import Settings  # noqa: E402
from referee.game_api import registry  # noqa: E402
from referee.mail.inbound import parse_inbound  # noqa: E402
from referee.mail.sink import MaildirSink  # noqa: E402
from referee.render.renderer import Renderer  # noqa: E402
from referee.store import open_store  # noqa: E402

REFEREE = "referee@bench.example"
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def mail(sender: str, body: str) -> bytes:
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = sender, REFEREE, "orders"
    msg["Message-ID"] = make_msgid(domain="players.example")
    msg.set_content(body)
    return msg.as_bytes()


def setup(root: Path, matches: int) -> tuple[Referee, dict]:
    registry.register(toygame.RULES)
    ref = Referee(open_store(root / "db.sqlite"), root / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]),
                  lambda: NOW, Settings(address=REFEREE, rate_limit_per_hour=0))
    keys = {}
    for i in range(matches):
        spec = {"id": f"m{i}", "game": "toybid", "gm": "gm@bench.example", "schedule": {"period": "48h"},
                "players": [{"id": p, "name": p.title(), "email": f"{p}{i}@bench.example"}
                            for p in ("ann", "bob", "cyd", "dee")]}
        ref.create_match(spec)
    ref.send_pending(MaildirSink(root / "welcome"))
    for m in (root / "welcome" / "new").iterdir():
        msg = email.message_from_bytes(m.read_bytes(), policy=policy.default)
        hit = re.search(r"Your key: (\S+)", msg.get_body(("plain",)).get_content())
        if hit:
            keys[msg["To"]] = hit.group(1)
    return ref, keys


def main(n: int = 2000, matches: int = 50) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ref, keys = setup(root, matches)
        senders = sorted(keys)
        raws = []
        for j in range(n):
            sender = senders[j % len(senders)]
            pid, mid = re.match(r"([a-z]+)(\d+)@", sender).groups()
            body = (f"Hello referee,\n\nmatch: m{mid}\nplayer: {pid}\nkey: {keys[sender]}\nturn: 1\n"
                    f"orders:\n  bid: {j % 4}\n\n-- \nsent from my phone\n")
            raws.append(mail(sender, body))

        c0, w0 = time.process_time(), time.perf_counter()
        for raw in raws:
            msg = email.message_from_bytes(raw, policy=policy.default)
            text = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
            yaml.load(text.split("\n\n", 1)[1].split("\n-- \n")[0], Loader=yaml.CSafeLoader)
        bare_cpu = time.process_time() - c0

        c0, w0 = time.process_time(), time.perf_counter()
        outcomes = {}
        for raw in raws:
            h = ref.handle(parse_inbound(raw, own_addresses=[REFEREE]))
            outcomes[h.reason] = outcomes.get(h.reason, 0) + 1
        handle_cpu, handle_wall = time.process_time() - c0, time.perf_counter() - w0
        sent = ref.send_pending(MaildirSink(root / "out"), limit=n + 10).sent
        full_cpu, full_wall = time.process_time() - c0, time.perf_counter() - w0

    print(f"{n} order mails, {matches} matches × 4 players; outcomes {outcomes}; replies sent {sent}")
    if sent < n:   # every order mail is answered: fewer replies means the bench measured a broken flow
        raise SystemExit(f"only {sent} replies for {n} order mails")
    print(f"bare parse + C YAML:      {bare_cpu:6.2f} s CPU  {n / bare_cpu:8.0f} mails/s")
    print(f"authority handle():       {handle_cpu:6.2f} s CPU  {n / handle_cpu:8.0f} mails/s  "
          f"(wall {handle_wall:.2f} s)")
    print(f"  + replies sent:         {full_cpu:6.2f} s CPU  {n / full_cpu:8.0f} mails/s  (wall {full_wall:.2f} s)")
    print(f"ratio to bare (CPU):      handle {handle_cpu / bare_cpu:.1f}×, with sending {full_cpu / bare_cpu:.1f}×")


if __name__ == "__main__":
    # --smoke: a tiny run (a few seconds) that fails if the bench is broken
    if sys.argv[1:] == ["--smoke"]:
        main(20, matches=5)
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
