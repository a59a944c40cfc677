"""English Ratsspiel reports and forms speak English (issue #10): the German game words
Korruption, Verwaltungsarbeit, Wahlkampf and Einflussnahme appear only as the order keys
the player must write, in parentheses after the English word."""
from __future__ import annotations

import re

import pytest
from test_pr_html import SEATS, SNAPSHOTS, context, render  # noqa: E402  (same folder)

from referee.game_api.contract import GM

GERMAN = re.compile(r"Korruption|Verwaltungsarbeit|Wahlkampf|Einflussnahme")


def _outside_key_hints(text: str) -> list[str]:
    """German game words that are not an order key hint like '(verwaltungsarbeit)'."""
    return [m.group(0) for m in GERMAN.finditer(text)]


@pytest.mark.parametrize("snap", range(len(SNAPSHOTS)))
@pytest.mark.parametrize("viewer", [SEATS[0], None, GM])
def test_english_report_has_no_german_game_words(snap, viewer):
    turn, state, result = SNAPSHOTS[snap]
    text, body = render(context(state, result, viewer, "en", turn), "en")
    assert _outside_key_hints(text) == [] and _outside_key_hints(body) == []


@pytest.mark.parametrize("snap", range(len(SNAPSHOTS)))
def test_german_report_keeps_the_german_game_words(snap):
    turn, state, result = SNAPSHOTS[snap]
    text, _ = render(context(state, result, SEATS[0], "de", turn), "de")
    assert "Korruption" in text


def test_english_messages_name_the_german_key_only_in_parentheses():
    from referee_games.perricumer_ratsspiel import RULES
    for code, texts in RULES.messages.items():
        assert _outside_key_hints(texts.get("en", "")) == [], code
