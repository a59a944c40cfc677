"""Issue 36: the Ratsspiel's choices for the clickable order page.  In positions of
matches played with random orders, every value offered (each phase of the session,
the round-one card picks, the GM's stage) makes orders the session takes without a
Standardaktion, with labels in English and German in the report's words."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from choicekit import label_problems, refusals, schema_paths

from referee.app.conformance import play
from referee.game_api.contract import FAULT, GM, Rng
from referee_games.perricumer_ratsspiel import RULES
from referee_games.perricumer_ratsspiel.orders import CARDS, GmOrders, SessionOrders
from referee_games.perricumer_ratsspiel.page_words import PAGE_WORDS

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "perricumer_ratsspiel"
HOW = {"required": {"aktionen.einflussnahme.*": ("ziel", "vorschlag", "richtung"), "neue_vorschlaege.*": ("kind",)},
       "fixed": {"neue_vorschlaege.*": {"title_de": "Neuer Brunnen"}},
       "counts": {"ereigniskarten.*": 3, "neue_vorschlaege.*.candidates.*": 2}}


def _bad(problem) -> bool:
    """Refused, replaced by a Standardaktion, or (the GM's) set aside."""
    return problem.is_error or problem.code.startswith((FAULT, "gm."))


def positions(seed: str, players: list[str], gm_orders: bool = False) -> list:
    states = []
    states.append(RULES.setup(players, {"gm_orders": gm_orders}, Rng(1)))
    play(RULES, players, seed, on_turn=lambda st, _: states.append(st), options={"gm_orders": gm_orders})
    return states


@pytest.fixture(scope="module")
def matches():
    return [positions("pr-choices-a", ["ada", "bert", "cleo"]),
            positions("pr-choices-b", ["ada", "bert"], gm_orders=True),
            positions("pr-choices-c", ["ada", "bert", "cleo", "dora", "emil"])]


def test_every_offered_value_is_taken_without_a_standardaktion(matches):
    seen: set[str] = set()
    checked = 0
    for states in matches:
        for s in states:
            for player, stage in RULES.awaiting(s).items():
                lang = "en" if checked % 2 else "de"
                assert refusals(RULES, s, player, stage, lang, _bad, **HOW) == []
                seen |= {re.sub(r"\.\d+$", ".<nr>", p) for p in RULES.order_choices(s, player, lang)}
                checked += 1
    # every phase and every field of a card, an influence and a new proposal came up
    assert {"ereigniskarten.*", "ereigniskarte.karte", "ereigniskarte.ziel", "ereigniskarte.viertel",
            "ereigniskarte.schicht", "ereigniskarte.vorschlag", "ereigniskarte.seite",
            "ereigniskarte.abstimmung.<nr>", "aktionen.verwaltungsarbeit", "aktionen.wahlkampf",
            "aktionen.einflussnahme.*.ziel", "aktionen.einflussnahme.*.richtung", "abstimmung.<nr>",
            "auswahl", "nachziehen.*", "neue_vorschlaege.*.office", "agenda_veroeffentlichen.*"} <= seen
    assert checked > 40


def test_labels_in_english_and_german(matches):
    for states in matches:
        for s in states[::3]:
            for player in RULES.awaiting(s):
                assert label_problems(RULES, s, player) == []


def _report_names(lang: str) -> dict[str, str]:
    text = (TEMPLATES / f"_names.{lang}.j2").read_text()
    card_macro = text[text.index("macro karte"):]
    return dict(re.findall(r'"(\w+)": "([^"]+)"', card_macro.split("}}")[0]))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_card_labels_use_the_reports_card_names(matches, lang):
    names = _report_names(lang)
    s = matches[0][0]
    offered = RULES.order_choices(s, "ada", lang)["ereigniskarten.*"]
    assert [e["value"] for e in offered] == list(CARDS)
    for e in offered:
        assert e["label"].startswith(names[e["value"]] + ":"), (e, names[e["value"]])


def test_nothing_offered_to_a_seat_that_owes_nothing(matches):
    for states in matches:
        owed = RULES.awaiting(states[-1])
        assert owed == {}            # the match is over
        for player in [*states[-1]["players"], GM]:
            assert RULES.order_choices(states[-1], player, "de") == {}
    s = matches[0][1]                 # a match without GM orders: the GM owes nothing
    assert GM not in RULES.awaiting(s) and RULES.order_choices(s, GM, "en") == {}
    assert RULES.order_choices(s, "zora", "en") == {}     # no seat at all



def test_the_phases_are_named_for_the_page_on_fields_of_the_order_schemas():
    fields = schema_paths(SessionOrders) | schema_paths(GmOrders)
    named = {code.split(".", 1)[1] for code in PAGE_WORDS if code.startswith("field.")}
    assert named <= fields
    assert {"ereigniskarten", "ereigniskarte", "aktionen", "abstimmung", "auswahl"} <= named
    assert all(set(texts) == {"de", "en"} and all(texts.values()) for texts in PAGE_WORDS.values())
