"""Issue 10: every ordinary mistake on the command line ends in one or two plain
lines (what is wrong, what to do), exit status 2 for usage errors and 1 for
failures, and never a traceback."""
from __future__ import annotations

import errno
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from gm_files import FF_WINTER

from referee.app.cli import main

MATCH_FILE = FF_WINTER


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def campaign(folder, capsys):
    assert main(["init"]) == 0
    (folder / "match.yaml").write_text(MATCH_FILE)
    assert main(["new", "match.yaml"]) == 0
    capsys.readouterr()
    return folder


def plain(capsys, code: int, got: int) -> str:
    """The run ended with ``code`` and at most two plain lines on stderr."""
    err = capsys.readouterr().err
    assert got == code, err
    assert "Traceback" not in err and "pydantic" not in err and "errors.pydantic.dev" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert 1 <= len(lines) <= 2, err
    assert lines[0].startswith("referee: ")
    return err


def test_new_with_a_yaml_error_names_the_line(folder, capsys):
    main(["init"])
    (folder / "bad.yaml").write_text("id: x\n  game: [\n")
    got = main(["new", "bad.yaml"])
    err = capsys.readouterr().err
    assert got == 1 and "Traceback" not in err and "line 2" in err


@pytest.mark.parametrize("lang, head, said", [
    ("de", "referee: bad.yaml hat Fehler:",
     "  Zeile 11: players[4].bot: bot ist true, false oder {strength: ...} mit einer Spielstärke aus fast, default; "
     "eine Spielstärke allein geht auch (bot: fast)"),
    ("en", "referee: bad.yaml has problems:",
     "  line 11: players[4].bot: bot is true, false or {strength: ...} with a strength of fast, default; "
     "a strength alone works too (bot: fast)"),
])
def test_new_says_the_problems_in_the_files_language(folder, capsys, lang, head, said):
    main(["init"])
    (folder / "bad.yaml").write_text(MATCH_FILE.replace("lang: en", f"lang: {lang}")
                                     + "  - {id: fasty, name: Fast Bot, bot: vielleicht}\n")
    assert main(["new", "bad.yaml"]) == 1
    assert capsys.readouterr().err.splitlines() == [head, said]
    (folder / "bad.yaml").write_text(MATCH_FILE.replace("lang: en", f"lang: {lang}").replace("gm:", "gmx:"))
    assert main(["new", "bad.yaml"]) == 1   # the field the GM forgot and the one misspelt, in the file's words
    assert capsys.readouterr().err.splitlines()[1:] == {
        "de": ["  gm fehlt", "  Zeile 4: unbekanntes Feld 'gmx' (meintest du 'gm'?)"],
        "en": ["  gm is missing", "  line 4: unknown field 'gmx' (did you mean 'gm'?)"]}[lang]
    (folder / "bad.yaml").write_text(MATCH_FILE.replace("lang: en", f"lang: {lang}") + "  - [\n")
    assert main(["new", "bad.yaml"]) == 1   # not YAML at all: its lang: line is still read
    assert ("In der Partiedatei, Zeile" if lang == "de" else "In the match file, line") in capsys.readouterr().err
    assert main(["status"]) == 0 and "no matches" in capsys.readouterr().out


@pytest.mark.parametrize("schedule, en, de", [
    ("{period: 48h, weekdays: [mon]}", "give either 'period' (e.g. 48h) or 'weekdays' with 'time', not both or neither",
     "gib entweder 'period' (etwa 48h) oder 'weekdays' mit 'time' an, nicht beides und nicht keins"),
    ("{period: soon}", "'soon' is not a duration such as '48h', '7d' or '1d12h'",
     "'soon' ist keine Dauer wie '48h', '7d' oder '1d12h'"),
    ("{weekdays: [funday], time: '20:00'}", "'funday' is not a weekday such as mon, thu or Montag",
     "'funday' ist kein Wochentag wie Montag, Donnerstag oder mon"),
])
def test_a_faulty_schedule_is_said_in_the_files_language(folder, capsys, schedule, en, de):
    main(["init"])
    capsys.readouterr()
    for lang, words in (("en", en), ("de", de)):
        text = MATCH_FILE.replace("lang: en", f"lang: {lang}").replace("schedule: {period: 48h, reminders: [12h]}",
                                                                       f"schedule: {schedule}")
        (folder / "bad.yaml").write_text(text)
        assert main(["new", "bad.yaml"]) == 1
        assert words in capsys.readouterr().err, lang


def test_new_with_a_missing_match_file_is_a_usage_error(folder, capsys):
    assert "nosuch.yaml" in plain(capsys, 2, main(["new", "nosuch.yaml"]))


def test_init_refuses_when_referee_yaml_is_there(folder, capsys):
    assert main(["init"]) == 0
    before = (folder / "referee.yaml").read_text()
    capsys.readouterr()
    assert "exists already" in plain(capsys, 1, main(["init"]))
    assert (folder / "referee.yaml").read_text() == before


def test_gm_extend_until_without_quotes_takes_the_time(campaign, capsys):
    day = (datetime.now(UTC) + timedelta(days=5)).strftime("%Y-%m-%d")
    assert main(["gm", "ff-winter", "extend", f"until={day}", "20:00"]) == 0
    assert "deadline" in capsys.readouterr().out
    main(["gm", "ff-winter", "status"])
    assert "20:00" in capsys.readouterr().out


def test_gm_stray_word_is_a_usage_error(campaign, capsys):
    assert "not key=value" in plain(capsys, 2, main(["gm", "ff-winter", "extend", "24h"]))


def test_gm_missing_argument_is_a_usage_error(campaign, capsys):
    assert "seat=" in plain(capsys, 2, main(["gm", "ff-winter", "replace", "email=x@example.org"]))


def test_gm_refusal_is_a_failure(campaign, capsys):
    assert main(["gm", "ff-winter", "pause"]) == 0
    capsys.readouterr()
    assert "paused" in plain(capsys, 1, main(["gm", "ff-winter", "pause"]))


def test_replay_of_an_unknown_match_fails(campaign, capsys):
    assert "nosuch" in plain(capsys, 1, main(["replay", "nosuch"]))


def test_demo_of_an_unknown_game_is_a_usage_error(folder, capsys):
    err = plain(capsys, 2, main(["demo", "--game", "nosuch"]))
    assert "founding_fathers" in err   # what is installed
    assert not (folder / "referee-demo").exists()


def test_config_typo_is_named_with_its_line(folder, capsys):
    (folder / "referee.yaml").write_text("address: referee@localhost\nmail_inn:\n  maildir: mail/in\n")
    err = plain(capsys, 1, main(["status"]))
    assert "line 2" in err and "mail_inn" in err and "did you mean 'mail_in'" in err


def test_config_yaml_error_is_named_with_its_line(folder, capsys):
    (folder / "referee.yaml").write_text("address: [referee@localhost\n")
    assert "not valid YAML" in plain(capsys, 1, main(["status"]))


def test_missing_config_file_is_an_error_and_creates_no_store(tmp_path):
    done = subprocess.run([sys.executable, "-m", "referee.app.cli", "--config", str(tmp_path / "nonexistent.yaml"),
                           "status"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "not found" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []   # no referee.sqlite for a cron job with a typo


def test_gm_status_prints_the_status(campaign, capsys):
    assert main(["gm", "ff-winter", "status"]) == 0
    out = capsys.readouterr().out
    assert "turn 1" in out and "Awaited: John Adams, John Jay, Rufus King" in out
    assert "0 mails sent" not in out


def test_gm_status_of_an_unknown_match_fails(campaign, capsys):
    err = plain(capsys, 1, main(["gm", "nosuch", "status"]))
    assert "ff-winter" in err   # the matches there are


def test_gm_help_lists_every_gm_command(capsys):
    from referee.authority.gate.commands import GM_COMMANDS
    assert main(["gm", "--help"]) == 0
    out = capsys.readouterr().out
    for command in GM_COMMANDS:
        assert f"\n  {command} " in out


def test_poll_once_is_one_pass_and_hidden(folder, capsys):
    main(["init"])
    assert main(["poll", "--once"]) == 0 and main(["poll"]) == 0
    main(["poll", "--help"])
    assert "--once" not in capsys.readouterr().out


def test_unknown_command_is_a_usage_error(capsys):
    plain(capsys, 2, main(["bogus"]))


def test_unknown_option_is_a_usage_error(capsys):
    plain(capsys, 2, main(["status", "--frobnicate"]))


def test_demo_writes_to_a_folder_of_its_own(folder, capsys):
    assert main(["demo", "--game", "founding_fathers", "--seed", "x"]) == 0
    assert (folder / "referee-demo" / "turns" / "demo-founding_fathers" / "match.yaml").is_file()
    assert not (folder / "turns").exists()


def test_rules_prints_the_games_rules(capsys):
    assert main(["rules", "founding_fathers"]) == 0
    assert "Founding Fathers" in capsys.readouterr().out


def test_rules_of_an_unknown_game_is_a_usage_error(capsys):
    plain(capsys, 2, main(["rules", "nosuch"]))


def test_shell_completion_is_offered(tmp_path):
    env = {"_REFEREE_COMPLETE": "bash_source", "PATH": str(Path(sys.executable).parent)}
    done = subprocess.run([str(Path(sys.executable).parent / "referee")], env=env, capture_output=True,
                          text=True, timeout=60)
    assert "complete" in done.stdout and "_referee_completion" in done.stdout


def test_a_disk_that_refuses_the_close_is_named_not_blamed_on_the_referee(campaign, capsys, monkeypatch):
    """The GM's force on a failing disk (EIO at the reports' folder sync): the command says the
    disk refused and what to check, not "a fault of the referee"; the turn stays open."""
    from referee.archive import record as archive
    real = archive.sync_folder

    def refused(folder) -> None:
        if folder.name == "t001":
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(folder))
        real(folder)
    monkeypatch.setattr(archive, "sync_folder", refused)
    err = plain(capsys, 1, main(["gm", "ff-winter", "force"]))
    assert "the disk refused: Input/output error" in err and "free space" in err
    assert "fault of the referee" not in err
    monkeypatch.setattr(archive, "sync_folder", real)
    assert main(["gm", "ff-winter", "force"]) == 0   # the disk well again: the turn closes once
    assert "turn 1 closed" in capsys.readouterr().out


def test_an_unexpected_os_error_is_still_an_internal_error(campaign, capsys, monkeypatch):
    from referee.turns.closing import Closing

    def broken(self, *a, **k):
        raise OSError(errno.EBADF, "Bad file descriptor")
    monkeypatch.setattr(Closing, "force", broken)
    assert "internal error: OSError" in plain(capsys, 1, main(["gm", "ff-winter", "force"]))
