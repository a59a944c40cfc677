"""The ``referee`` command on the embedded default (SQLite + Maildir)."""
from __future__ import annotations

import mailbox
import re
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from gm_files import FF_WINTER  # noqa: E402  (tests/kits is on sys.path)
from refkit import in_order

from referee.app.cli import main
from referee.archive.record import replay

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")
MATCH_FILE = FF_WINTER.replace("id: ff-winter", "id: cli-test")   # the GM tests' campaign, another id


def outgoing(folder: Path) -> list[EmailMessage]:
    box = mailbox.Maildir(str(folder / "mail" / "out"), factory=None, create=False)
    from email import message_from_bytes
    return [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in in_order(box)]


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()


@pytest.fixture
def campaign(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    (tmp_path / "match.yaml").write_text(MATCH_FILE)
    return tmp_path


def test_init_writes_a_loadable_commented_config(campaign, capsys):
    text = (campaign / "referee.yaml").read_text()
    assert "imap:" in text and text.count("#") > 10  # the IMAP/SMTP switch is documented in place
    assert main(["init"]) == 1   # refused, in plain words (tests/test_cli_mistakes.py)


def test_games_lists_every_installed_game(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "founding_fathers" in out and "perricumer_ratsspiel" in out


def test_new_poll_tick_status_by_cron(campaign, capsys):
    assert main(["new", "match.yaml"]) == 0
    assert "GM key" in capsys.readouterr().out
    welcomes = {m["To"]: m for m in outgoing(campaign) if "The rules of" not in m["Subject"]}   # those come apart
    assert set(welcomes) == {"adams@example.org", "jay@example.org", "king@example.org", "gm@example.org"}
    key = KEY.search(text_of(welcomes["jay@example.org"])).group(1)

    # jay answers the welcome mail with orders for turn 1 (everybody keeps 2 of 4 cards)
    from referee.app.config import load
    from referee.app.wiring import open_referee
    ref = open_referee(load(campaign / "referee.yaml"))
    rules = ref.rules(ref.store.match("cli-test"))
    state = rules.load(ref.store.current_turn("cli-test")["state"])
    from referee.game_api.contract import Rng
    orders = rules.random_orders(state, "jay", Rng(1))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "jay@example.org", "referee@localhost", "orders"
    msg["Message-ID"] = "<jay-1@example.org>"
    msg.set_content("Dear referee,\n\n" + yaml.safe_dump(
        {"match": "cli-test", "player": "jay", "key": key, "turn": 1, "orders": orders}))
    mailbox.Maildir(str(campaign / "mail" / "in"), factory=None, create=False).add(msg.as_bytes())

    assert main(["poll", "--once"]) == 0
    out = capsys.readouterr().out   # issue 33: words a GM reads, not a Python dict
    assert "1 mail read (1 processed);" in out and "{" not in out
    reply = [m for m in outgoing(campaign) if m["In-Reply-To"] == "<jay-1@example.org>"]
    assert len(reply) == 1 and key not in text_of(reply[0])
    assert main(["tick"]) == 0
    assert "closed: nothing" in capsys.readouterr().out  # adams and king are still awaited
    assert main(["status"]) == 0
    status = capsys.readouterr().out
    assert "UTC" in status  # the deadline in the match zone and in UTC
    assert "cli-test" in status and "adams" in status and "king" in status and "jay" not in status.split("awaiting:")[1]


def test_gm_pause_and_resume_from_the_command_line(campaign, capsys):
    main(["new", "match.yaml"])
    assert main(["gm", "cli-test", "pause"]) == 0
    main(["status"])
    assert "paused" in capsys.readouterr().out
    assert main(["gm", "cli-test", "resume"]) == 0
    assert main(["gm", "cli-test", "extend", "by=24h"]) == 0
    assert main(["gm", "cli-test", "bogus"]) == 2


def test_new_refuses_a_bad_match_file(campaign, capsys):
    (campaign / "bad.yaml").write_text(MATCH_FILE.replace("founding_fathers", "no_such_game"))
    assert main(["new", "bad.yaml"]) == 1   # understood, but the file cannot become a match
    assert "no_such_game" in capsys.readouterr().err


def test_demo_plays_every_game_to_the_end_and_replays(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--seed", "cli"]) == 0
    out = capsys.readouterr().out
    for game in ("founding_fathers", "perricumer_ratsspiel"):
        assert f"demo-{game}: finished" in out
        assert replay(tmp_path / "referee-demo" / "turns" / f"demo-{game}").ok
        assert main(["replay", f"referee-demo/turns/demo-{game}"]) == 0
