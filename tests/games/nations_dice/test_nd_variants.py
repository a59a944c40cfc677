"""The accelerated variant (R151–R160) and the solo game (R161–R174)."""
from ndkit import ED, board, dice, errors, first, game, markers, play

from referee.game_api.contract import Rng
from referee_games.nations_dice import RULES
from referee_games.nations_dice.flow import _solo_d4
from referee_games.nations_dice.state import hall_of_fame


# --- accelerated
def accelerated():
    st = game(("a", "b"), variant="accelerated")
    st.d["event"] = "drought"                              # food 2
    markers(st, "a", food=1)
    markers(st, "b", food=2)
    dice(st, "a", ("white", {"gold": 1}), ("white", {"stone": 1}), ("white", {"book": 1}))
    return st


def test_accelerated_food_trade_is_decided_with_the_pass():
    st = accelerated()
    st2, log = play(st, "a", steps=[{"pass": {"food_trade": [["w1", "w2"]]}}])
    assert st2.d["p"]["a"]["food_trade"] == [["w1", "w2"]]
    hidden = next(e for e in log if e.kind == "food_trade_hidden")
    assert hidden.visible_to == frozenset({"a"})


def test_accelerated_food_trade_is_hidden_from_the_others_until_all_passed():
    st = accelerated()
    st2, _ = play(st, "a", steps=[{"pass": {"food_trade": [["w1", "w2"]]}}])
    assert RULES.view(st2, "a")["private"]["food_trade"] == [["w1", "w2"]]
    assert "food_trade" not in RULES.view(st2, "b")["private"]
    assert all(not x[3] for x in st2.d["p"]["a"]["dice"])   # the dice still look available
    dice(st2, "b")
    st3, log = play(st2, "b", steps=["pass"])
    assert first(log, "food_trades_revealed")["trades"]["a"] == [["w1", "w2"]]
    f = first(log, "famine", player="a")
    assert f["vp"] == 1 and f["revealed"]


def test_accelerated_books_are_all_spent_except_the_traded_dice():
    st = accelerated()
    dice(st, "a", ("white", {"book": 1}), ("white", {"book": 1}), ("white", {"gold": 1}))
    st2, _ = play(st, "a", steps=[{"pass": {"food_trade": [["w1", "w3"]]}}])
    dice(st2, "b")
    _, log = play(st2, "b", steps=["pass"])
    assert first(log, "books", player="a")["books"] == 1


def test_accelerated_wasted_food_trade_is_refused():
    st = accelerated()
    assert errors(st, "a", steps=[{"pass": {"food_trade": [["w1", "w2"], ["w3", "w1"]]}}]) == ["trade.twice"]
    markers(st, "a", food=2)
    assert errors(st, "a", steps=[{"pass": {"food_trade": [["w1", "w2"]]}}]) == ["famine.surplus"]


def test_accelerated_no_stage_for_books_or_famine():
    st = accelerated()
    st2, _ = play(st, "a", steps=[{"pass": {"food_trade": "auto"}}])
    dice(st2, "b")
    st3, _ = play(st2, "b", steps=["pass"])
    assert set(st3.d["waiting"].values()) == {"plan"} and st3.d["age"] == 2


def test_food_trade_in_the_original_variant_is_only_a_warning():
    st = game(("a", "b"))
    from ndkit import problems
    probs = problems(st, "a", steps=[{"pass": {"food_trade": "auto"}}])
    assert [p.code for p in probs if p.code == "food_trade.ignored"] and not [p for p in probs if p.is_error]


# --- solo
def test_solo_setup_three_columns_both_on_culture_1_player_starts():
    st = RULES.setup(["ada"], {}, Rng(9))
    d = st.d
    assert len(d["board"]) == 3 and d["order"] == ["ada"] and d["p"]["ada"]["culture"] == 1
    assert d["solo"]["culture"] >= 1


def test_solo_blue_dice_move_the_opponent_by_books_only():
    from referee_games.nations_dice.phases import start_age
    st = game(("ada",))
    st.d["age"], st.d["solo"]["culture"] = 1, 1
    log: list = []
    start_age(st.d, ED, Rng(5), log)
    e = first(log, "opponent_culture")
    assert len(e["dice"]) == 2 and e["books"] == sum(f.get("book", 0) for f in e["dice"])
    assert st.d["solo"]["culture"] == 1 + e["books"]


def test_solo_d4_removes_the_cheapest_tile_of_its_column():
    st = game(("ada",))
    board(st, [None, "aqueduct", "pyramids"], ["nubia", "sinai", "moses"], ["temple", "quarry", "archers"])
    for seed in range(50):
        log: list = []
        d = {"board": [list(c) for c in st.d["board"]], "hard": False}
        _solo_d4(d, Rng(seed), log)
        r = log[0][1]["rolls"][-1]
        if r == 1:
            assert d["board"][0] == [None, None, "pyramids"] and log[0][1]["removed"] == "aqueduct"
        elif r == 4:
            assert log[0][1]["removed"] is None and d["board"] == st.d["board"]


def test_solo_hard_mode_rolls_a_4_again():
    for seed in range(80):
        log: list = []
        _solo_d4({"board": [["a"], ["b"], ["c"]], "hard": True}, Rng(seed), log)
        rolls = log[0][1]["rolls"]
        assert rolls[-1] != 4 and all(x == 4 for x in rolls[:-1])


def test_solo_no_d4_after_a_pass():
    st = game(("ada",))
    _, log = play(st, "ada", steps=["pass"])
    assert "solo_d4" not in [e.kind for e in log]


def test_solo_d4_after_an_action():
    st = game(("ada",))
    markers(st, "ada", reroll=1)
    _, log = play(st, "ada", steps=["reroll", "ask"])
    assert "solo_d4" in [e.kind for e in log]


def test_solo_two_vp_when_ahead_of_the_opponent():
    from referee_games.nations_dice.phases import score_culture
    st = game(("ada",))
    st.d["p"]["ada"]["culture"], st.d["solo"]["culture"] = 5, 4
    score_culture(st.d, [])
    assert st.d["p"]["ada"]["vp"] == 2


def test_hall_of_fame_highest_entry_not_above_the_score():
    assert hall_of_fame(50) == "Trajan" and hall_of_fame(34) == "Saladin" and hall_of_fame(10) == "Dan Quayle"
    assert hall_of_fame(9) is None


def test_solo_final_outcome_names_the_hall_of_fame_rank():
    from referee_games.nations_dice.phases import end_game
    st = game(("ada",))
    st.d["p"]["ada"]["vp"] = 26
    assert end_game(st.d, ED, [])["hall_of_fame"] == "Victoria"
