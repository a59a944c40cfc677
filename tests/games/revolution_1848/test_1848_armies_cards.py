"""Seed 003's army rules and the rules for Zusatzkarten, each a named test."""
from r1848kit import ED, army, board, lay, result, zusatz

from referee_games.revolution_1848.actions import do_step, step_problems
from referee_games.revolution_1848.table import assign_armies, military, person_value

P4 = ("ada", "bert", "cleo", "dora")


def holders(st) -> dict:
    return {a["card"]: a["holder"] for a in assign_armies(st.d["trick"], ED, list(st.d["players"]))}


def test_armies_are_shuffled_into_the_zusatz_stack():
    from referee.game_api.contract import Rng
    from referee_games.revolution_1848 import RULES
    st = RULES.setup(list(P4), {}, Rng(7))
    d = st.d
    zus = d["zusatz_deck"] + [c for h in d["hands"].values() for c in h if c.startswith("Z")]
    assert {f"Z{n}" for n in range(28, 35)} <= set(zus) and len(zus) == 34


def test_army_follows_a_commander_of_its_own_flag_first():
    st = board(P4)
    lay(st, "ada", "PE41")          # Wrangel, Preußen 3
    lay(st, "bert", "PE34")         # Radetzky, Österreich 4 (stronger)
    army(st, "Z33", "cleo")         # Preußen
    assert holders(st) == {"Z33": "ada"}


def test_without_a_commander_of_its_flag_the_army_goes_by_strength_alone():
    st = board(P4)
    lay(st, "ada", "PE34")          # Österreich 4
    lay(st, "bert", "PE41")         # Preußen 3
    army(st, "Z34", "cleo")         # Bund: no Bund commander
    assert holders(st) == {"Z34": "ada"}


def test_the_strongest_commander_chooses_first():
    st = board(P4)
    lay(st, "ada", "PE34")          # Radetzky 4
    lay(st, "bert", "PE35")         # Windischgrätz 3
    army(st, "Z28", "cleo")         # Österreich 12
    army(st, "Z29", "dora")         # Österreich 17
    assert holders(st) == {"Z28": "bert", "Z29": "ada"}


def test_equal_commanders_at_different_players_the_army_player_decides():
    st = board(P4)
    lay(st, "ada", "PE40")          # Prinz Wilhelm, Preußen 2
    lay(st, "bert", "PE42")         # Peucker, Bund 2
    army(st, "Z28", "cleo", to="bert")
    assert holders(st) == {"Z28": "bert"}


def test_equal_commanders_without_a_choice_go_clockwise_from_the_army_player():
    st = board(P4)
    lay(st, "ada", "PE40")
    lay(st, "bert", "PE42")
    army(st, "Z28", "cleo")         # cleo → dora → ada
    assert holders(st) == {"Z28": "ada"}


def test_with_as_many_armies_as_commanders_each_commander_leads_one():
    st = board(P4)
    lay(st, "ada", "PE34", "PE35")  # Radetzky 4 and Windischgrätz 3, one command of 7
    army(st, "Z29", "bert")         # Österreich 17
    a = assign_armies(st.d["trick"], ED, list(P4))
    assert [(x["holder"], x["commanders"], x["points"]) for x in a] == [("ada", ["PE34", "PE35"], 24)]
    army(st, "Z28", "cleo")         # Österreich 12: now the command splits
    a = {x["card"]: (x["holder"], x["commanders"], x["points"]) for x in assign_armies(st.d["trick"], ED, list(P4))}
    assert a == {"Z29": ("ada", ["PE34"], 21), "Z28": ("ada", ["PE35"], 15)}


def test_kroatien_adds_5_to_a_black_yellow_commander_also_of_the_opponent():
    st = board(P4)
    lay(st, "ada", "PE35")          # Windischgrätz 3
    assert step_problems(st.d, ED, "bert", {"play": "Z15", "on": "PE35"}) == [("card.not_in_hand", {"card": "Z15"})]
    st.d["hands"]["bert"].append("Z15")
    st.d["zusatz_deck"].remove("Z15")
    assert step_problems(st.d, ED, "bert", {"play": "Z15", "on": "PE35"}) == []
    do_step(st.d, ED, "bert", {"play": "Z15", "on": "PE35"}, [])
    assert military(st.d["trick"], ED, "PE35") == 8


def test_kroatien_refused_on_a_prussian_commander():
    st = board(P4, hands={"bert": ["Z15"]})
    lay(st, "ada", "PE41")
    assert step_problems(st.d, ED, "bert", {"play": "Z15", "on": "PE41"})[0][0] == "target.flag"


def test_armies_of_one_party_add_up_across_flags_and_the_stronger_army_scores_all():
    st = board(P4)
    lay(st, "ada", "PE41")
    army(st, "Z32", "ada")          # Preußen 8 + 3 = 11
    lay(st, "bert", "PE34")
    army(st, "Z28", "bert")         # Österreich 12 + 4 = 16
    r = result(st)
    assert r["totals"] == {"R": 27} and r["notes"] == {"bert": {"R": 13}}


def test_stronger_party_wins_between_armies_of_different_parties():
    st = board(P4)
    lay(st, "ada", "PE08")          # Mierosławski, RR, Bund 3
    army(st, "Z34", "ada")          # Bund 10 → RR 13
    lay(st, "bert", "PE40")         # Prinz Wilhelm, Preußen 2
    army(st, "Z32", "bert")         # Preußen 8 → R 10
    r = result(st)
    assert (r["winner"], r["party"], r["notes"]) == ("ada", "RR", {"ada": {"RR": 6}})


def test_red_cards_do_not_touch_an_army_under_the_bund_flag():
    st = board(P4)
    lay(st, "ada", "PE42")          # Peucker, R, Bund 2
    army(st, "Z34", "ada")          # Bund 10 → 12
    zusatz(st, "Z13", "bert")       # Rot 11
    assert result(st)["notes"] == {"ada": {"R": 6}}


def test_negative_army_result_is_noted_at_the_strongest_reactionary_army():
    st = board(P4)
    lay(st, "ada", "PE41")
    army(st, "Z32", "ada")          # 8 + 3 = 11
    zusatz(st, "Z13", "bert")       # Rot 11
    zusatz(st, "Z22", "cleo")       # Rot 6
    r = result(st)
    assert r["winner"] == "ada" and r["notes"] == {"ada": {"R": -3}}    # (11 - 17) / 2 rounded down


def test_zusatzkarten_never_aim_at_a_commander():
    st = board(P4, hands={"bert": ["Z18"]})
    lay(st, "ada", "PE41")
    assert step_problems(st.d, ED, "bert", {"play": "Z18", "on": "PE41"})[0][0] == "target.commander"


def test_lola_montez_takes_a_commander_out_of_the_game():
    st = board(P4, hands={"bert": ["Z11"]})
    lay(st, "ada", "PE34")
    army(st, "Z29", "ada")
    do_step(st.d, ED, "bert", {"play": "Z11", "on": "PE34"}, [])
    assert "PE34" in st.d["out"] and st.d["trick"]["persons"]["ada"] == []
    assert assign_armies(st.d["trick"], ED, list(P4))[0]["led"] is False


def test_bauernaufstand_hits_a_commander_value_and_military():
    st = board(P4)
    lay(st, "ada", "PE34")          # Radetzky 3, Österreich 4
    zusatz(st, "Z25", "bert", on="PE34")
    t = st.d["trick"]
    assert (person_value(t, ED, "ada", "PE34"), military(t, ED, "PE34")) == (1, 2)


def test_red_cards_hurt_only_the_reaction():
    st = board(P4, hands={"bert": ["Z25", "Z13"]})
    lay(st, "ada", "PE09", "PE34")              # Blum (DL), Radetzky (R)
    assert step_problems(st.d, ED, "bert", {"play": "Z25", "on": "PE09"})[0][0] == "target.party"
    assert step_problems(st.d, ED, "bert", {"play": "Z25", "on": "PE34"}) == []
    assert step_problems(st.d, ED, "bert", {"play": "Z13"}) == []           # red value only, no target


def test_party_cards_leave_out_commanders():
    st = board(P4)
    lay(st, "ada", "PE08", "PE01")  # Mierosławski (commander) and Hecker
    zusatz(st, "Z12", "bert", player="ada", party="RR")
    t = st.d["trick"]
    assert (person_value(t, ED, "ada", "PE08"), person_value(t, ED, "ada", "PE01")) == (3, 3)


def test_the_card_pairs_cancel_when_they_meet():
    st = board(P4, hands={"ada": ["Z07"], "bert": ["Z24"]})
    lay(st, "ada", "PE01")
    do_step(st.d, ED, "ada", {"play": "Z07", "on": "PE01"}, [])
    assert person_value(st.d["trick"], ED, "ada", "PE01") == 9
    log = []
    do_step(st.d, ED, "bert", {"play": "Z24", "on": "PE01"}, log)
    assert person_value(st.d["trick"], ED, "ada", "PE01") == 6 and log[1][0] == "paired"


def test_a_zusatzkarte_needs_a_person_on_the_table_first():
    st = board(P4, hands={"ada": ["Z03", "Z29", "PE01"]})
    assert step_problems(st.d, ED, "ada", {"play": "Z03", "on": "PE01"})[0][0] == "play.opening"
    assert step_problems(st.d, ED, "ada", {"play": "Z29"}) == []        # armies "jederzeit"
    assert step_problems(st.d, ED, "ada", {"play": "PE01"}) == []


def test_a_party_card_needs_its_party_and_side():
    st = board(P4, hands={"ada": ["Z12"]})
    lay(st, "bert", "PE01")
    assert step_problems(st.d, ED, "ada", {"play": "Z12", "player": "ada"})[0][0] == "target.side"
    assert step_problems(st.d, ED, "ada", {"play": "Z12", "player": "bert", "party": "L"})[0][0] == "target.party_fixed"
    assert step_problems(st.d, ED, "ada", {"play": "Z12", "player": "bert"}) == []
