"""Issue 33 for 1848: problems in one language and in words, values in any letter case, a
step that can never run refused at submission, a conditional step that waits until it
fires, and the report's and picture's words between tricks."""
import pytest
from r1848kit import board, lay
from test_1848_reports import _text

from referee.game_api.contract import LogEntry, Rng, phrase
from referee.intake import Document, check_orders, read_text
from referee_games.revolution_1848 import RULES

AB = ("ada", "bert")


def checked(st, player, orders_yaml: str):
    doc = read_text(f"match: m\nplayer: {player}\norders:\n{orders_yaml}")
    assert isinstance(doc, Document), doc
    stage = RULES.awaiting(st)[player]
    return check_orders(RULES, st, stage, player, doc.data["orders"], doc)


def test_item2_a_step_in_german_is_read_and_a_slip_answered_in_words():
    st = board(AB, hands={"ada": ["PE34", "Z08"], "bert": ["PE26"]})
    model, problems = checked(st, "ada", "  steps:\n    - {spielen: PE34}\n    - passen\n")
    assert model is not None and model.plan()[0] == {"play": "PE34"}
    _, problems = checked(st, "ada", "  steps:\n    - {play: PF34}\n    - pas\n    - {play: Z08, if: {answerd: L}}\n")
    texts = [p.text["en"] for p in problems] + [p.text["de"] for p in problems]
    assert not any("{'" in t or "if_" in t or "Step" in t for t in texts), texts
    by_where = {p.where: p.text for p in problems}
    assert "Did you mean 'pass'?" in by_where["orders.steps.1"]["en"]
    assert "Meintest du 'answered'?" in by_where["orders.steps.2.if.answerd"]["de"]
    assert "Did you mean 'PE34'?" in by_where["orders.steps.0.play"]["en"]   # the game's own check, same mail


def test_item3_a_failing_step_is_explained_in_the_readers_language_only():
    st = board(AB, hands={"ada": ["PE09", "Z08"], "bert": ["PE26"]})
    model = RULES.order_schema(st, "trick").model_validate({"steps": [{"play": "Z08", "on": "PE09"}, "pass"]})
    fail = next(p for p in RULES.validate(st, "ada", model) if p.code == "plan.would_fail")
    de, en = phrase(RULES, fail, "de"), phrase(RULES, fail, "en")
    assert "Solange keine Person ausliegt" in de and "Until a person" not in de
    assert "Until a person lies on the table" in en and "Solange" not in en


def test_item5_words_in_any_letter_case_and_the_canonical_value_used():
    st = board(AB, hands={"ada": ["PE01", "Z01", "Z02", "Z03", "Z04"]})
    st.d["stage"], st.d["awaiting"] = "draw", ["ada"]
    model, problems = checked(st, "ada", "  draw: Zusatz\n")
    assert model.draw == "zusatz" and not problems
    st = board(AB, hands={"ada": ["PE09", "Z12", "Z29"], "bert": ["PE26"]})
    lay(st, "bert", "PE01")
    model, problems = checked(st, "ada", "  steps:\n    - {play: z12, player: Bert, party: rr}\n"
                                         "    - {play: Z29, to: BERT}\n    - PASS\n  draw: PERSON\n")
    assert not [p for p in problems if p.is_error], problems
    assert model.plan() == [{"play": "Z12", "player": "bert", "party": "RR"}, {"play": "Z29", "to": "bert"}, "pass"]
    assert model.draw == "person"


def test_item7_a_zusatzkarte_aimed_at_a_commander_is_refused_at_submission():
    st = board(AB, hands={"ada": ["Z08", "PE09"], "bert": ["PE35"]})
    model, problems = checked(st, "ada", "  steps:\n    - {play: Z08, on: PE35}\n    - pass\n")
    assert model is None
    [p] = [p for p in problems if p.is_error]
    assert p.code == "step.never" and p.where == "orders.steps.0.on" and p.line == 5
    assert "nie ausgeführt" in p.text["de"] and "Heerführer" in p.text["de"] and "commander" not in p.text["de"]
    assert "never be carried out" in p.text["en"] and "commander" in p.text["en"]
    _, problems = checked(st, "ada", "  steps:\n    - {play: Z08}\n")   # no target at all: never either
    assert [p.code for p in problems if p.is_error] == ["step.never"]


def test_item7_a_conditional_step_waits_until_its_condition_holds():
    st = board(AB, hands={"ada": ["PE09", "Z01", "Z02"], "bert": ["PE26", "Z33", "PE21"]})
    plans = {"ada": {"steps": [{"play": "PE09", "if": {"answered": "army"}}, {"push": "Z01"}, {"push": "Z02"}]},
             "bert": {"steps": [{"play": "PE26"}, {"play": "Z33"}, {"play": "PE21"}, "pass"]}}
    orders = {p: RULES.order_schema(st, "trick").model_validate(o) for p, o in plans.items()}
    res = RULES.resolve(st, orders, Rng(1))
    moves = [(e.kind, e.data.get("player"), e.data.get("card")) for e in res.log
             if e.kind in ("pushed", "played_person", "played_army")]
    assert moves[:5] == [("pushed", "ada", None), ("played_person", "bert", "PE26"), ("pushed", "ada", None),
                         ("played_army", "bert", "Z33"), ("played_person", "ada", "PE09")]
    skipped = [e.data for e in res.log if e.kind == "plan_skipped"]
    assert skipped and all(s["skipped"][0]["kept"] for s in skipped)
    text = _text(st, "ada", "de", [e for e in res.log if e.kind == "plan_skipped"])
    assert "bleibt im Plan" in text


def test_item8_the_picture_never_calls_an_empty_table_patt():
    st = board(AB, hands={"ada": ["PE09"], "bert": ["PE26"]})
    for lang, empty in (("de", "noch leer"), ("en", "still empty")):
        svg = RULES.picture(RULES.view(st, None), lang)
        assert empty in svg and "Patt" not in svg and "stalemate" not in svg
    st.d["stage"], st.d["awaiting"] = "draw", ["ada"]
    st.d["last_result"] = {"kind": "political", "result": "empty", "winner": None, "party": None, "totals": {},
                           "notes": {}}
    svg = RULES.picture(RULES.view(st, None), "de")
    assert "So endete der letzte Stich" in svg and "leerer Stich" in svg and "Patt" not in svg


def test_item8_between_tricks_the_report_names_the_coming_trick():
    st = board(AB, hands={"ada": ["PE01", "Z01", "Z02", "Z03", "Z04"]})
    st.d["stage"], st.d["awaiting"], st.d["tricks"] = "draw", ["ada"], 2
    st.d["ablauf"] = st.d["ablauf"][2:]          # A01 and A02 are decided: A03 comes next
    assert _text(st, "ada", "de").startswith("1848 — Zug 3, Stich 3 um A03")
    assert _text(st, "ada", "en").startswith("1848 — turn 3, trick 3 for A03")


@pytest.mark.parametrize("lang,listed", [("de", "erwartet: Ada (Plan), Bert (Plan)"),
                                         ("en", "awaiting: Ada (plan), Bert (plan)")])
def test_item8_the_awaited_are_listed_with_commas(lang, listed):
    st = board(AB, hands={"ada": ["PE09"], "bert": ["PE26"]})
    from referee.render.renderer import Renderer
    ctx = {"match": {"id": "m1", "title": "1848", "game": RULES.name, "lang": lang, "timezone": "UTC"},
           "turn": 3, "viewer": "ada", "view": RULES.view(st, "ada"), "log": [], "missing": [],
           "players": {p: {"name": p.title()} for p in AB}, "outcome": None, "order_form": "",
           "next": {"turn": 4, "deadline_local": None, "awaiting": {"ada": "trick", "bert": "trick"}}}
    text, _ = Renderer().game_report(RULES.name, RULES.languages, lang, ctx)
    assert listed in text


@pytest.mark.parametrize("lang,one,many", [("de", "Ada zieht 1 Personenkarte und 2 Zusatzkarten.", "(n)"),
                                           ("en", "Ada draws 1 person card and 2 Zusatzkarten.", "(s)")])
def test_item8_plurals_written_out(lang, one, many):
    st = board(AB)
    text = _text(st, "ada", lang, [LogEntry("drew", {"player": "ada", "persons": 1, "zusatz": 2, "choice": False})])
    assert one in text and many not in text
