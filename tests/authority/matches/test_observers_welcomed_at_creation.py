"""Issue #10: observers listed in the match file are welcomed when the match is
created (in their language): what the match is, the game in brief, the position;
and only once, even if the GM adds the same address again."""
from __future__ import annotations

import mailbox
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from gm_files import FF_WINTER
from refkit import in_order

from referee.app.cli import main

WITH_OBSERVERS = FF_WINTER + """\
observers:
  - fan@example.org
  - {email: fanin@example.org, lang: de}
"""


def mails(folder: Path) -> list:
    box = mailbox.Maildir(str(folder / "mail" / "out"), factory=None, create=False)
    return [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in in_order(box)]


@pytest.fixture
def folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    main(["init"])
    (tmp_path / "match.yaml").write_text(WITH_OBSERVERS)
    assert main(["new", "match.yaml"]) == 0
    capsys.readouterr()
    return tmp_path


def test_observers_of_the_match_file_are_welcomed_at_creation_in_their_language(folder):
    sent = mails(folder)
    [en] = [m for m in sent if m["To"] == "fan@example.org"]
    [de] = [m for m in sent if m["To"] == "fanin@example.org"]
    assert en["Subject"] == "[ff-winter] You follow Founding Fathers"
    assert de["Subject"] == "[ff-winter] Du verfolgst Founding Fathers"
    en_text, de_text = (m.get_body(("plain",)).get_content() for m in (en, de))
    assert "as an observer of the match ff-winter" in en_text and "THE GAME IN BRIEF" in en_text
    assert "THE POSITION NOW" in en_text and "John Adams" in en_text
    assert "als Zuschauer der Partie ff-winter" in de_text and "DAS SPIEL IN KÜRZE" in de_text
    assert "DIE LAGE JETZT" in de_text
    assert "\nTHE RULES\n\n# Founding Fathers" in en_text and "\nDIE REGELN\n\n# Founding Fathers" in de_text
    for text in (en_text, de_text):   # an observer sees no hand and gets no key or form (the rules' examples aside)
        text = text.split("\nTHE RULES\n")[0].split("\nDIE REGELN\n")[0]
        assert "YOUR HAND" not in text and "DEINE HAND" not in text and "key:" not in text


def test_an_observer_is_welcomed_once(folder):
    assert main(["gm", "ff-winter", "observer", "email=fan@example.org"]) == 0
    assert len([m for m in mails(folder) if m["To"] == "fan@example.org"]) == 1


def test_an_observer_is_told_which_seats_bots_play_in_their_language(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    main(["init"])
    (tmp_path / "match.yaml").write_text(WITH_OBSERVERS.replace(
        "  - {id: king, name: Rufus King, email: king@example.org}\n",
        "  - {id: king, name: Rufus King, bot: true}\n"))
    assert main(["new", "match.yaml"]) == 0
    capsys.readouterr()
    sent = mails(tmp_path)
    [en] = [m.get_body(("plain",)).get_content() for m in sent if m["To"] == "fan@example.org"]
    [de] = [m.get_body(("plain",)).get_content() for m in sent if m["To"] == "fanin@example.org"]
    assert "Played by a computer player (bot): Rufus King.\n" in en
    assert "Von einem Computerspieler (Bot) gespielt: Rufus King.\n" in de


def test_an_observer_of_a_match_without_bots_reads_no_bot_line(folder):
    for m in mails(folder):
        if m["To"] in ("fan@example.org", "fanin@example.org"):
            text = m.get_body(("plain",)).get_content()
            assert "computer player" not in text and "Computerspieler" not in text
