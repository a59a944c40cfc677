"""Issue #10: 1848 has a rules summary for the welcome mail like the other games,
in English and German, short, and saying what the rules we play by say (BASE-RULES.md,
seed 003): the numbers in it are the game's own constants."""
from __future__ import annotations

from referee.game_api import registry
from referee_games.revolution_1848.state import DRAW_MAX, HAND_MAX, TO_WIN


def test_the_summary_is_short_and_in_both_languages():
    rules = registry.get("revolution_1848")
    en, de = rules.rules_summary("en"), rules.rules_summary("de")
    assert en != de and rules.rules_summary("fr") == en
    for text in (en, de):
        assert len(text.splitlines()) <= 30 and max(len(line) for line in text.splitlines()) <= 80


def test_the_summary_says_what_the_rules_say():
    rules = registry.get("revolution_1848")
    en, de = (" ".join(rules.rules_summary(lang).split()) for lang in ("en", "de"))
    assert f"up to {HAND_MAX} cards (at most {DRAW_MAX} persons and {DRAW_MAX} Zusatzkarten)" in en
    assert f"auf bis zu {HAND_MAX} Karten nach (höchstens {DRAW_MAX} Personen- und {DRAW_MAX} Zusatzkarten)" in de
    assert f"won {TO_WIN[2]} Ablaufkarten (2 players), {TO_WIN[3]} (3) or {TO_WIN[4]} (4)" in en
    assert f"{TO_WIN[2]} Ablaufkarten gewonnen hat (2 Spieler), {TO_WIN[3]} (3) oder {TO_WIN[4]} (4)" in de
    assert "5 victory points" in en and "4, 3, 2 and 1" in en and "counted half" in en
    assert "5 Siegpunkte" in de and "4, 3, 2 und 1" in de and "halb zählen" in de
    assert "Without orders you pass" in en and "Ohne Befehl passt du" in de


def test_the_welcome_mail_carries_it():
    from referee.render.renderer import Renderer
    rules = registry.get("revolution_1848")
    subject, text = Renderer().mail(
        "welcome", "de", match={"id": "m", "title": "1848", "game": rules.name, "lang": "de", "timezone": "UTC"},
        player={"id": "ada", "name": "Ada"}, key="K", turn=1, order_form="", deadline=None,
        address="r@x.org", summary=rules.rules_summary("de"), replaced=False, position="")
    assert "DAS SPIEL IN KÜRZE" in text and "Stich um Stich um die Ablaufkarten" in text
