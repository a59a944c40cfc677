"""Issue 33, item 7 for the Ratsspiel: the final report lists no next session; plurals
are written out in both languages."""
from pr_helpers import session_state
from test_pr_render import _render

from referee.game_api.contract import Rng
from referee_games.perricumer_ratsspiel import RULES


def _final():
    s = RULES.setup(["p1", "p2"], {"members": {"p1": "alrik", "p2": "sarina"}}, Rng(1))
    st = RULES.resolve(s, {}, Rng(2)).state
    st["round"] = st["campaign"]["rounds"]
    st["influence"]["alrik"] = 15
    return RULES.resolve(st, {}, Rng(3))


def test_item7_final_report_lists_no_next_session_or_selection():
    fin = _final()
    assert fin.state["session"] or fin.state["selection"], "the state still holds what never sits"
    for lang, words in (("de", ("Nächste Sitzung", "Auswahl:")), ("en", ("Next session", "Selection:"))):
        out = _render(fin.state, fin.log, "p2", lang, fin.outcome)
        assert not any(w in out for w in words), out
    view = RULES.view(fin.state, None)["public"]
    assert view["session"] == [] and view["selection"] == []


def test_item7_rounds_below_seven_in_singular_and_plural():
    s = session_state([1], members={"p1": "alrik"})
    office = s["campaign"]["offices"][0]
    for low, de, en in ((1, "1 Runde unter 7", "1 round below 7"), (2, "2 Runden unter 7", "2 rounds below 7")):
        s["offices"][office["id"]]["low"] = low
        text_de, text_en = (_render(s, [], "p1", lang) for lang in ("de", "en"))
        assert de in text_de and en in text_en, text_de
        assert "(n)" not in text_de and "(s)" not in text_en


def test_item7_the_gms_npc_reasons_are_words_not_program_text():
    from pr_helpers import consensus_state, play

    from referee.game_api.contract import GM
    s = consensus_state()
    res = play(s, {"p1": {"aktionen": {"verwaltungsarbeit": 10, "einflussnahme": [
        {"ziel": "wallgrin", "vorschlag": 99, "richtung": "contra", "punkte": 2}]}}})
    for lang, words in (("de", "wallgrin: Gewinne pro 2, contra 0, Neigung pro, Einflussnahme contra +2, Stufe contra"),
                        ("en", "wallgrin: gains pro 2, contra 0, leaning pro, persuasion contra +2, level contra")):
        out = _render(res.state, res.log, GM, lang)
        assert words in out and "{'" not in out and "zufaellig" not in out, out
