"""Issue 18 for the GM on the command line: an open match created with ``referee
new``, its status, close-joining / open-joining and start refused with too few
players; the status of a running match lists missed turns per seat; mistakes
end in plain lines and change nothing."""
from __future__ import annotations

import mailbox
from email import message_from_bytes, policy

import pytest

from referee.app.cli import main

OPEN = """\
id: lobby
game: founding_fathers
lang: de
gm: gm@example.org
timezone: Europe/Berlin
schedule: {period: 48h}
players: []
seats: 4
"""
RUNNING = """\
id: ff
game: founding_fathers
lang: en
gm: gm@example.org
schedule: {period: 48h}
dropouts: {warn_after: 1, abandon_after: 2}
absence: extend
players:
  - {id: adams, name: John Adams, email: adams@example.org}
  - {id: jay, name: John Jay, email: jay@example.org}
  - {id: king, name: Rufus King, email: king@example.org}
"""


@pytest.fixture
def new(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0

    def create(text: str) -> None:
        (tmp_path / "match.yaml").write_text(text)
        assert main(["new", "match.yaml"]) == 0, capsys.readouterr().err
        capsys.readouterr()
    return create


def subjects(folder) -> list[str]:
    box = mailbox.Maildir(str(folder / "mail" / "out"), factory=None, create=False)
    return [message_from_bytes(box.get_bytes(k), policy=policy.default)["Subject"] for k in box.keys()]


def test_an_open_match_from_the_command_line(new, tmp_path, capsys):
    new(OPEN)
    assert any("Offen für Beitritte" in s for s in subjects(tmp_path))
    assert main(["gm", "lobby", "status"]) == 0
    assert "open, 0 of 4 seats taken (seat1 free" in capsys.readouterr().out
    assert main(["gm", "lobby", "start"]) == 1
    err = capsys.readouterr().err
    # issue 33: a GM's refusal in the match's language (lang: de), on the command line as by mail
    assert "0 Plätze sind besetzt; das Spiel braucht mindestens 3 Spieler zum Start" in err and "Traceback" not in err
    assert main(["gm", "lobby", "close-joining"]) == 0
    assert "joining closed" in capsys.readouterr().out
    assert main(["gm", "lobby", "status"]) == 0
    assert "joining closed" in capsys.readouterr().out
    assert main(["gm", "lobby", "open-joining", "now=yes"]) == 2
    assert "open-joining nimmt keine Argumente (nicht now=)" in capsys.readouterr().err   # lang: de, as its refusals
    assert main(["gm", "lobby", "open-joining"]) == 0
    for command in (["extend", "by=24h"], ["pause"], ["force"], ["rollback"], ["preview"]):
        assert main(["gm", "lobby", *command]) == 1, command
        assert "hat noch nicht begonnen" in capsys.readouterr().err
    assert main(["status"]) == 0
    assert "lobby" in capsys.readouterr().out
    assert main(["gm", "lobby", "end"]) == 0
    assert main(["gm", "lobby", "status"]) == 0
    assert "0 of 4 seats taken" in capsys.readouterr().out


def test_a_running_match_status_lists_missed_turns_and_takes_no_joining_commands(new, capsys):
    new(RUNNING)
    assert main(["gm", "ff", "force"]) == 0
    capsys.readouterr()
    assert main(["gm", "ff", "status"]) == 0
    out = capsys.readouterr().out
    assert "Missed turns in a row, by seat:" in out and "  adams (John Adams): 1 (warned)" in out
    assert main(["gm", "ff", "close-joining"]) == 1
    assert "takes no players by mail" in capsys.readouterr().err


def test_a_match_file_with_bad_seat_rules_is_refused_with_its_lines(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    main(["init"])
    bad = RUNNING.replace("dropouts: {warn_after: 1, abandon_after: 2}", "dropouts: {warn_after: 3, abandon_after: 2}")
    bad = bad.replace("absence: extend", "absence: {policy: sometimes, max_days: 400}") + "seats: [adams, adams]\n"
    (tmp_path / "bad.yaml").write_text(bad)
    assert main(["new", "bad.yaml"]) == 1
    err = capsys.readouterr().err
    assert "warn_after must be smaller than abandon_after" in err
    assert "absence.policy" in err and "absence.max_days" in err and "seats" in err
