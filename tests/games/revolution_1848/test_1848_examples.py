"""The worked examples of seed 003, each a named test, checked exactly."""
from r1848kit import ED, army, board, lay, result, zusatz

from referee_games.revolution_1848.table import assign_armies, shares
from referee_games.revolution_1848.trick import draw_all, draw_plan

P4 = ("s1", "s2", "s3", "s4")


def test_beispiel_1_player_3_scores_19_for_the_reaktionaere():
    st = board(P4)
    lay(st, "s1", "PE41")          # Wrangel, Preußen 3
    army(st, "Z33", "s1")          # Preußen 15
    lay(st, "s3", "PE35")          # Windischgrätz, Österreich 3
    army(st, "Z29", "s3")          # Österreich 17
    r = result(st)
    assert (r["kind"], r["result"], r["winner"], r["party"]) == ("military", "win", "s3", "R")
    assert r["notes"] == {"s3": {"R": 19}}            # (15 + 3 + 17 + 3) / 2


def test_beispiel_2_player_1_scores_3_red_z13_subtracted_before_halving():
    st = board(P4)
    lay(st, "s1", "PE40")          # Prinz Wilhelm, Preußen 2
    army(st, "Z33", "s1")
    army(st, "Z29", "s3")          # without a commander
    zusatz(st, "Z13", "s4")        # 18. März – Polnisches Nationalkomitee, Rot 11
    r = result(st)
    assert (r["winner"], r["party"], r["red"]) == ("s1", "R", 11)
    assert r["notes"] == {"s1": {"R": 3}}             # (15 + 2 - 11) / 2


def test_beispiel_2_army_without_commander_counts_nothing():
    st = board(P4)
    lay(st, "s1", "PE40")
    army(st, "Z33", "s1")
    army(st, "Z29", "s3")
    a = {x["card"]: x for x in assign_armies(st.d["trick"], ED, list(P4))}
    assert a["Z29"]["led"] is False and a["Z29"]["holder"] == "s3"
    assert result(st)["totals"] == {"R": 17}


def test_15_army_points_note_7():
    st = board(P4)
    lay(st, "s2", "PE41")                             # Wrangel, Preußen 3
    army(st, "Z28", "s2")                             # Österreich 12: no Austrian commander, so Wrangel
    r = result(st)
    assert r["totals"] == {"R": 15} and r["notes"] == {"s2": {"R": 7}}


def test_only_army_with_a_commander_decides_militarily():
    st = board(P4)
    lay(st, "s1", "PE09")                             # Blum DL 8
    army(st, "Z29", "s2")                             # no commander anywhere
    r = result(st)
    assert r["kind"] == "political" and r["winner"] == "s1"


def test_louis_napoleon_hecker_sigel_herweghs_sum_to_zero():
    st = board(("claudia", "vanessa"))
    lay(st, "claudia", "PE01", "PE07", "PE04")        # Hecker 6, Sigel 1, die Herweghs 2
    zusatz(st, "Z12", "vanessa", player="claudia", party="RR")
    assert shares(st.d["trick"], ED, ["claudia", "vanessa"])["claudia"] == {"RR": 0}   # 6-3 + 1-3 + 2-3


def test_schwarzenberg_and_windischgraetz_take_the_army_from_radetzky():
    st = board(P4)
    lay(st, "s1", "PE34")                             # Radetzky, Österreich 4
    army(st, "Z29", "s1")
    assert assign_armies(st.d["trick"], ED, list(P4))[0]["holder"] == "s1"
    lay(st, "s2", "PE36", "PE35")                     # Schwarzenberg 2 + Windischgrätz 3 = 5
    a = assign_armies(st.d["trick"], ED, list(P4))[0]
    assert a["holder"] == "s2" and sorted(a["commanders"]) == ["PE35", "PE36"] and a["points"] == 22


def test_deposed_commander_stays_with_the_other_player():
    st = board(P4)
    lay(st, "s1", "PE34")
    army(st, "Z29", "s1")
    lay(st, "s2", "PE36", "PE35")
    assert "PE34" in st.d["trick"]["persons"]["s1"]


def _drawn(hand: list, pref=None):
    st = board(("ada", "bert"), hands={"ada": hand})
    st.d["draw_pref"]["ada"] = pref
    before = list(st.d["hands"]["ada"])
    owe = draw_all(st.d, ED, ["ada"], [])
    new = [c for c in st.d["hands"]["ada"] if c not in before]
    return sum(1 for c in new if c in ED.persons), sum(1 for c in new if c in ED.zusatz), owe


def test_drawing_2_persons_2_zusatz_in_hand_draws_one_of_each():
    assert _drawn(["PE01", "PE02", "Z01", "Z02"]) == (1, 1, [])


def test_drawing_2_zusatz_in_hand_draws_two_and_two():
    assert _drawn(["Z01", "Z02"]) == (2, 2, [])


def test_drawing_with_5_cards_one_card_of_free_choice():
    assert _drawn(["PE01", "PE02", "Z01", "Z02", "Z03"]) == (0, 0, ["ada"])
    assert _drawn(["PE01", "PE02", "Z01", "Z02", "Z03"], "zusatz") == (0, 1, [])
    assert _drawn(["PE01", "PE02", "Z01", "Z02", "Z03"], "person") == (1, 0, [])


def test_drawing_with_3_cards_one_of_each_then_a_choice():
    assert _drawn(["PE01", "Z01", "Z02"]) == (1, 1, ["ada"])
    assert _drawn(["PE01", "Z01", "Z02"], "person") == (2, 1, [])


def test_drawing_with_6_cards_nothing():
    assert _drawn(["PE01", "PE02", "PE03", "Z01", "Z02", "Z03"]) == (0, 0, [])
    assert draw_plan(6) == (0, False)


def test_drawing_never_more_than_2_persons_and_2_zusatz():
    assert [draw_plan(n) for n in range(7)] == [(2, False), (2, False), (2, False), (1, True),
                                                 (1, False), (0, True), (0, False)]
