"""Issue 10, step 4: every message key and report word exists in English and
German, and a report in one language carries no game words of the other
(proper names aside)."""
from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from refkit import random_turn

from referee.game_api import registry
from referee.game_api.contract import Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.render.renderer import REPO_TEMPLATES, Renderer

LANGS = ("en", "de")
# Mails written once in both languages, or language-neutral wrappers that switch on `lang`.
BILINGUAL = {"stranger.en.txt.j2", "report_html.en.html.j2"}


def fields(text: str) -> set[str]:
    """The placeholders of a message; ``x_de``, ``x_en`` are the forms of ``x`` in one language."""
    return {name.removesuffix("_de").removesuffix("_en") for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_referee_mail_exists_in_english_and_german():
    names = {p.name for p in (REPO_TEMPLATES / "mail").glob("*.j2")} - BILINGUAL
    for name in sorted(names):
        for lang in LANGS:
            twin = re.sub(r"\.(en|de)\.", f".{lang}.", name)
            assert twin in names, f"templates/mail/{name} has no {lang} twin"


def test_every_authority_problem_has_both_languages_and_the_same_fields():
    from referee.authority.wording import TEXTS
    for code, texts in TEXTS.items():
        assert set(texts) >= set(LANGS), code
        assert fields(texts["en"]) == fields(texts["de"]), code


def test_every_intake_problem_has_both_languages_and_the_same_fields():
    from referee.intake.messages import MESSAGES
    for code, texts in MESSAGES.items():
        assert set(texts) >= set(LANGS), code
        assert fields(" ".join(texts["en"])) == fields(" ".join(texts["de"])), code


GAMES = ["founding_fathers", "perricumer_ratsspiel", "nations_dice", "revolution_1848"]


def test_every_installed_game_is_checked_here():
    assert sorted(GAMES) == sorted(registry.names())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_message_has_both_languages_and_the_same_fields(game):
    rules = registry.get(game)
    for code, texts in rules.messages.items():
        assert set(texts) >= set(LANGS), f"{game}: {code}"
        assert fields(texts["en"]) == fields(texts["de"]), f"{game}: {code}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_summary_exists_in_both_languages(game):
    rules = registry.get(game)
    en, de = rules.rules_summary("en"), rules.rules_summary("de")
    assert en and de and en != de


# Words of one language that a report in the other must not hold (whole words).  1848 keeps its
# card kinds' German names (Ablaufkarte, Zusatzkarte) in English as the game's terms (its README).
GERMAN = ("Korruption", "Verwaltungsarbeit", "Wahlkampf", "Einflussnahme", "Standardaktion", "Sitzung",
          "Abgabeschluss", "erwartet", "Zug", "Runde", "Spieler", "Befehle", "keine", "nicht", "und", "oder",
          "Stadtwerte", "Ämter", "Einfluss", "Zeitalter", "Würfel", "Wunder", "Nahrung", "Stärke", "Kultur",
          "Stich", "Patt", "Heerführer", "Armee", "Armeen", "Siegpunkte", "Stimmen", "Tisch", "passt")
ENGLISH = ("Corruption", "administration", "campaigning", "persuasion", "deadline", "awaiting", "turn",
           "round", "player", "orders", "none", "the", "and", "or", "city values", "offices", "influence",
           "age", "dice", "wonder", "food", "strength", "culture", "action", "keeping cards",
           "trick", "stalemate", "commander", "army", "armies", "victory points", "votes", "table", "passes")
TABLES = {"founding_fathers": (["ada", "bert", "cleo"], {}), "perricumer_ratsspiel": (["alrik", "boronian", "cordovan"], {}),
          "nations_dice": (["ada", "bert"], {}), "revolution_1848": (["ada", "bert", "cleo"], {})}


def proper_names(game: str, state, rules) -> set[str]:
    """Names a report may show in any language: the campaign's people, quarters and estates
    (the Ratsspiel's), the delegates and states (Founding Fathers), the tiles (Nations)."""
    names: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in ("name", "title_de", "viertel", "schicht", "holder") and isinstance(inner, str):
                    names.add(inner)
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)
    walk(rules.dump(state))
    return names


def reports(game: str, lang: str, turns: int = 3):
    rules = registry.get(game)
    players, options = TABLES[game]
    state = rules.setup(players, options, Rng(derive_seed("lang", "setup")))
    rand = random_player(rules)
    renderer = Renderer()
    out = []
    for number in range(1, turns + 1):
        res = random_turn(rules, state, rand, "lang", number)
        state = res.state
        for viewer in (*players, None, "@gm"):
            ctx = {"match": {"id": "m", "title": rules.title, "game": game, "lang": lang, "timezone": "UTC"},
                   "turn": number, "viewer": viewer, "view": rules.view(state, viewer),
                   "log": [{"kind": e.kind, "data": e.data} for e in res.log if e.visible_for(viewer)],
                   "missing": [], "players": {p: {"name": p.title()} for p in players}, "outcome": res.outcome,
                   "order_form": "", "next": None}
            text, _ = renderer.game_report(game, rules.languages, lang, ctx)
            out.append(text)
        if res.outcome:
            break
    return out, proper_names(game, state, rules)


def foreign_words(text: str, names: set[str], words) -> list[str]:
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return sorted({w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)})


@pytest.mark.parametrize("game", GAMES)
def test_english_reports_carry_no_german_game_words(game):
    texts, names = reports(game, "en")
    found = sorted({w for t in texts for w in foreign_words(t, names, GERMAN)})
    assert not found, f"{game}: German words in English reports: {found}"
    assert foreign_words("\n".join(texts), names, ENGLISH)   # the check sees the report's own words


@pytest.mark.parametrize("game", GAMES)
def test_german_reports_carry_no_english_game_words(game):
    texts, names = reports(game, "de")
    found = sorted({w for t in texts for w in foreign_words(t, names, ENGLISH)})
    assert not found, f"{game}: English words in German reports: {found}"
    assert foreign_words("\n".join(texts), names, GERMAN)   # the check sees the report's own words


_LABELS = re.compile(r"set L = (\{.*?\}) -%\}", re.S)


@pytest.mark.parametrize("game", GAMES)
def test_every_html_report_label_exists_in_both_languages(game):
    """The HTML reports' word tables (``set L = {...}``) name the same words in en and de."""
    keys = {}
    for lang in LANGS:
        # the table stands in the report, or in the ``_labels.<lang>.j2`` it imports (one object a process)
        source = (REPO_TEMPLATES / game / f"report.{lang}.html.j2").read_text(encoding="utf-8")
        if f'"{game}/_labels.{lang}.j2" import' in source:
            source = (REPO_TEMPLATES / game / f"_labels.{lang}.j2").read_text(encoding="utf-8")
        found = _LABELS.search(source)
        assert found, f"{game}: no label table for the {lang} HTML report"
        keys[lang] = set(re.findall(r'"(\w+)":', found.group(1)))
    assert keys["en"] == keys["de"] and keys["en"], (keys["en"] ^ keys["de"])
