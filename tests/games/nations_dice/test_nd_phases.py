"""Rolling, the plan walk, books, famine, turn order, war and the end of the game."""
from ndkit import ED, board, dice, errors, event, first, game, markers, play, problems

from referee.game_api.contract import Rng
from referee_games.nations_dice import RULES
from referee_games.nations_dice.famine import must_decide
from referee_games.nations_dice.phases import end_game, new_order, war


# --- rolling (R46)
def test_only_the_start_player_has_rolled_when_the_age_begins():
    st = RULES.setup(["a", "b", "c"], {}, Rng(4))
    first_p = st.d["order"][0]
    assert st.d["waiting"] == {first_p: "plan"}
    assert all(x[2] is not None for x in st.d["p"][first_p]["dice"])
    assert all(x[2] is None for p in st.d["order"][1:] for x in st.d["p"][p]["dice"])


def test_a_players_dice_are_rolled_when_his_first_action_comes_up():
    st = game(("a", "b"))
    st2, log = play(st, "a", steps=["pass"])
    assert first(log, "rolled")["player"] == "b" and st2.d["waiting"] == {"b": "plan"}
    assert "rolled" not in [e.kind for e in log if e.data.get("player") == "a"]


# --- the plan (follow_plan)
def test_first_legal_step_runs_earlier_failing_steps_are_dropped_later_kept():
    st = game(("a", "b"))
    board(st, ["crete", "aqueduct", "pyramids"], ["nubia", "sinai", "moses"], ["temple", "quarry", "archers"])
    markers(st, "a", gold=1, reroll=1)
    dice(st, "a", ("white", {"food": 1}))
    st2, log = play(st, "a", steps=[{"buy": {"tile": "aqueduct"}}, {"buy": {"tile": "temple"}}, "reroll", "pass"])
    assert first(log, "step_failed")["what"] == "buy aqueduct"
    assert first(log, "bought")["tile"] == "temple"
    assert [s["do"] for s in st2.d["p"]["a"]["plan"]] == ["reroll", "pass"]


def test_the_failed_step_is_told_only_to_its_player():
    st = game(("a", "b"))
    markers(st, "a")
    dice(st, "a", ("white", {"food": 1}))
    _, log = play(st, "a", steps=["reroll", "pass"])
    e = next(e for e in log if e.kind == "step_failed")
    assert e.visible_to == frozenset({"a"})


def test_ask_stops_the_plan_and_asks_for_new_orders():
    st = game(("a", "b"))
    st2, log = play(st, "a", steps=["ask", "pass"])
    assert st2.d["waiting"] == {"a": "plan"} and first(log, "asked")["why"] == "ask"


def test_a_used_up_plan_asks_the_player_at_his_next_action():
    st = game(("a", "b"))
    markers(st, "a", reroll=1)
    st2, _ = play(st, "a", steps=["reroll"])
    st3, log = play(st2, "b", steps=["pass"])
    assert st3.d["waiting"] == {"a": "plan"} and first(log, "asked")["player"] == "a"


def test_preview_names_the_step_that_would_run():
    st = game(("a", "b"))
    markers(st, "a")
    probs = problems(st, "a", steps=["reroll", "pass"])
    assert [(p.code, p.params.get("step")) for p in probs if p.code.startswith("plan.")] == \
        [("plan.would_fail", 1), ("plan.would_run", 2)]


# --- books and famine, original variant (R112–R133)
def test_books_are_spent_automatically_when_there_is_no_choice():
    st = game(("a", "b"))
    event(st, "drought")                      # food 2
    for p in ("a", "b"):
        markers(st, p, food=2)
    dice(st, "a", ("blue", {"book": 3}), ("white", {"book": 1}))
    dice(st, "b", ("white", {"food": 1}))
    st2, _ = play(st, "a", steps=["pass"])
    st3, log = play(st2, "b", steps=["pass"])
    assert first(log, "books", player="a")["books"] == 4 and st3.d["p"]["a"]["culture"] == 1 + 4


def test_books_phase_asks_who_must_choose_books_or_food():
    """R123: short of food, a book die left, could reach it by trading, only with a book die."""
    st = game(("a", "b"))
    st.d["event"] = "drought"                 # food 2
    markers(st, "a", food=1)
    dice(st, "a", ("white", {"book": 1}), ("white", {"gold": 1}))
    assert must_decide(st.d, ED, "a", "books")
    dice(st, "a", ("white", {"book": 1}), ("white", {"gold": 1}), ("white", {"stone": 1}))
    assert not must_decide(st.d, ED, "a", "books")           # gold + stone reach it without the book


def test_books_decision_holds_back_a_book_die_for_the_famine():
    st = game(("a", "b"))
    event(st, "drought")
    markers(st, "a", food=1)
    markers(st, "b", food=2)
    dice(st, "a", ("white", {"book": 1}), ("white", {"gold": 1}))
    dice(st, "b")
    st2, _ = play(st, "a", steps=["pass"])
    st3, _ = play(st2, "b", steps=["pass"])
    assert st3.d["waiting"] == {"a": "books"}
    st4, log = play(st3, "a", "books", hold=["w1"])
    assert first(log, "books", player="a")["books"] == 0
    assert first(log, "famine", player="a")["vp"] == 1 and first(log, "famine", player="a")["trades"]


def test_a_trade_into_books_is_refused():
    st = game(("a", "b"))
    st.d["waiting"] = {"a": "books"}
    dice(st, "a", ("white", {"book": 1}), ("white", {"gold": 1}), ("white", {"stone": 1}))
    assert errors(st, "a", "books", trade=[["w2", "w3"]]) == ["trade.books"]


def test_famine_asks_who_must_choose_strength_or_food():
    """R126: only a strength die could complete the food."""
    st = game(("a", "b"))
    st.d["event"] = "drought"
    markers(st, "a", food=1)
    dice(st, "a", ("white", {"strength": 1}), ("white", {"gold": 1}))
    assert must_decide(st.d, ED, "a", "famine")


def test_famine_trades_automatically_when_no_strength_die_is_needed():
    st = game(("a", "b"))
    event(st, "drought")
    markers(st, "a", food=1)
    markers(st, "b", food=2)
    dice(st, "a", ("white", {"gold": 1}), ("white", {"stone": 1}), ("white", {"strength": 1}))
    dice(st, "b")
    st2, _ = play(st, "a", steps=["pass"])
    _, log = play(st2, "b", steps=["pass"])
    f = first(log, "famine", player="a")
    assert f["trades"] == [["w1", "w2"]] and f["vp"] == 1


def test_less_food_than_demanded_gives_nothing_more_gives_no_more():
    from referee_games.nations_dice.famine import feed
    st = game(("a", "b"))
    st.d["event"], st.d["age"] = "drought", 1
    markers(st, "a", food=1)
    markers(st, "b", food=3)
    dice(st, "a")
    dice(st, "b")
    feed(st.d, ED, "a", [], [])
    feed(st.d, ED, "b", [], [])
    assert (st.d["p"]["a"]["vp"], st.d["p"]["b"]["vp"]) == (0, 1)


def test_famine_trades_that_waste_food_are_refused():
    st = game(("a", "b"))
    st.d["event"], st.d["waiting"] = "drought", {"a": "famine"}
    markers(st, "a", food=1)
    dice(st, "a", ("white", {"gold": 1}), ("white", {"stone": 1}), ("white", {"book": 1}), ("white", {"strength": 1}))
    assert errors(st, "a", "famine", trade=[["w1", "w2"], ["w3", "w4"]]) == ["famine.surplus"]
    assert errors(st, "a", "famine", trade=[["w1", "gold"]]) == ["trade.marker"]


# --- turn order and war (R134–R144)
def test_new_turn_order_by_available_strength_ties_keep_their_order():
    st = game(("a", "b", "c"))
    dice(st, "a", ("white", {"strength": 1}))
    dice(st, "b", ("red", {"strength": 3}), ("red", {"strength": 2}, "spent"))
    dice(st, "c", ("white", {"strength": 1}))
    new_order(st.d, ED, [])
    assert st.d["order"] == ["b", "a", "c"]


def test_turn_order_spends_nothing():
    st = game(("a", "b"))
    dice(st, "a", ("red", {"strength": 3}))
    new_order(st.d, ED, [])
    assert not st.d["p"]["a"]["dice"][0][3]


def test_war_vp_only_for_meeting_the_demand():
    st = game(("a", "b"))
    st.d["event"], st.d["age"] = "drought", 1               # strength 3
    dice(st, "a", ("red", {"strength": 3}))
    dice(st, "b", ("red", {"strength": 2}))
    markers(st, "a")
    markers(st, "b")
    war(st.d, ED, [])
    assert (st.d["p"]["a"]["vp"], st.d["p"]["b"]["vp"]) == (1, 0)


# --- game end (R145–R150)
def test_end_scoring_counts_colonies_developments_advisor_built_wonders_only():
    st = game(("a", "b"))
    q = st.d["p"]["a"]
    q["vp"], q["devs"][0], q["advisor"], q["colonies"], q["built"], q["wonder"] = \
        5, "market", "lincoln", ["egypt"], ["pyramids"], "suez_canal"
    out = end_game(st.d, ED, [])
    assert out["scores"]["a"] == 5 + 2 + 6 + 2 + 3


def test_end_tie_is_won_by_the_earlier_player_in_turn_order():
    st = game(("a", "b"))
    st.d["order"] = ["b", "a"]
    out = end_game(st.d, ED, [])
    assert out["scores"] == {"a": 0, "b": 0} and out["winners"] == ["b"]
