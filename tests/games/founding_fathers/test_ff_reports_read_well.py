"""Founding Fathers reports and forms as a player and a GM read them (issue #10):
the GM is told whose private draw each line is, the form says how many cards the
refill takes, the unchanged pre-filled form is not a silent pass, the final report
shows the awarded end bonus, titles do not repeat, and "Jr." ends a sentence once."""
from __future__ import annotations

import pytest
from ffkit import board  # noqa: E402  (tests/games/founding_fathers is on sys.path via rootdir conftest)

from referee.game_api.contract import GM, LogEntry, Rng, derive_seed
from referee.render.renderer import Renderer
from referee_games.founding_fathers import RULES

RENDERER = Renderer()
SEATS = ["madison", "paterson", "sherman"]


def _ctx(state, viewer, lang, log=(), outcome=None, title="Founding Fathers"):
    return {"match": {"id": "ff1", "title": title, "game": RULES.name, "lang": lang, "timezone": "UTC"},
            "turn": 3, "viewer": viewer, "view": RULES.view(state, viewer),
            "log": [{"kind": e.kind, "data": dict(e.data)} for e in log if e.visible_for(viewer)],
            "missing": [], "players": {p: {"name": p.title()} for p in SEATS},
            "outcome": outcome, "order_form": "", "next": None}


def _text(state, viewer, lang, **kw):
    return RENDERER.game_report(RULES.name, RULES.languages, lang, _ctx(state, viewer, lang, **kw))[0]


@pytest.mark.parametrize("lang,own,gms", [("en", "You took: ", "Sherman took: "),
                                          ("de", "Du hast genommen: ", "Sherman hat genommen: ")])
def test_gm_report_names_whose_private_take_it_is(lang, own, gms):
    st = board()
    log = [LogEntry("took_cards", {"player": "sherman", "cards": ["sherman"]}, frozenset({"sherman"}))]
    assert own in _text(st, "sherman", lang, log=log)
    gm = _text(st, GM, lang, log=log)
    assert gms in gm and own not in gm


def test_gm_report_has_no_since_your_last_turn_section():
    st = board()
    assert RULES.view(st, GM)["public"]["since_last_turn"] == []
    assert RULES.view(st, None)["public"]["since_last_turn"] == []


def test_title_equal_to_the_game_name_is_not_repeated():
    st = board()
    text = _text(st, "madison", "en")
    assert "Founding Fathers — Founding Fathers" not in text and "FOUNDING FATHERS — Founding Fathers" not in text
    assert "FOUNDING FATHERS — Philadelphia — turn 3" in _text(st, "madison", "en", title="Philadelphia")


def test_a_name_ending_in_a_period_ends_the_sentence_once():
    st = board()
    lansing = next(c for c, card in st.ed.cards.items() if card.name.endswith("Jr."))
    log = [LogEntry("snub", {"player": "madison", "cards": [lansing]})]
    for lang in ("en", "de"):
        text = _text(st, "madison", lang, log=log)
        assert "Jr.." not in text and "Jr." in text


@pytest.mark.parametrize("lang,during,final", [("en", "END BONUS IF THE GAME ENDED NOW", "END BONUS\n"),
                                               ("de", "BONUS, FALLS DAS SPIEL JETZT ENDETE", "SCHLUSSBONUS\n")])
def test_final_report_shows_the_end_bonus_not_a_forecast(lang, during, final):
    st = board()
    assert during in _text(st, "madison", lang)
    done = _text(st, "madison", lang, outcome={"winners": ["madison"], "scores": {p: 1 for p in SEATS}})
    assert during not in done and final in done


@pytest.mark.parametrize("lang,words", [("en", "as many cards as you need to hold 3 again"),
                                        ("de", "bis du wieder 3 hast")])
def test_form_says_the_refill_follows_the_action(lang, words):
    form = RULES.order_form(board(), "madison", lang)
    assert words in form and "you will take 0 card" not in form


def test_the_prefilled_form_sent_back_unchanged_is_a_pass_with_a_warning():
    st = board()
    form = RULES.order_form(st, "madison", "en")
    import yaml
    orders = RULES.order_schema(st, "action").model_validate(yaml.safe_load(form))
    problems = RULES.validate(st, "madison", orders)
    assert [p.code for p in problems if p.code == "snub.nothing"] == ["snub.nothing"]
    assert not any(p.is_error for p in problems)
    assert "pass" in RULES.messages["snub.nothing"]["en"] and "Passen" in RULES.messages["snub.nothing"]["de"]


@pytest.mark.parametrize("lang,line", [("en", "  Defaulted orders: Paterson, Sherman\n"),
                                       ("de", "  Standardbefehle für: Paterson, Sherman\n")])
def test_the_seats_whose_orders_were_defaulted_are_listed_with_commas(lang, line):
    ctx = dict(_ctx(board(), "madison", lang), missing=["paterson", "sherman"])
    assert line in RENDERER.game_report(RULES.name, RULES.languages, lang, ctx)[0]


@pytest.mark.parametrize("lang, one_point, points, one_card", [
    ("en", "(James Madison): 1 point;", "(William Paterson): 2 points;", "DECK: 1 card (top:"),
    ("de", "(James Madison): 1 Punkt;", "(William Paterson): 2 Punkte;", "DECK: 1 Karte (oben:"),
])
def test_one_point_and_one_card_are_counted_in_the_singular(lang, one_point, points, one_card):
    st = board()
    st.d["scores"].update(madison=1, paterson=2)
    st.d["deck"] = st.d["deck"][:1]
    text = _text(st, "madison", lang)
    assert one_point in text and points in text and one_card in text, text
    log = [LogEntry("committee_resolved", {"winner": "madison", "points": 1, "tied": False})]
    said = _text(st, "madison", lang, log=log)
    assert ("Madison scores 1 point." if lang == "en" else "Madison erhält 1 Punkt.") in said, said


@pytest.mark.parametrize("lang, none, two", [
    ("en", "Madison snubs no delegate.", "Madison snubs 2 delegates: "),
    ("de", "Madison wirft keinen Delegierten ab.", "Madison wirft 2 Delegierte ab: "),
])
def test_an_empty_snub_reads_as_none_not_as_zero(lang, none, two):
    st = board()
    cards = st.d["deck"][:2]
    assert none in _text(st, "madison", lang, log=[LogEntry("snub", {"player": "madison", "cards": []})])
    assert two in _text(st, "madison", lang, log=[LogEntry("snub", {"player": "madison", "cards": cards})])
