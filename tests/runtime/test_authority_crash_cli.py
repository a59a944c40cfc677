"""The real command line killed mid-way (REFEREE_CRASH_AT) and run again:
a Ratsspiel turn by mail through `referee poll`, `referee gm … force` and `referee tick`."""
from __future__ import annotations

import mailbox
import os
import re
import subprocess
import sys
from collections import Counter
from email import message_from_bytes, policy
from pathlib import Path

import pytest
import yaml
from referee_kit import clock, game, outbox, raw_mail, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive.record import replay
from referee.game_api.contract import Rng

PLAYERS = ["alrik", "boronian", "cordovan"]


def cli(root: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_CRASH_AT"}
    if crash:
        env["REFEREE_CRASH_AT"] = crash
    return subprocess.run([sys.executable, "-m", "referee.app.cli", *args], cwd=root, env=env, timeout=120,
                          capture_output=True, text=True)


def out(root: Path) -> list:
    box = mailbox.Maildir(str(root / "mail" / "out"), create=False)
    return [message_from_bytes(m.as_bytes(), policy=policy.default) for m in box]


@pytest.mark.sqlite_file
def test_cli_killed_while_polling_and_while_closing(tmp_path):
    from referee_games.perricumer_ratsspiel import RULES, random_orders
    spec = {"id": "rat", "game": "perricumer_ratsspiel", "gm": "gm@example.org", "language": "de",
            "timezone": "Europe/Berlin", "schedule": {"period": "7d"},
            "players": [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in PLAYERS]}
    (tmp_path / "rat.yaml").write_text(yaml.safe_dump(spec))
    assert cli(tmp_path, "new", "rat.yaml").returncode == 0
    keys = {m["To"].split("@")[0]: re.search(r"Dein Schlüssel: (\S+)", m.get_body(("plain",)).get_content()).group(1)
            for m in out(tmp_path) if m["To"] != "gm@example.org" and "Willkommen" in m["Subject"]}   # not the rules mail

    # three order mails (one delivered twice); the poll dies after the first commit of the batch
    from referee.store import open_store
    store = open_store(tmp_path / "referee.sqlite")
    state = RULES.load(store.current_turn("rat")["state"])
    store.close()
    inbox = mailbox.Maildir(str(tmp_path / "mail" / "in"), create=True)
    ids = []
    for i, p in enumerate(PLAYERS):
        doc = {"match": "rat", "player": p, "key": keys[p], "turn": 1, "orders": random_orders(state, p, Rng(i))}
        raw = raw_mail(f"{p}@example.org", yaml.safe_dump(doc, allow_unicode=True))
        inbox.add(raw)
        if i == 0:
            inbox.add(raw)
        ids.append(message_from_bytes(raw)["Message-ID"])
    assert cli(tmp_path, "poll", "--once", crash="intake.committed@2").returncode == 137
    assert cli(tmp_path, "poll", "--once", crash="outbox.before_send@2").returncode == 137
    assert cli(tmp_path, "poll", "--once").returncode == 0
    replies = Counter(m["In-Reply-To"] for m in out(tmp_path) if m["In-Reply-To"])
    assert sorted(replies) == sorted(ids) and set(replies.values()) == {1}

    # the GM forces the close; the process dies right after the commit, before archive and sending
    assert cli(tmp_path, "gm", "rat", "force", crash="close.committed").returncode == 137
    assert not (tmp_path / "turns" / "rat" / "t001" / "turn.json").exists()
    assert cli(tmp_path, "tick").returncode == 0
    reports = [m for m in out(tmp_path) if "Bericht, Zug 1" in m["Subject"]]
    assert sorted(m["To"] for m in reports) == sorted([f"{p}@example.org" for p in PLAYERS] + ["gm@example.org"])
    assert replay(tmp_path / "turns" / "rat").turns == 1
    assert cli(tmp_path, "tick").returncode == 0
    assert len([m for m in out(tmp_path) if "Bericht, Zug 1" in m["Subject"]]) == 4
