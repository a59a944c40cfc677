"""A trick through the contract: plans, pushing, coming back in, Patt, the end
by player count and the final scoring."""
import pytest
from r1848kit import ED, board, errors, kinds, lay, problems, resolve

from referee.game_api.contract import Rng
from referee_games.revolution_1848 import RULES
from referee_games.revolution_1848.state import TO_WIN
from referee_games.revolution_1848.trick import final_scores

AB = ("ada", "bert")


def test_blum_with_z08_beats_simson_with_z03_and_notes_the_party_strength():
    st = board(AB, hands={"ada": ["PE09", "Z08"], "bert": ["PE26", "Z03"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE09"}, {"play": "Z08", "on": "PE09"}, "pass"]},
                       "bert": {"steps": [{"play": "PE26"}, {"play": "Z03", "on": "PE26"}, "pass"]}})
    d = res.state.d
    assert d["last_result"]["winner"] == "ada" and d["last_result"]["totals"] == {"DL": 10, "L": 3}
    assert d["tally"]["ada"]["DL"] == 10 and d["tally"]["bert"]["L"] == 0
    assert d["won"]["ada"] == ["A01"] and d["ablauf"][0] == "A02"


def test_plan_step_with_a_condition_runs_when_someone_answers_with_a_liberal():
    st = board(AB, hands={"ada": ["PE09", "Z08"], "bert": ["PE26"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE09"}, {"play": "Z08", "on": "PE09", "if": {"answered": "L"}},
                                         "pass"]},
                       "bert": {"steps": [{"play": "PE26"}, "pass"]}})
    assert res.state.d["last_result"]["totals"]["DL"] == 10


def test_plan_step_whose_condition_fails_falls_through_to_the_next():
    st = board(AB, hands={"ada": ["PE09", "Z08"], "bert": ["PE10"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE09"}, {"play": "Z08", "on": "PE09", "if": {"answered": "L"}},
                                         "pass"]},
                       "bert": {"steps": [{"play": "PE10"}, "pass"]}})
    assert res.state.d["last_result"]["totals"] == {"DL": 13}
    assert "Z08" in res.state.d["hands"]["ada"]


def test_a_used_up_plan_asks_the_player():
    st = board(AB, hands={"ada": ["PE09", "PE01"], "bert": ["PE26", "PE21"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE09"}]}, "bert": {"steps": [{"play": "PE26"}]}})
    assert RULES.awaiting(res.state) == {"ada": "trick"} and "asked" in kinds(res)


def test_ask_stops_the_plan():
    st = board(AB, hands={"ada": ["PE09", "PE01"], "bert": ["PE26"]})
    res = resolve(st, {"ada": {"steps": ["ask", {"play": "PE09"}]}, "bert": {"steps": ["pass"]}})
    stopped = [e for e in res.log if e.kind == "plan_stopped"]
    assert stopped[0].data["asked"] is True and stopped[0].visible_to == frozenset({"ada"})


def test_validate_previews_which_step_would_run_now():
    st = board(AB, hands={"ada": ["PE09", "Z08"], "bert": ["PE26"]})
    warn = problems(st, "ada", steps=[{"play": "Z08", "on": "PE09"}, {"play": "PE09"}])
    assert [(w.code, w.where) for w in warn] == [("plan.would_fail", "steps.0"), ("plan.would_run", "steps.1")]
    assert "Person" in warn[0].params["why"]["de"] and "person" in warn[0].params["why"]["en"]


def test_validate_tells_a_player_who_is_not_next_that_the_plan_waits():
    st = board(AB, hands={"ada": ["PE09"], "bert": ["PE26"]})
    warn = problems(st, "bert", steps=[{"play": "PE26"}])
    assert [(w.code, w.params) for w in warn] == [("plan.later", {"actor": "ada"})]


def test_refused_a_card_not_in_hand():
    st = board(AB, hands={"ada": ["PE09"]})
    errs = errors(st, "ada", steps=[{"play": "PE01"}])
    assert [(e.code, e.where) for e in errs] == [("card.not_in_hand", "steps.0")]
    assert RULES.messages["card.not_in_hand"]["de"].format(card="PE01") == "PE01 ist nicht auf deiner Hand."


def test_refused_an_unknown_card_and_player():
    st = board(AB, hands={"ada": ["Z29"]})
    assert errors(st, "ada", steps=[{"play": "X99"}])[0].code == "card.unknown"
    assert errors(st, "ada", steps=[{"play": "Z29", "to": "zed"}])[0].code == "player.unknown"


def test_refused_fields_that_do_not_fit_the_card():
    st = board(AB, hands={"ada": ["PE09", "Z29", "Z12"]})
    assert [(e.code, e.where) for e in errors(st, "ada", steps=[{"play": "PE09", "on": "PE01"}])] == [
        ("step.fields", "steps.0.on")]
    assert errors(st, "ada", steps=[{"play": "Z29", "to": "bert"}]) == []
    assert errors(st, "ada", steps=[{"play": "Z12", "on": "PE01"}])[0].code == "step.fields"
    assert errors(st, "ada", steps=[{"push": "Z29", "to": "bert"}])[0].code == "step.fields"


def test_hostile_plan_is_capped_at_30_steps():
    from pydantic import ValidationError
    with pytest.raises(ValidationError):
        RULES.order_schema(board(AB), "trick").model_validate({"steps": ["pass"] * 31})


def test_push_puts_the_card_under_its_stack_and_keeps_the_player_in():
    st = board(AB, hands={"ada": ["PE09", "Z01"], "bert": ["PE26"]})
    res = resolve(st, {"ada": {"steps": [{"push": "Z01"}]}, "bert": {"steps": [{"play": "PE26"}]}})
    d = res.state.d
    assert d["zusatz_deck"][0] == "Z01" and "ada" not in d["trick"]["passed"]
    assert RULES.awaiting(res.state) == {"ada": "trick"}
    assert [e.visible_to for e in res.log if e.kind == "pushed_card"] == [frozenset({"ada"})]


def test_item7_push_as_often_as_the_hand_allows():
    """Seed B2 sets no limit on pushing; each push spends a hand card, so a trick still ends."""
    st = board(AB, hands={"ada": ["PE09", "Z01", "Z02"], "bert": ["PE26", "PE21"]})
    res = resolve(st, {"ada": {"steps": [{"push": "Z01"}]}, "bert": {"steps": [{"play": "PE26"}]}})
    warn = RULES.validate(res.state, "ada", RULES.order_schema(res.state, "trick").model_validate(
        {"steps": [{"push": "Z02"}, "pass"]}))
    assert [(w.code, w.params.get("step")) for w in warn] == [("plan.would_run", 1)]
    res = resolve(st, {"ada": {"steps": [{"push": "Z01"}, {"push": "Z02"}, {"push": "PE09"}]},
                       "bert": {"steps": [{"play": "PE26"}, {"play": "PE21"}, "pass"]}})
    assert sum(1 for e in res.log if e.kind == "pushed") == 3 and any(e.kind == "trick_result" for e in res.log)


def test_an_army_brings_the_passed_players_back():
    st = board(("ada", "bert", "cleo"), hands={"ada": ["PE41", "PE01"], "bert": ["PE09"], "cleo": ["Z33", "PE26"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE41"}, "pass"]}, "bert": {"steps": ["pass"]},
                       "cleo": {"steps": [{"play": "PE26"}, {"play": "Z33"}]}})
    back = [e.data for e in res.log if e.kind == "back_in"]
    assert back == [{"players": ["bert", "ada"], "card": "Z33"}]
    assert RULES.awaiting(res.state) == {"ada": "trick"}


def test_a_card_with_the_alarm_bell_brings_the_passed_players_back():
    st = board(AB, hands={"ada": ["PE09", "Z01"], "bert": ["PE26"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE09"}, {"play": "Z01", "on": "PE09"}]},
                       "bert": {"steps": ["pass"]}})
    assert [e.data["players"] for e in res.log if e.kind == "back_in"] == [["bert"]]


def test_patt_equal_parties_everyone_involved_notes_and_the_same_ablauf_is_replayed():
    st = board(AB, hands={"ada": ["PE26"], "bert": ["PE04"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, "pass"]}, "bert": {"steps": [{"play": "PE04"}, "pass"]}})
    d = res.state.d
    assert d["last_result"]["result"] == "patt" and d["last_result"]["why"] == "parties"
    assert (d["tally"]["ada"]["L"], d["tally"]["bert"]["RR"]) == (2, 2)
    assert d["ablauf"][0] == "A01" and d["patts"] == 1
    assert d["players"][d["trick"]["opener"]] == "bert"      # left of ada, who passed first


def test_patt_when_nobody_holds_the_majority_of_the_strongest_party():
    st = board(AB, hands={"ada": ["PE26"], "bert": ["PE30"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, "pass"]}, "bert": {"steps": [{"play": "PE30"}, "pass"]}})
    r = res.state.d["last_result"]
    assert (r["result"], r["why"], r["notes"]) == ("patt", "majority", {"ada": {"L": 2}, "bert": {"L": 2}})


def test_an_empty_trick_sets_the_ablaufkarte_aside():
    st = board(AB, hands={"ada": ["PE26"], "bert": ["PE30"]})
    res = resolve(st, {"ada": {"steps": ["pass"]}, "bert": {"steps": ["pass"]}})
    assert res.state.d["set_aside"] == ["A01"] and res.state.d["ablauf"][0] == "A02"


def test_armies_leave_the_game_and_the_rest_goes_under_the_stacks():
    st = board(AB, hands={"ada": ["PE41", "Z33"], "bert": ["PE26"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE41"}, {"play": "Z33"}, "pass"]},
                       "bert": {"steps": [{"play": "PE26"}, "pass"]}})
    d = res.state.d
    assert "Z33" in d["out"] and "Z33" not in d["zusatz_deck"]
    assert {"PE41", "PE26"} <= set(d["persons_deck"]) or {"PE41", "PE26"} & set(sum(d["hands"].values(), []))


def test_a_missed_deadline_passes():
    st = board(AB, hands={"ada": ["PE09"], "bert": ["PE26"]})
    assert RULES.default_orders(st, "ada").plan() == ["pass"]
    res = RULES.resolve(st, {}, Rng(1))
    assert kinds(res).count("orders_defaulted") == 2


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_game_ends_when_a_player_has_won_enough_ablaufkarten(n):
    players = ("ada", "bert", "cleo", "dora")[:n]
    st = board(players, hands={"ada": ["PE09"]})
    st.d["won"]["ada"] = list(ED.ablauf)[10:10 + TO_WIN[n] - 1]
    res = resolve(st, {p: {"steps": ([{"play": "PE09"}] if p == "ada" else []) + ["pass"]} for p in players})
    assert RULES.awaiting(res.state) == {} and res.outcome is not None
    assert len(res.state.d["won"]["ada"]) == {2: 6, 3: 5, 4: 4}[n]


def test_one_short_of_the_target_the_game_goes_on():
    st = board(("ada", "bert", "cleo"), hands={"ada": ["PE09", "PE01"]})
    st.d["won"]["ada"] = ["A10", "A11", "A12"]
    res = resolve(st, {p: {"steps": ([{"play": "PE09"}] if p == "ada" else []) + ["pass"]} for p in ("ada", "bert", "cleo")})
    assert res.outcome is None and len(res.state.d["won"]["ada"]) == 4


def _tally(**by_player):
    d = {"players": list(by_player), "tally": {}}
    for p, t in by_player.items():
        d["tally"][p] = {"RR": 0, "DL": 0, "L": 0, "R": 0, **t}
    return d


def test_final_absolute_majority_gives_5_to_its_strongest_holder_and_0_to_all_others():
    fs = final_scores(_tally(ada={"R": 20}, bert={"DL": 5, "R": 2}, cleo={"L": 3}))
    assert fs["majority"] == "R" and fs["vp"] == {"ada": 5, "bert": 0, "cleo": 0}


def test_final_without_majority_4_3_2_1_by_party_rank():
    fs = final_scores(_tally(ada={"DL": 10, "R": 4}, bert={"L": 8}, cleo={"RR": 6}))
    assert fs["majority"] is None and fs["vp"] == {"ada": 5, "bert": 3, "cleo": 2}


def test_final_a_party_at_0_gives_no_points():
    fs = final_scores(_tally(ada={"DL": 10}, bert={"L": 8}, cleo={"RR": 6, "R": -2}))
    assert fs["vp"] == {"ada": 4, "bert": 3, "cleo": 2}


def test_final_tied_holders_each_score():
    fs = final_scores(_tally(ada={"DL": 5}, bert={"DL": 5}, cleo={"RR": 7, "L": 4}))
    assert fs["vp"] == {"ada": 4, "bert": 4, "cleo": 5}


def test_winner_ties_on_victory_points_broken_by_ablaufkarten():
    st = board(AB, hands={"ada": ["PE09"]})
    st.d["tally"]["bert"]["L"] = 8                        # DL 8 (Blum) and L 8: equal parties share rank 1
    st.d["won"]["bert"] = ["A10"]
    st.d["won"]["ada"] = ["A11", "A12", "A13", "A14", "A15"]
    res = resolve(st, {"ada": {"steps": [{"play": "PE09"}, "pass"]}, "bert": {"steps": ["pass"]}})
    assert res.outcome["scores"] == {"ada": 4, "bert": 4} and res.outcome["winners"] == ["ada"]
