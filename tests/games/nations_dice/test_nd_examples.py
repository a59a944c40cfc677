"""Every worked example of seed 002, checked to the point."""
from ndkit import ED, board, dice, die, first, game, kinds, markers, play

from referee.game_api.contract import Rng
from referee_games.nations_dice import RULES
from referee_games.nations_dice.phases import score_culture


def test_orange_development_example_step_by_step():
    """R69: (1) a development with 1 orange die; (2) the die shows 2 gold; (3) with it he
    buys a development with 2 orange dice, (4) the die goes to the spent area; (5) the old
    development is replaced by the new one; (6) he gives back the die just spent; (7) he gets
    2 new orange dice and rolls them."""
    st = game()
    p = "red"
    st.d["p"][p]["devs"][0] = "granary"                                   # (1) 1 orange die
    dice(st, p, ("orange", {"gold": 2}), ("white", {"food": 1}))          # (2) o1 shows 2 gold
    markers(st, p)
    board(st, ["crete", "aqueduct", "pyramids"], ["nubia", "sinai", "moses"], ["temple", "quarry", "archers"],
          ["warriors", "granary", "scriptorium"])
    orange_before = st.d["supply"]["dice"]["orange"]
    st2, log = play(st, p, steps=[{"buy": {"tile": "aqueduct", "pay": ["o1"], "replace": 1}}])   # (3)
    bought = first(log, "bought", player=p)
    assert bought["paid"] == ["o1"] and bought["cost"] == 2 and bought["total"] == 2               # (4)
    q = st2.d["p"][p]
    assert q["devs"][0] == "aqueduct" and "granary" not in q["devs"]                               # (5)
    dev = first(log, "development", player=p)
    assert dev["returned"] == ["o1"] and die(st2, p, "o1") is None                                 # (6)
    assert [x[0] for x in dev["new"]] == ["o2", "o3"]                                              # (7)
    assert all(not die(st2, p, i)[3] and die(st2, p, i)[2] is not None for i in ("o2", "o3"))
    assert st2.d["supply"]["dice"]["orange"] == orange_before + 1 - 2
    assert kinds(log).index("bought") < kinds(log).index("development")


def test_culture_scoring_example_red_3_yellow_2_violet_and_green_0():
    """R118: Red ahead of all, Yellow ahead of Violet and Green, Violet and Green level."""
    st = game()
    d = st.d
    for p, c in {"red": 9, "yellow": 6, "violet": 4, "green": 4}.items():
        d["p"][p]["culture"], d["p"][p]["vp"] = c, 0
    log: list = []
    score_culture(d, log)
    assert {p: d["p"][p]["vp"] for p in d["order"]} == {"red": 3, "yellow": 2, "violet": 0, "green": 0}


def test_whole_faces_are_spent_and_the_surplus_is_lost():
    """R59: a die with 3 symbols paid for a tile costing 2: 1 is lost, nothing kept."""
    st = game()
    p = "red"
    dice(st, p, ("red", {"strength": 3}), ("white", {"strength": 1}))
    markers(st, p)
    board(st, ["crete", "nubia", "pyramids"], ["hammurabi", "sinai", "moses"],
          ["temple", "quarry", "archers"], ["warriors", "granary", "scriptorium"])
    st2, log = play(st, p, steps=[{"buy": {"tile": "nubia", "pay": ["r1"]}}])
    b = first(log, "bought", player=p)
    assert (b["cost"], b["total"], b["currency"]) == (2, 3, "strength")
    assert die(st2, p, "r1")[3] and not die(st2, p, "w1")[3]
    assert st2.d["p"][p]["colonies"] == ["nubia"]


def test_two_player_culture_start_is_1_and_3():
    """R28–R29: the second of two players starts on 3 instead of 2."""
    st = RULES.setup(["ada", "bert"], {}, Rng(3))
    first_, second = st.d["order"]
    assert st.d["p"][first_]["culture"] == 1 and st.d["p"][second]["culture"] == 3


def test_four_player_culture_start_is_1_2_3_4():
    st = RULES.setup(["a", "b", "c", "d"], {}, Rng(3))
    assert [st.d["p"][p]["culture"] for p in st.d["order"]] == [1, 2, 3, 4]


def test_two_player_culture_vp_is_2_per_opponent_behind():
    """R116: 2 VP per opponent further back with two players."""
    st = game(("ada", "bert"))
    st.d["p"]["ada"]["culture"], st.d["p"]["bert"]["culture"] = 5, 3
    log: list = []
    score_culture(st.d, log)
    assert (st.d["p"]["ada"]["vp"], st.d["p"]["bert"]["vp"]) == (2, 0)


def test_culture_tie_scores_nothing():
    """R117: nothing for an opponent on the same space."""
    st = game(("ada", "bert", "cleo"))
    for p in ("ada", "bert", "cleo"):
        st.d["p"][p]["culture"] = 4
    score_culture(st.d, [])
    assert all(st.d["p"][p]["vp"] == 0 for p in ("ada", "bert", "cleo"))


def test_famine_and_war_vp_equal_the_age():
    """E9: 1 / 2 / 3 / 4 VP in ages 1–4, for famine and war alike."""
    from referee_games.nations_dice.famine import feed
    from referee_games.nations_dice.phases import war
    for age in (1, 2, 3, 4):
        st = game(("ada", "bert"))
        st.d["age"] = age
        st.d["event"] = next(e for e, v in ED.events.items() if v["age"] == age)
        need_f, need_s = ED.events[st.d["event"]]["food"], ED.events[st.d["event"]]["strength"]
        markers(st, "ada", food=need_f, strength=need_s)
        dice(st, "ada")
        feed(st.d, ED, "ada", [], [])
        war(st.d, ED, [])
        assert st.d["p"]["ada"]["vp"] == 2 * age
