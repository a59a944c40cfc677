"""The GM's chronicle and letters on the command line: ``referee gm MATCH chronicle
file=story.md``, ``approve N``, ``decline N reason=...``; bad input is refused and
changes nothing."""
from __future__ import annotations

import mailbox
from email.message import EmailMessage

import pytest
import yaml
from test_cli import KEY, MATCH_FILE, campaign, outgoing, text_of  # noqa: F401  (the CLI tests' campaign)

from referee.app.cli import main
from referee.app.config import load
from referee.app.wiring import open_referee
from referee.store.talk import TalkRecords


def letter(folder, key: str, text: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "jay@example.org", "referee@localhost", "letter"
    msg["Message-ID"] = f"<letter-{len(text)}@example.org>"
    msg.set_content(yaml.safe_dump({"match": "cli-test", "player": "jay", "key": key, "command": "letter",
                                    "text": text}))
    mailbox.Maildir(str(folder / "mail" / "in"), factory=None, create=False).add(msg.as_bytes())


@pytest.fixture
def started(campaign, capsys):   # noqa: F811
    assert main(["new", "match.yaml"]) == 0
    welcome = next(m for m in outgoing(campaign) if m["To"] == "jay@example.org")
    capsys.readouterr()
    return campaign, KEY.search(text_of(welcome)).group(1)


def records(folder) -> TalkRecords:
    return TalkRecords(open_referee(load(folder / "referee.yaml")).store)


def test_chronicle_from_a_file_and_a_letter_approved_by_number(started, capsys):
    folder, key = started
    (folder / "story.md").write_text("# Philadelphia\n\nThe delegates arrive in the rain.\n", encoding="utf-8")
    assert main(["gm", "cli-test", "chronicle", "file=story.md", "title=Arrival"]) == 0
    assert "chronicle 1 heads the reports of turn 1" in capsys.readouterr().out
    letter(folder, key, "Gentlemen, I propose a compromise.")
    assert main(["poll", "--once"]) == 0
    assert any("waits for your decision" in m["Subject"] for m in outgoing(folder) if m["To"] == "gm@example.org")
    assert main(["gm", "cli-test", "approve", "2"]) == 0
    assert "letter 2 heads the reports of turn 1" in capsys.readouterr().out
    assert [e["kind"] for e in records(folder).published("cli-test", 1)] == ["chronicle", "letter"]
    assert main(["gm", "cli-test", "force"]) == 0
    report = next(m for m in outgoing(folder) if m["To"] == "king@example.org" and "Report" in m["Subject"])
    text = text_of(report)
    assert text.index("The delegates arrive in the rain.") < text.index("A letter from John Jay")


def test_bad_gm_input_on_the_command_line_changes_nothing(started, capsys):
    folder, _ = started
    assert main(["gm", "cli-test", "approve", "9"]) == 1
    assert "no letter 9 waiting" in capsys.readouterr().err
    assert main(["gm", "cli-test", "decline", "nine"]) == 1
    assert main(["gm", "cli-test", "chronicle", "file=missing.md"]) == 1
    assert "cannot read missing.md" in capsys.readouterr().err
    (folder / "big.md").write_bytes(b"x" * 70_000)
    assert main(["gm", "cli-test", "chronicle", "file=big.md"]) == 1
    assert main(["gm", "cli-test", "chronicle", "seats=nobody", "text=hello"]) == 1
    assert main(["gm", "cli-test", "chronicle"]) == 1
    assert records(folder).published("cli-test", 1) == []
