"""A GM's faulty edition is refused in words, in English and German, for every game that
takes one (``contract.invalid_edition``): never Python's or pydantic's own text."""
from __future__ import annotations

import pytest

from referee.app.arena import seat_names
from referee.game_api import registry
from referee.game_api.contract import phrase

GAMES = ["founding_fathers", "nations_dice", "revolution_1848"]
PYTHON = ("dictionary update sequence", "validation error", "pydantic", "input_type", "Field required")


def _said(game: str, edition) -> dict[str, str]:
    rules = registry.get(game)
    errors = [p for p in rules.check_options(seat_names(3), {"edition": edition}) if p.is_error]
    assert len(errors) == 1, errors
    return {lang: phrase(rules, errors[0], lang) for lang in ("en", "de")}


@pytest.mark.parametrize("game", GAMES)
def test_an_edition_file_name_under_options_says_where_the_file_is_named(game):
    said = _said(game, "my_cards.yaml")
    assert "edition: my_cards.yaml" in said["en"] and "top of the match file" in said["en"]
    assert "edition: my_cards.yaml" in said["de"] and "oben in der Partiedatei" in said["de"]
    assert not any(bit in text for text in said.values() for bit in PYTHON)


@pytest.mark.parametrize("game", GAMES)
def test_an_edition_with_wrong_fields_names_them_without_pydantic_words(game):
    said = _said(game, {"name": "x", "title": "X", "bogus": 1})
    assert not any(bit in text for text in said.values() for bit in PYTHON), said
    assert "is missing" in said["en"] and "fehlt" in said["de"]
    assert said["en"].startswith("The edition is not valid: ") and said["de"].startswith("Die Edition ist ungültig: ")


@pytest.mark.parametrize("game", GAMES)
def test_an_edition_that_is_no_mapping_is_refused_in_words(game):
    said = _said(game, [1, 2])
    assert "must be a mapping" in said["en"] and "[1, 2]" in said["en"]
    assert "muss eine Zuordnung" in said["de"]


def test_a_nested_error_says_where_in_the_edition_it_is():
    said = _said("founding_fathers", {"name": "x", "title": "X", "articles": [],
                                      "delegates": [{"id": "langdon", "name": 5}]})
    assert "delegates[1]: 'name' must be a word or text, not '5'" in said["en"], said["en"]
    assert "delegates[1]: 'name' muss ein Wort oder ein Text sein" in said["de"], said["de"]
