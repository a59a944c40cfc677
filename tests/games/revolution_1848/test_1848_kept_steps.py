"""Issue 33 (1848): "a conditional step that did not fire is dropped, so 'answer when X happens'
works for one turn only; keep it until it fires or the player replaces the plan" — in every
case: the plan stops at ask, runs out, the trick ends; and the GM's report names the player
in a skip reason the player reads as "you"."""
import pytest
import yaml
from r1848kit import board, resolve
from test_1848_reports import _text

from referee.game_api.contract import GM, LogEntry, Rng
from referee_games.revolution_1848 import RULES

AB = ("ada", "bert")
WAIT = {"play": "PE09", "if": {"answered": "army"}}


def moves(res) -> list:
    return [(e.kind, e.data.get("player"), e.data.get("card")) for e in res.log
            if e.kind in ("played_person", "played_army", "pushed", "passed")]


def test_item7_a_conditional_step_stays_when_the_plan_stops_at_ask():
    st = board(AB, hands={"ada": ["PE09", "Z01", "Z02"], "bert": ["PE26", "Z33", "PE21"]})
    res = resolve(st, {"ada": {"steps": [WAIT, "ask"]}, "bert": {"steps": [{"play": "PE26"}, {"play": "Z33"}, "pass"]}})
    st2 = res.state
    assert RULES.awaiting(st2) == {"ada": "trick"}
    assert st2.d["kept"] == {"ada": [WAIT]}
    assert RULES.load(RULES.dump(st2)).d["kept"] == {"ada": [WAIT]}     # it survives the archive
    form = RULES.order_form(st2, "ada", "en")
    assert "  - {play: PE09, if: {answered: army}}" in form and "still waiting for its condition" in form
    assert "the steps still waiting for their condition stay in your plan" in form
    assert RULES.order_schema(st2, "trick").model_validate(yaml.safe_load(form)).plan() == [WAIT, "pass"]
    # the form with two pushes uncommented keeps the step; bert's army then brings it out
    res = resolve(st2, {"ada": {"steps": [WAIT, {"push": "Z01"}, {"push": "Z02"}, "pass"]}})
    assert moves(res)[:5] == [("pushed", "ada", None), ("played_person", "bert", "PE26"), ("pushed", "ada", None),
                              ("played_army", "bert", "Z33"), ("played_person", "ada", "PE09")]


def test_item7_a_conditional_step_stays_when_the_plan_runs_out_and_fires_next_trick_without_new_orders():
    st = board(AB, hands={"ada": ["PE09"], "bert": ["PE26", "Z33"]})
    res = resolve(st, {"ada": {"steps": [WAIT, "pass"]}, "bert": {"steps": ["pass"]}})
    st2 = res.state
    assert [e.kind for e in res.log if e.kind == "ablauf_set_aside"]     # an empty trick: the next one starts
    assert st2.d["stage"] == "trick" and st2.d["tricks"] == 2
    assert st2.d["kept"] == {"ada": [WAIT]}
    assert st2.d["players"][st2.d["trick"]["actor"]] == "bert"
    # ada sends nothing: her waiting step stays before the default pass and answers bert's army
    bert = RULES.order_schema(st2, "trick").model_validate({"steps": [{"play": "Z33"}, "pass"]})
    res = RULES.resolve(st2, {"bert": bert}, Rng(1))
    assert moves(res)[:2] == [("played_army", "bert", "Z33"), ("played_person", "ada", "PE09")]
    [dflt] = [e for e in res.log if e.kind == "orders_defaulted"]
    assert dflt.data == {"player": "ada", "kept": 1}
    assert "kept" not in res.state.d                                    # fired: nothing waits any more
    assert "the waiting step stays in the plan, otherwise pass" in _text(st2, "ada", "en", [dflt])
    assert "der wartende Schritt bleibt im Plan, sonst passen" in _text(st2, "ada", "de", [dflt])


def test_item7_a_new_plan_replaces_the_waiting_steps():
    st = board(AB, hands={"ada": ["PE09", "Z01"], "bert": ["PE26"]})
    st2 = resolve(st, {"ada": {"steps": [WAIT, "ask"]}, "bert": {"steps": ["pass"]}}).state
    assert st2.d["kept"] == {"ada": [WAIT]}
    st3 = resolve(st2, {"ada": {"steps": [{"push": "Z01"}, "pass"]}}).state
    assert "kept" not in st3.d and "kept" not in RULES.dump(st3)


def test_item7_no_kept_field_where_nothing_waits():
    """Archives of matches where no step waits replay to the same state hashes: no new field."""
    st = board(AB, hands={"ada": ["PE09", "Z01"], "bert": ["PE26"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE09"}, "ask"]}, "bert": {"steps": ["pass"]}})
    assert "kept" not in RULES.dump(res.state)


@pytest.mark.parametrize("lang,name,own,gms", [
    ("de", "Bert Mohr", "PE09 ist nicht auf deiner Hand", "PE09 ist nicht auf Bert Mohrs Hand"),
    ("de", "Hans Kraus", "PE09 ist nicht auf deiner Hand", "PE09 ist nicht auf Hans Kraus’ Hand"),
    ("en", "Bert Mohr", "PE09 is not in your hand", "PE09 is not in Bert Mohr's hand"),
])
def test_item3_the_gms_report_names_the_player_in_a_skip_reason(lang, name, own, gms):
    st = board(AB, hands={"ada": ["PE26"], "bert": ["PE09", "Z01"]}, opener=1)
    res = resolve(st, {"bert": {"steps": [{"play": "PE09"}, {"play": "PE09"}, "pass"]}, "ada": {"steps": ["pass"]}})
    skipped = [e for e in res.log if e.kind in ("plan_skipped", "plan_stopped") and e.data["skipped"]]
    assert skipped, [e.kind for e in res.log]
    entries = [LogEntry(e.kind, e.data, e.visible_to) for e in skipped]

    def text(viewer):
        from test_1848_reports import RENDERER
        ctx = {"match": {"id": "m1", "title": "1848", "game": RULES.name, "lang": lang, "timezone": "UTC"},
               "turn": 3, "viewer": viewer, "view": RULES.view(st, viewer),
               "log": [{"kind": e.kind, "data": dict(e.data)} for e in entries if e.visible_for(viewer)],
               "missing": [], "players": {"ada": {"name": "Ada Lenz"}, "bert": {"name": name}},
               "outcome": None, "order_form": "", "next": None}
        return RENDERER.game_report(RULES.name, RULES.languages, lang, ctx)[0]
    assert own in text("bert") and gms not in text("bert")
    assert gms in text(GM) and own not in text(GM)


@pytest.mark.parametrize("lang,gms", [("de", "Bert gewinnt den Stich gerade nicht"),
                                      ("en", "Bert is not winning the trick now")])
def test_item3_the_gms_report_names_the_player_who_is_not_winning(lang, gms):
    st = board(AB, hands={"ada": ["PE26"], "bert": ["PE09", "PE10"]}, opener=1)
    res = resolve(st, {"bert": {"steps": [{"play": "PE10", "if": {"winning": True}}, "ask"]},
                       "ada": {"steps": ["pass"]}})
    log = [e for e in res.log if e.kind == "plan_stopped"]
    gm = _text(st, GM, lang, log)
    assert gms in gm and "du gewinnst" not in gm and "you are not" not in gm
    assert "winning: true" in gm and "True" not in gm                  # written as the player writes it
