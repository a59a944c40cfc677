"""1848 reports as players and the GM read them: whose private line it is, the title
once, a name ending in a period ends its sentence once, the own hand only."""
import pytest
from r1848kit import board

from referee.game_api.contract import GM, LogEntry
from referee.render.renderer import Renderer
from referee_games.revolution_1848 import RULES

RENDERER = Renderer()


def _text(state, viewer, lang, log=(), title="1848", html=False):
    ctx = {"match": {"id": "m1", "title": title, "game": RULES.name, "lang": lang, "timezone": "UTC"},
           "turn": 3, "viewer": viewer, "view": RULES.view(state, viewer),
           "log": [{"kind": e.kind, "data": dict(e.data)} for e in log if e.visible_for(viewer)],
           "missing": [], "players": {p: {"name": p.title()} for p in state.d["players"]},
           "outcome": None, "order_form": "", "next": None}
    text, page = RENDERER.game_report(RULES.name, RULES.languages, lang, ctx)
    return page if html else text


@pytest.mark.parametrize("lang,own,gms", [("de", "Du hast gezogen: ", "Ada hat gezogen: "),
                                          ("en", "You drew: ", "Ada drew: ")])
def test_gm_report_names_whose_private_draw_it_is(lang, own, gms):
    st = board(("ada", "bert"))
    log = [LogEntry("drew_cards", {"player": "ada", "cards": ["PE09"]}, frozenset({"ada"}))]
    assert own in _text(st, "ada", lang, log)
    gm = _text(st, GM, lang, log)
    assert gms in gm and own not in gm
    assert "PE09" not in _text(st, "bert", lang, log)


def test_the_title_is_not_repeated():
    st = board(("ada", "bert"))
    assert _text(st, "ada", "de").startswith("1848 — Zug 3")
    assert _text(st, "ada", "de", title="Frankfurter Runde").startswith("1848 — Frankfurter Runde — Zug 3")


@pytest.mark.parametrize("html", [False, True])
def test_a_name_ending_in_a_period_ends_the_sentence_once(html):
    st = board(("ada", "bert"))
    log = [LogEntry("drew_cards", {"player": "ada", "cards": ["PE33"]}, frozenset({"ada"}))]
    text = _text(st, "ada", "de", log, html=html)
    assert "Friedrich Wilhelm IV." in text and "IV.." not in text


def test_the_report_shows_the_own_hand_and_the_tallies():
    st = board(("ada", "bert"), hands={"ada": ["PE09"], "bert": ["PE26"]})
    st.d["tally"]["bert"]["L"] = 7
    text = _text(st, "ada", "de")
    assert "DEINE HAND\n  PE09 Robert Blum (Demokraten 8)" in text and "Simson" not in text
    assert "Bert: Republikaner 0, Demokraten 0, Liberale 7, Reaktionäre 0" in text
