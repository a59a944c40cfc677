"""Issue 10: every mail a player, an observer or the GM gets is complete: the
welcome carries the game in brief, the starting position and a whole order
mail; reminders carry the form; notices reach the GM and observers; the GM's
end sends final standings; a replaced player is told, the successor gets the
position; a rollback keeps the deadline given since."""
from __future__ import annotations

import mailbox
from datetime import UTC, datetime, timedelta, timezone
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from gm_files import FF_WINTER
from refkit import in_order

from referee.app.cli import main

FF = (FF_WINTER.replace("id: ff-winter", "id: ff")
      .replace("email: jay@example.org}", "email: jay@example.org, lang: de}"))
RAT = """\
id: rat
game: perricumer_ratsspiel
lang: de
gm: gm@example.org
timezone: Europe/Berlin
schedule: {period: 7d}
players:
  - {id: alrik, name: Alrik, email: alrik@example.org}
  - {id: boronian, name: Boronian, email: boronian@example.org, lang: en}
  - {id: cordovan, name: Cordovan, email: cordovan@example.org}
"""


def mails(folder: Path) -> list:
    box = mailbox.Maildir(str(folder / "mail" / "out"), factory=None, create=False)
    return [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in in_order(box)]


def text(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def to(folder: Path, address: str, subject: str = "") -> list[str]:
    return [text(m) for m in mails(folder) if m["To"] == address and subject in (m["Subject"] or "")]


@pytest.fixture
def new(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    main(["init"])

    def create(spec: str) -> Path:
        (tmp_path / "match.yaml").write_text(spec)
        assert main(["new", "match.yaml"]) == 0
        capsys.readouterr()
        return tmp_path
    return create


def test_welcome_carries_the_game_in_brief_the_position_and_a_whole_order_mail(new):
    folder = new(FF)
    [welcome] = to(folder, "adams@example.org", "Welcome")
    assert "THE GAME IN BRIEF" in welcome and "Philadelphia, 1787" in welcome
    assert "The full rules, with an example of every kind of order, come in a mail of their own." in welcome
    [rules] = to(folder, "adams@example.org", "The rules of")
    assert "## Playing by mail" in rules and "```yaml" in rules
    assert "YOUR STARTING POSITION" in welcome and "YOUR HAND" in welcome and "DRAW POOL" in welcome
    envelope = welcome.index("match: ff\nplayer: adams\nkey: ")
    assert welcome.index("turn: 1\norders:", envelope) > envelope   # the envelope on top of the form


def test_german_welcome_is_german_throughout(new):
    folder = new(FF)
    [welcome] = to(folder, "jay@example.org", "Willkommen")
    assert "DAS SPIEL IN KÜRZE" in welcome and "DEINE AUSGANGSLAGE" in welcome
    assert "THE GAME IN BRIEF" not in welcome and "Verfassungs" in welcome


def test_ratsspiel_welcome_shows_the_agenda_council_and_city_values(new):
    folder = new(RAT)
    [welcome] = to(folder, "alrik@example.org", "Willkommen")
    assert "Deine geheime Agenda" in welcome and "Korruption" in welcome and "Wallgrîn von Perricum" in welcome
    [english] = to(folder, "boronian@example.org", "Welcome")
    assert "Your secret agenda" in english and "Corruption" in english and "Korruption" not in english


def test_1848_welcome_carries_its_summary_too(new):
    spec = RAT.replace("perricumer_ratsspiel", "revolution_1848").replace("id: rat", "id: rev") \
        .replace("  - {id: cordovan, name: Cordovan, email: cordovan@example.org}\n", "")
    folder = new(spec)
    [welcome] = to(folder, "alrik@example.org", "Willkommen")
    assert "DAS SPIEL IN KÜRZE" in welcome and "Ablaufkarten" in welcome
    assert "key: " in welcome and "orders:" in welcome


def test_a_game_without_a_summary_falls_back_gracefully():
    from referee.authority.matches.position import summary_text

    class Bare:
        pass

    class Broken:
        def rules_summary(self, lang):
            raise RuntimeError("no summary")

    assert summary_text(Bare(), "de") == "" and summary_text(Broken(), "en") == ""


def test_gm_and_observers_get_every_notice(new, capsys):
    folder = new(FF)
    assert main(["gm", "ff", "observer", "email=fan@example.org"]) == 0
    for command in (["pause"], ["resume"], ["extend", "by=24h"]):
        assert main(["gm", "ff", *command]) == 0
    for address in ("gm@example.org", "fan@example.org", "adams@example.org"):
        subjects = [m["Subject"] for m in mails(folder) if m["To"] == address]
        for word in ("Match paused", "Match resumed", "Deadline moved"):
            assert any(word in s for s in subjects), (address, word, subjects)


def test_an_observer_added_by_the_gm_is_welcomed(new):
    folder = new(FF)
    assert main(["gm", "ff", "observer", "email=fan@example.org", "lang=de"]) == 0
    [welcome] = to(folder, "fan@example.org", "Du verfolgst")
    assert "Zuschauer" in welcome and "DAS SPIEL IN KÜRZE" in welcome and "DIE LAGE JETZT" in welcome


def test_end_sends_final_standings_and_no_deadline(new):
    folder = new(FF)
    assert main(["gm", "ff", "end"]) == 0
    [notice] = to(folder, "adams@example.org", "Match ended")
    assert "Final standings:" in notice and "PLAYERS" in notice
    assert "Deadline" not in notice and "Awaited" not in notice and "no valid orders" not in notice
    assert to(folder, "gm@example.org", "Match ended")


def test_a_replaced_player_is_told_and_the_successor_gets_the_position(new):
    folder = new(FF)
    assert main(["gm", "ff", "replace", "seat=king", "email=new@example.org", "name=Rufus New"]) == 0
    [told] = to(folder, "king@example.org", "no longer play")
    assert '"king"' in told and "key no longer works" in told
    [welcome] = to(folder, "new@example.org", "Welcome")
    assert "THE POSITION AS YOU TAKE OVER" in welcome and "YOUR HAND" in welcome


def test_rollback_keeps_the_deadline_given_since(new, capsys):
    from referee.app.config import load
    from referee.app.wiring import open_referee
    folder = new(FF)
    assert main(["gm", "ff", "force"]) == 0
    day = (datetime.now(UTC) + timedelta(days=9)).strftime("%Y-%m-%d")
    assert main(["gm", "ff", "extend", f"until={day} 20:00"]) == 0
    assert main(["gm", "ff", "rollback"]) == 0
    assert main(["gm", "ff", "resume"]) == 0
    turn = open_referee(load(folder / "referee.yaml")).store.current_turn("ff")
    assert turn["number"] == 1 and turn["deadline"][:10] == day


def test_reminders_carry_the_whole_order_mail(new):
    from referee.app.config import load
    from referee.app.wiring import open_referee
    folder = new(FF)
    cfg = load(folder / "referee.yaml")
    later = datetime.now(UTC) + timedelta(hours=37)
    ref = open_referee(cfg, clock=lambda: later)
    ref.tick()
    from referee.app.wiring import open_sink
    ref.send_pending(open_sink(cfg))
    [reminder] = to(folder, "adams@example.org", "Reminder")
    assert "match: ff\nplayer: adams\nkey: YOUR-KEY\nturn: 1\norders:" in reminder
