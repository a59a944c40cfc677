"""Writes tests/store/data/v1/ (referee.sqlite + turns/): a store made by the
release with schema version 1, for the upgrade test.  It was run once with
that release's code first on the path (``git archive 2ec2b5de``)::

    PYTHONPATH=/tmp/v1:/tmp/v1/tests python tests/store/make_v1_store.py OUT

A toy match in its second turn: turn 1 closed (two players' orders and a
default), turn 2 with one submission, an observer, a replaced player, the
outbox partly sent, a rate bucket.
"""
from __future__ import annotations

import mailbox
import re
import sys
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import toygame

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.inbound import parse_inbound
from referee.mail.sink import MaildirSink
from referee.render.renderer import Renderer
from referee.store import open_store

REFEREE = "referee@example.org"
SPEC = {
    "id": "toy1", "game": "toybid", "title": "Toy One", "gm": "gm@example.org", "language": "en",
    "timezone": "Europe/Berlin", "options": {"rounds": 3},
    "schedule": {"period": "48h", "grace": "30m", "reminders": ["12h", "2h"]},
    "players": [
        {"id": "cyd", "name": "Cyd", "email": "cyd@example.org"},
        {"id": "ann", "name": "Ann", "email": "ann@example.org"},
        {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"},
    ],
    "observers": ["watcher@example.org"],
}


def mail(sender: str, body: str):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, REFEREE, "orders"
    msg["Message-ID"] = make_msgid(domain="players.example")
    msg.set_content(body)
    return parse_inbound(msg.as_bytes(), own_addresses=[REFEREE])


def main(out: Path) -> None:
    now = [datetime(2026, 3, 2, 9, 0, tzinfo=UTC)]
    registry.register(toygame.RULES)
    ref = Referee(open_store(out / "referee.sqlite"), out / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]),
                  lambda: now[0], Settings(address=REFEREE, rate_limit_per_hour=20))
    sink = MaildirSink(out / "sent")
    ref.create_match(SPEC)
    ref.send_pending(sink)
    keys = {}
    for m in mailbox.Maildir(str(out / "sent"), create=False):
        body = m.get_payload(decode=True) if not m.is_multipart() else m.get_payload(0).get_payload(decode=True)
        hit = re.search(r"(?:Your key|Dein Schlüssel): (\S+)", body.decode("utf-8", "replace"))
        if hit:
            keys[m["To"].split("@")[0]] = hit.group(1)
    for p, bid in (("ann", 3), ("bob", 2)):
        r = ref.handle(mail(f"{p}@example.org", f"match: toy1\nplayer: {p}\nkey: {keys[p]}\nturn: 1\norders:\n  bid: {bid}\n"))
        assert r.reason == "accepted", r
    now[0] += timedelta(hours=48, minutes=31)
    assert ref.tick().closed == [("toy1", 1)]
    ref.send_pending(sink)
    r = ref.handle(mail("ann@example.org", f"match: toy1\nplayer: ann\nkey: {keys['ann']}\nturn: 2\norders:\n  bid: 1\n"))
    assert r.reason == "accepted", r
    ref.gm_command("toy1", "replace", {"seat": "cyd", "email": "dee@example.org"})
    ref.store.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
