"""``referee schema`` prints the order documents' JSON Schema from the games'
models; ``referee check`` says offline what the referee would say of an order file."""
from __future__ import annotations

import json

import pytest
import yaml
from seekit import new_match

from referee.app.cli import main
from referee.game_api.contract import Rng

MATCH_FILE = """\
id: check-test
game: founding_fathers
lang: en
gm: gm@example.org
timezone: Europe/Berlin
schedule: {period: 48h}
players:
  - {id: adams, name: John Adams, email: adams@example.org}
  - {id: jay, name: John Jay, email: jay@example.org}
  - {id: king, name: Rufus King, email: king@example.org}
"""


def test_schema_of_a_named_stage_is_the_envelope_around_the_games_model(capsys):
    from referee_games.founding_fathers.orders import ActionOrders
    assert main(["schema", "founding_fathers", "action"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["required"] == ["match", "player", "orders"]
    assert schema["properties"]["orders"]["properties"].keys() == ActionOrders.model_json_schema()["properties"].keys()
    assert schema["additionalProperties"] is False


def test_schema_without_a_stage_gives_the_stages_the_setup_state_awaits(capsys):
    assert main(["schema", "perricumer_ratsspiel"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["title"].endswith("stage session")
    assert "set-up state awaits: session" in out.err


@pytest.mark.parametrize("argv", [["schema", "no_such_game"], ["schema", "founding_fathers", "nope"]])
def test_schema_of_an_unknown_game_or_stage_is_refused(argv, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err


@pytest.fixture
def match(tmp_path, monkeypatch):
    new_match(tmp_path, monkeypatch, MATCH_FILE)
    from referee.app.config import load
    from referee.app.wiring import open_referee
    ref = open_referee(load(tmp_path / "referee.yaml"))
    rules = ref.rules(ref.store.match("check-test"))
    return tmp_path, rules.load(ref.store.current_turn("check-test")["state"]), rules


def write(folder, orders, **envelope):
    doc = {"match": "check-test", "player": "jay", "key": "AAAA-BBBB-CCCC", "turn": 1, **envelope, "orders": orders}
    (folder / "orders.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    return str(folder / "orders.yaml")


def test_check_accepts_legal_orders_and_says_the_key_is_not_checked(match, capsys):
    folder, state, rules = match
    capsys.readouterr()
    assert main(["check", write(folder, rules.random_orders(state, "jay", Rng(1)))]) == 0
    assert "would be accepted" in capsys.readouterr().out


def test_check_names_the_line_of_a_card_not_dealt(match, capsys):
    folder, state, rules = match
    capsys.readouterr()
    dealt = state.d["dealt"]["jay"]
    foreign = next(c for c in state.d["dealt"]["king"] if c not in dealt)
    assert main(["check", write(folder, {"keep": [dealt[0], foreign]})]) == 1
    out = capsys.readouterr().out
    assert out.startswith("error: Line ") and foreign in out


def test_check_of_the_wrong_turn_says_which_is_current(match, capsys):
    folder, state, rules = match
    capsys.readouterr()
    assert main(["check", write(folder, {"keep": []}, turn=7)]) == 1
    out = capsys.readouterr().out
    assert "7" in out and "1" in out and out.startswith("error: Line 4")


def test_check_of_an_unknown_match_and_of_broken_yaml(match, capsys):
    folder, _, _ = match
    capsys.readouterr()
    assert main(["check", write(folder, {}, match="nowhere")]) == 1
    assert "nowhere" in capsys.readouterr().out
    (folder / "bad.yaml").write_text("match: check-test\nplayer: jay\norders: [unclosed\n")
    assert main(["check", str(folder / "bad.yaml")]) == 1
    assert capsys.readouterr().out.startswith("error:")


def test_check_refuses_a_huge_file_unread(match, capsys):
    folder, _, _ = match
    capsys.readouterr()
    (folder / "huge.yaml").write_text("match: check-test\n" + "#" * 300_000 + "\n")
    assert main(["check", str(folder / "huge.yaml")]) == 1
    assert capsys.readouterr().out.startswith("error:")


def test_issue33_item3_check_speaks_the_one_language_asked(match, capsys):
    folder, state, rules = match
    capsys.readouterr()
    dealt = state.d["dealt"]["jay"]
    assert main(["check", "--lang", "de", write(folder, {"keep": [dealt[0], "nobody"]})]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Fehler: Zeile ") and "error" not in out and "Line" not in out
    assert main(["check", "--lang", "de", write(folder, {"keep": dealt[:2]})]) == 0
    out = capsys.readouterr().out
    assert "würden angenommen" in out and "would be" not in out


def test_a_file_that_does_not_read_is_answered_in_the_language_of_the_seat_it_names(tmp_path, monkeypatch, capsys):
    new_match(tmp_path, monkeypatch, MATCH_FILE.replace("email: jay@example.org}", "email: jay@example.org, lang: de}"))
    capsys.readouterr()
    twice = "match: check-test\nplayer: {seat}\norders:\n  keep: [a]\n  keep: [b]\n"
    for seat, opening in (("jay", "Fehler: Zeile 5"), ("adams", "error: Line 5"), ("nobody", "error: Line 5")):
        (tmp_path / "twice.yaml").write_text(twice.format(seat=seat))
        assert main(["check", str(tmp_path / "twice.yaml")]) == 1
        assert capsys.readouterr().out.startswith(opening), seat
