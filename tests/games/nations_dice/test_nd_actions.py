"""The actions (reroll, buy, build, pass), payments and trades, and the refusals."""
from ndkit import ED, board, dice, die, errors, first, game, markers, play, problems

BOARD = (["crete", "aqueduct", "pyramids"], ["nubia", "sinai", "moses"], ["temple", "quarry", "archers"],
         ["sun_tzu", "granary", "scriptorium"])


def ready(**m):
    st = game()
    board(st, *BOARD)
    markers(st, "red", **m)
    return st


# --- reroll (R51–R55)
def test_reroll_spends_a_marker_and_rerolls_only_the_named_dice():
    st = ready(reroll=1)
    dice(st, "red", ("white", {"food": 1}), ("white", {"book": 1}))
    st2, log = play(st, "red", steps=[{"reroll": ["w2"]}], seed=11)
    assert st2.d["p"]["red"]["markers"]["reroll"] == [1, 1]
    assert [x[0] for x in first(log, "rerolled")["dice"]] == ["w2"]
    assert die(st2, "red", "w1")[2] == die(st, "red", "w1")[2]


def test_reroll_without_a_marker_falls_through_to_the_next_step():
    st = ready()
    dice(st, "red", ("white", {"food": 1}))
    st2, log = play(st, "red", steps=["reroll", "pass"])
    assert first(log, "step_failed", player="red")["code"] == "reroll.no_marker"
    assert st2.d["p"]["red"]["passed"]


def test_reroll_ends_the_turn():
    """R53: after a reroll the next player is on turn."""
    st = ready(reroll=1)
    dice(st, "red", ("white", {"food": 1}))
    st2, _ = play(st, "red", steps=["reroll", "pass"])
    assert st2.d["waiting"] == {"yellow": "plan"} and st2.d["p"]["red"]["plan"] == [{"do": "pass", "food_trade": None}]


# --- buying (R56–R63)
def test_row_sets_the_cost_3_2_1():
    st = ready(gold=3)
    dice(st, "red")
    for row, _tile in ((1, "crete"), (2, "aqueduct"), (3, "pyramids")):
        if row == 1:
            continue
        st2, log = play(st, "red", steps=[{"buy": {"column": 1, "row": row}}])
        assert first(log, "bought")["cost"] == row and st2.d["p"]["red"]["markers"]["gold"][1] == row


def test_a_colony_is_paid_in_strength():
    st = ready(gold=3)
    dice(st, "red", ("white", {"strength": 1}))
    st2, log = play(st, "red", steps=[{"buy": {"tile": "crete"}}])
    assert first(log, "bought")["currency"] == "strength" and st2.d["p"]["red"]["markers"]["gold"] == [3, 0]
    assert st2.d["p"]["red"]["markers"]["food"][0] == 1            # R79: its marker


def test_a_buy_paid_short_is_refused():
    st = ready()
    dice(st, "red", ("orange", {"gold": 2}))
    assert errors(st, "red", steps=[{"buy": {"tile": "pyramids", "pay": ["o1"]}}]) == ["pay.short"]


def test_a_needless_die_in_the_payment_is_refused():
    """Decision R62: a payment from which a die could be left out is a typo."""
    st = ready()
    dice(st, "red", ("orange", {"gold": 2}), ("white", {"gold": 1}))
    assert errors(st, "red", steps=[{"buy": {"tile": "aqueduct", "pay": ["o1", "w1"]}}]) == ["pay.surplus"]


def test_auto_pay_picks_least_surplus_and_markers_before_dice():
    st = ready(gold=1)
    dice(st, "red", ("orange", {"gold": 2}), ("white", {"gold": 1}))
    _, log = play(st, "red", steps=[{"buy": {"tile": "sun_tzu"}}])
    assert first(log, "bought")["paid"] == ["gold"]
    _, log = play(st, "red", steps=[{"buy": {"tile": "aqueduct"}}])
    assert first(log, "bought")["paid"] == ["o1"]


def test_two_dice_trade_for_one_gold_inside_the_payment():
    """R98: 2 available dice instead of 1 gold; not an action."""
    st = ready()
    dice(st, "red", ("white", {"gold": 1}), ("white", {"food": 1}), ("white", {"book": 1}))
    st2, log = play(st, "red", steps=[{"buy": {"tile": "aqueduct", "pay": ["w1"], "trade": [["w2", "w3"]]}}])
    assert first(log, "bought")["trades"] == [["w2", "w3"]]
    assert all(x[3] for x in st2.d["p"]["red"]["dice"] if x[1] == "white")


def test_a_marker_offered_in_a_trade_is_refused():
    st = ready(gold=1)
    dice(st, "red", ("white", {"gold": 1}), ("white", {"food": 1}))
    assert "trade.marker" in errors(st, "red", steps=[{"buy": {"tile": "aqueduct", "pay": ["w1"],
                                                              "trade": [["w2", "gold"]]}}])


def test_strength_cannot_be_traded_for_a_colony():
    st = ready()
    dice(st, "red", ("white", {"strength": 1}), ("white", {"food": 1}), ("white", {"book": 1}))
    assert errors(st, "red", steps=[{"buy": {"tile": "nubia", "pay": ["w1"], "trade": [["w2", "w3"]]}}]) \
        == ["trade.strength"]


def test_a_trade_that_is_not_needed_is_refused():
    st = ready()
    dice(st, "red", ("orange", {"gold": 2}), ("white", {"food": 1}), ("white", {"book": 1}))
    assert errors(st, "red", steps=[{"buy": {"tile": "aqueduct", "pay": ["o1"], "trade": [["w1", "w2"]]}}]) \
        == ["pay.surplus"]


def test_trade_auto_adds_the_missing_trades_and_spares_strength():
    st = ready()
    dice(st, "red", ("white", {"strength": 1}), ("white", {"food": 1}), ("white", {"stone": 1}))
    _, log = play(st, "red", steps=[{"buy": {"tile": "temple", "trade": "auto"}}])
    assert first(log, "bought")["trades"] == [["w3", "w2"]]


def test_second_action_in_one_step_is_refused():
    st = ready(reroll=1, gold=2)
    dice(st, "red", ("white", {"food": 1}))
    assert errors(st, "red", steps=[{"buy": {"tile": "aqueduct"}, "reroll": "all"}]) == ["step.two_actions"]


def test_a_tile_bought_leaves_its_space_empty():
    """Decision R50: no refill during the age."""
    st = ready(gold=2)
    dice(st, "red")
    st2, _ = play(st, "red", steps=[{"buy": {"column": 1, "row": 2}}])
    assert st2.d["board"][0] == ["crete", None, "pyramids"]


# --- developments, advisors, colonies, wonders (R64–R93)
def test_development_gives_back_the_chosen_available_die():
    """R66: the player chooses which die of the colour goes back."""
    st = ready(gold=2)
    dice(st, "red", ("white", {"food": 1}), ("white", {"book": 1}), ("white", {"gold": 1}, "spent"))
    st2, log = play(st, "red", steps=[{"buy": {"tile": "aqueduct", "replace": 2, "give_back": ["w2"]}}])
    assert first(log, "development")["returned"] == ["w2"] and die(st2, "red", "w3") is not None


def test_development_gives_back_a_spent_die_by_default():
    st = ready(gold=2)
    dice(st, "red", ("white", {"food": 1}), ("white", {"gold": 1}, "spent"))
    _, log = play(st, "red", steps=[{"buy": {"tile": "aqueduct"}}])
    assert first(log, "development")["returned"] == ["w2"]


def test_an_advisor_replaces_the_old_one_and_its_rerolls_go_back():
    st = ready(gold=1, reroll=2)
    st.d["p"]["red"]["advisor"] = "hammurabi"
    dice(st, "red")
    st2, log = play(st, "red", steps=[{"buy": {"tile": "sun_tzu"}}])
    q = st2.d["p"]["red"]
    assert q["advisor"] == "sun_tzu" and q["markers"]["reroll"] == [2, 0]
    assert first(log, "advisor")["replaced"] == "hammurabi"


def test_colonies_have_no_limit():
    st = ready()
    st.d["p"]["red"]["colonies"] = ["egypt", "gaul", "peru"]
    dice(st, "red", ("red", {"strength": 1}))
    st2, _ = play(st, "red", steps=[{"buy": {"tile": "crete"}}])
    assert st2.d["p"]["red"]["colonies"] == ["egypt", "gaul", "peru", "crete"]


def test_a_bought_wonder_is_under_construction_and_counts_nothing():
    from referee_games.nations_dice.state import tile_vp
    st = ready(gold=3)
    dice(st, "red")
    st2, _ = play(st, "red", steps=[{"buy": {"tile": "pyramids"}}])
    q = st2.d["p"]["red"]
    assert q["wonder"] == "pyramids" and tile_vp(ED, q) == 0 and q["markers"]["stone"][0] == 0


def test_a_new_wonder_replaces_the_one_under_construction():
    st = ready(gold=3)
    st.d["p"]["red"]["wonder"] = "hanging_gardens"
    dice(st, "red")
    st2, log = play(st, "red", steps=[{"buy": {"tile": "pyramids"}}])
    assert st2.d["p"]["red"]["wonder"] == "pyramids" and first(log, "wonder_started")["replaced"] == "hanging_gardens"


def test_building_a_wonder_pays_its_stone_and_gives_its_marker_and_vp():
    from referee_games.nations_dice.state import tile_vp
    st = ready()
    st.d["p"]["red"]["wonder"] = "pyramids"
    dice(st, "red", ("orange", {"stone": 2}), ("white", {"stone": 1}))
    st2, log = play(st, "red", steps=["build"])
    q = st2.d["p"]["red"]
    assert q["wonder"] is None and q["built"] == ["pyramids"] and q["markers"]["stone"][0] == 1
    assert tile_vp(ED, q) == 3 and first(log, "wonder_built")["total"] == 3


def test_building_a_wonder_one_does_not_have_is_refused():
    st = ready()
    dice(st, "red", ("orange", {"stone": 2}))
    assert errors(st, "red", steps=["build"]) == ["build.no_wonder"]


def test_build_after_buying_a_wonder_in_the_same_plan_is_accepted():
    st = ready(gold=3)
    dice(st, "red", ("orange", {"stone": 2}))
    assert errors(st, "red", steps=[{"buy": {"tile": "pyramids"}}, "build"]) == []


def test_pass_ends_the_players_actions_for_the_age():
    st = ready()
    dice(st, "red")
    st2, log = play(st, "red", steps=["pass", {"reroll": "all"}])
    assert st2.d["p"]["red"]["passed"] and st2.d["p"]["red"]["plan"] == []


def test_warning_not_refusal_for_a_step_that_fails_only_now():
    st = ready()
    dice(st, "red", ("white", {"food": 1}))
    probs = problems(st, "red", steps=[{"buy": {"tile": "aqueduct"}}, "pass"])
    assert not [p for p in probs if p.is_error]
    assert [p.code for p in probs if p.code.startswith("plan.")] == ["plan.would_fail", "plan.would_run"]


def test_a_reroll_of_no_dice_or_a_die_twice_is_refused():
    st = ready(reroll=1)
    dice(st, "red", ("white", {"food": 1}))
    assert errors(st, "red", steps=[{"reroll": []}]) == ["reroll.empty"]
    assert errors(st, "red", steps=[{"reroll": ["w1", "w1"]}]) == ["pay.twice"]


def test_orders_from_a_player_not_on_turn_are_refused():
    """One action at a time: only the awaited player may act (R44, R47)."""
    st = ready()
    assert errors(st, "yellow", steps=["pass"]) == ["stage.none"]
