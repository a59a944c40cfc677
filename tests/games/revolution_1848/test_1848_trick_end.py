"""What happens at the end of a trick and between tricks, each a named test."""
from r1848kit import ED, board, kinds, resolve

from referee.game_api.contract import Rng
from referee_games.revolution_1848 import RULES

AB = ("ada", "bert")


def test_the_winner_opens_the_next_trick():
    st = board(AB, hands={"ada": ["PE26"], "bert": ["PE09"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, "pass"]}, "bert": {"steps": [{"play": "PE09"}, "pass"]}})
    d = res.state.d
    assert d["won"]["bert"] == ["A01"] and d["players"][d["trick"]["opener"]] == "bert"


def test_the_first_opener_is_drawn_by_lot():
    openers = {RULES.setup(["ada", "bert", "cleo"], {}, Rng(seed)).d["trick"]["opener"] for seed in range(12)}
    assert openers == {0, 1, 2}


def test_each_player_starts_with_two_persons_and_two_zusatzkarten():
    st = RULES.setup(["ada", "bert", "cleo", "dora"], {}, Rng(3))
    for hand in st.d["hands"].values():
        assert sum(c in ED.persons for c in hand) == 2 and sum(c in ED.zusatz for c in hand) == 2


def test_cards_left_in_hand_are_kept_after_the_trick():
    st = board(AB, hands={"ada": ["PE26", "Z06"], "bert": ["PE09"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, "pass"]}, "bert": {"steps": [{"play": "PE09"}, "pass"]}})
    assert "Z06" in res.state.d["hands"]["ada"]


def test_played_persons_and_zusatzkarten_go_under_their_stacks():
    st = board(AB, hands={"ada": ["PE26", "Z03"], "bert": ["PE09", "PE01", "PE02"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, {"play": "Z03", "on": "PE26"}, "pass"]},
                       "bert": {"steps": [{"play": "PE09"}, "pass"]}})
    d = res.state.d
    assert d["persons_deck"][:2] == ["PE09", "PE26"] and d["zusatz_deck"][0] == "Z03"


def test_lola_montez_victim_stays_out_of_the_game_after_the_trick():
    st = board(AB, hands={"ada": ["PE26", "Z11"], "bert": ["PE09", "PE01"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, {"play": "Z11", "on": "PE09"}, "pass"]},
                       "bert": {"steps": [{"play": "PE09"}, "pass"]}})
    d = res.state.d
    assert "PE09" in d["out"] and "PE09" not in d["persons_deck"] and "Z11" in d["zusatz_deck"]
    assert d["won"]["ada"] == ["A01"]


def test_the_card_pairs_leave_the_game_after_the_trick():
    st = board(AB, hands={"ada": ["PE21", "Z09"], "bert": ["PE26", "Z21"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE21"}, {"play": "Z09", "on": "PE21"}, "pass"]},
                       "bert": {"steps": [{"play": "PE26"}, {"play": "Z21", "on": "PE21"}, "pass"]}})
    d = res.state.d
    assert {"Z09", "Z21"} <= set(d["out"]) and not {"Z09", "Z21"} & set(d["zusatz_deck"])
    assert d["last_result"]["totals"] == {"L": 9}          # Gagern 7 + Simson 2: neither card counts


def test_the_army_player_chooses_between_equal_commanders_in_the_order():
    st = board(("ada", "bert", "cleo"), hands={"ada": ["PE40"], "bert": ["PE42"], "cleo": ["Z28", "PE01"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE40"}]}, "bert": {"steps": [{"play": "PE42"}]},
                       "cleo": {"steps": [{"play": "Z28", "to": "bert"}]}})
    armies = res.state.d["trick"]["armies"]
    assert armies == [{"card": "Z28", "by": "cleo", "to": "bert"}]
    view = RULES.view(res.state, None)["public"]["table"]
    assert [a["card"] for a in view[1]["armies"]] == ["Z28"]


def test_condition_winning_false_plays_on_only_when_behind():
    st = board(AB, hands={"ada": ["PE26", "PE21"], "bert": ["PE09"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, {"play": "PE21", "if": {"winning": False}}, "pass"]},
                       "bert": {"steps": [{"play": "PE09"}, "pass"]}})
    assert res.state.d["last_result"]["winner"] == "ada"      # behind 2:8, so Gagern came: L 9
    st = board(AB, hands={"ada": ["PE09", "PE21"], "bert": ["PE26"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE09"}, {"play": "PE21", "if": {"winning": False}}, "pass"]},
                       "bert": {"steps": [{"play": "PE26"}, "pass"]}})
    assert "PE21" in res.state.d["hands"]["ada"]              # ahead: the step fell through


def test_the_fourth_patt_in_a_row_sets_the_ablaufkarte_aside():
    st = board(AB, hands={"ada": ["PE26"], "bert": ["PE04"]})
    st.d["patts"] = 3
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, "pass"]}, "bert": {"steps": [{"play": "PE04"}, "pass"]}})
    d = res.state.d
    assert d["set_aside"] == ["A01"] and d["ablauf"][0] == "A02" and d["patts"] == 0
    assert d["tally"]["ada"]["L"] == 2                        # the Patt still scores


def test_the_draw_choice_is_a_stage_with_the_obvious_default():
    st = board(AB, hands={"ada": ["PE26", "Z01", "Z02", "Z03"], "bert": ["PE09"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, "pass"]}, "bert": {"steps": [{"play": "PE09"}, "pass"]}})
    assert RULES.awaiting(res.state) == {"ada": "draw"}       # 3 cards: 1 + 1, then a choice
    assert RULES.default_orders(res.state, "ada").draw == "person"
    after = RULES.resolve(res.state, {}, Rng(2))
    assert "trick_started" in kinds(after) and len(after.state.d["hands"]["ada"]) == 6


def test_the_draw_choice_said_in_the_plan_needs_no_stage():
    st = board(AB, hands={"ada": ["PE26", "Z01", "Z02", "Z03"], "bert": ["PE09"]})
    res = resolve(st, {"ada": {"steps": [{"play": "PE26"}, "pass"], "draw": "zusatz"},
                       "bert": {"steps": [{"play": "PE09"}, "pass"]}})
    hand = res.state.d["hands"]["ada"]
    assert RULES.awaiting(res.state) == {"ada": "trick", "bert": "trick"}
    assert (sum(c in ED.persons for c in hand), sum(c in ED.zusatz for c in hand)) == (1, 5)
