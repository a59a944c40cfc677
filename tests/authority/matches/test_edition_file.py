"""A match file on disk names its edition file (issue 7: "a GM can point a match at
another edition file"): `referee new` reads it beside the match file, with limits, and
the match carries it; a missing or hostile edition file is refused plainly."""
from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
import yaml

from referee.authority.matches.edition_file import inline_edition
from referee.authority.matches.match_file import MatchError

MATCH = """id: nd1
game: nations_dice
gm: gm@example.org
edition: {edition}
players:
  - {{id: ada, name: Ada, email: ada@example.org}}
  - {{id: bert, name: Bert, email: bert@example.org}}
"""


def _default() -> dict:
    text = resources.files("referee_games.nations_dice").joinpath("default_edition.yaml").read_text("utf-8")
    return yaml.safe_load(text)


def test_the_named_edition_file_is_read_into_the_match(tmp_path: Path):
    own = _default()
    own["events"][0]["food"] = 9
    (tmp_path / "harsh.yaml").write_text(yaml.safe_dump(own), encoding="utf-8")
    data = inline_edition(MATCH.format(edition="harsh.yaml"), tmp_path)
    assert "edition" not in data and data["options"]["edition"]["events"][0]["food"] == 9


def test_a_game_accepts_the_edition_it_was_pointed_at(tmp_path: Path):
    from referee.game_api import registry
    own = _default()
    (tmp_path / "own.yaml").write_text(yaml.safe_dump(own), encoding="utf-8")
    data = inline_edition(MATCH.format(edition="own.yaml"), tmp_path)
    rules = registry.get("nations_dice")
    assert rules.check_options(["ada", "bert"], data["options"]) == []


def test_a_missing_edition_file_is_named(tmp_path: Path):
    with pytest.raises(MatchError) as e:
        inline_edition(MATCH.format(edition="nowhere.yaml"), tmp_path)
    assert e.value.said("en") == "edition: there is no file 'nowhere.yaml' beside the match file"
    assert e.value.said("de") == "edition: neben der Partiedatei gibt es keine Datei 'nowhere.yaml'"


@pytest.mark.parametrize("content, en, de", [
    (b"\xff\xfe", "edition: bad.yaml is not UTF-8 text", "edition: bad.yaml ist kein UTF-8-Text"),
    (b"cards: [1, 2\n", "edition: bad.yaml: Line 1, column 8: YAML syntax error",
     "edition: bad.yaml: Zeile 1, Spalte 8: YAML-Syntaxfehler"),
    (b"- just\n- a list\n", "edition: bad.yaml is not a mapping of an edition",
     "edition: bad.yaml ist keine Zuordnung einer Edition"),
])
def test_a_faulty_edition_file_is_refused_in_words_in_both_languages(tmp_path: Path, content, en, de):
    (tmp_path / "bad.yaml").write_bytes(content)
    with pytest.raises(MatchError) as e:
        inline_edition(MATCH.format(edition="bad.yaml"), tmp_path)
    assert e.value.said("en").startswith(en) and e.value.said("de").startswith(de), (e.value.said("en"), e.value.said("de"))
    assert "Error" not in e.value.said("en") and "yaml.syntax" not in e.value.said("en")


def test_a_billion_laughs_edition_file_is_refused(tmp_path: Path):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b]\n"
    (tmp_path / "bomb.yaml").write_text(bomb, encoding="utf-8")
    with pytest.raises(MatchError) as e:
        inline_edition(MATCH.format(edition="bomb.yaml"), tmp_path)
    assert "bomb.yaml" in str(e.value)


def test_a_match_file_without_an_edition_file_is_left_as_it_is(tmp_path: Path):
    text = MATCH.replace("edition: {edition}\n", "")
    assert inline_edition(text, tmp_path) == text
