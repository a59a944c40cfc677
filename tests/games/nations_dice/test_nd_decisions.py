"""The decisions taken where the seed is silent (games/nations_dice/README.md)."""
from ndkit import ED, board, dice, first, game, markers, play

from referee.game_api.contract import Rng
from referee_games.nations_dice import RULES
from referee_games.nations_dice.phases import start_age, war
from referee_games.nations_dice.pieces import give_back_dice


def test_board_is_filled_column_by_column_from_the_age_stack():
    """R38–R40: the shuffled stack of the age, column 1 rows 1–3 first; one event of the age."""
    for n, cols in ((4, 4), (3, 3), (2, 3), (1, 3)):
        st = RULES.setup([f"p{i}" for i in range(n)], {}, Rng(n))
        stack = st.d["stacks"]["1"]
        assert [t for c in st.d["board"] for t in c] == stack[:cols * 3]
        assert ED.events[st.d["event"]]["age"] == 1 and ED.tiles[stack[0]]["age"] == 1


def test_what_persists_into_the_next_age():
    """R41–R43, R92: spent pieces come back; tiles, wonder under construction, culture and VP stay."""
    st = game(("a", "b"))
    q = st.d["p"]["a"]
    q["wonder"], q["colonies"], q["vp"], q["culture"] = "pyramids", ["crete"], 4, 6
    dice(st, "a", ("white", {"food": 1}, "spent"))
    markers(st, "a", gold=1)
    q["markers"]["gold"][1] = 1
    st.d["age"] = 1
    start_age(st.d, ED, Rng(1), [])
    assert (q["wonder"], q["colonies"], q["vp"], q["culture"]) == ("pyramids", ["crete"], 4, 6)
    assert not q["dice"][0][3] and q["markers"]["gold"] == [1, 0] and st.d["age"] == 2


def test_plans_are_cleared_when_a_new_age_begins():
    st = game(("a", "b"))
    st.d["p"]["a"]["plan"] = [{"do": "reroll", "dice": "all"}]
    start_age(st.d, ED, Rng(1), [])
    assert st.d["p"]["a"]["plan"] == []


def test_books_and_famine_orders_have_no_reroll():
    """R55: no rerolls outside the action phase."""
    import pytest
    from pydantic import ValidationError
    st = game(("a", "b"))
    for stage in ("books", "famine"):
        with pytest.raises(ValidationError):
            RULES.order_schema(st, stage).model_validate({"reroll": "all"})


def test_default_replaces_a_printed_development_first():
    """R70: the order may name the slot; else a printed development, else the one worth least."""
    st = game()
    board(st, ["crete", "aqueduct", "pyramids"], ["nubia", "sinai", "moses"], ["temple", "quarry", "archers"],
          ["sun_tzu", "granary", "scriptorium"])
    markers(st, "red", gold=2)
    st.d["p"]["red"]["devs"][:2] = ["market", "legion"]
    dice(st, "red")
    _, log = play(st, "red", steps=[{"buy": {"tile": "aqueduct"}}])
    assert first(log, "development")["slot"] == 3


def test_new_dice_count_in_this_ages_war():
    """R71: dice gained by a development are available for this age's end phases."""
    st = game(("a", "b"))
    st.d["event"], st.d["age"] = "drought", 1
    dice(st, "a", ("red", {"strength": 3}))
    markers(st, "a")
    markers(st, "b")
    dice(st, "b")
    war(st.d, ED, [])
    assert st.d["p"]["a"]["vp"] == 1


def test_fewer_dice_than_shown_gives_back_all_of_that_colour():
    """R72."""
    st = game(("a", "b"))
    dice(st, "a", ("orange", {"gold": 2}))
    back = give_back_dice(st.d, "a", "orange", 3, [])
    assert back == ["o1"] and st.d["p"]["a"]["dice"] == []


def test_replaced_advisors_rerolls_go_back_spent_first():
    """R77: the starting reroll marker and the advisor's are alike; spent ones go back first."""
    st = game()
    board(st, ["crete", "aqueduct", "pyramids"], ["nubia", "sinai", "moses"], ["temple", "quarry", "archers"],
          ["sun_tzu", "granary", "scriptorium"])
    markers(st, "red", gold=1, reroll=2)
    st.d["p"]["red"]["markers"]["reroll"][1] = 1
    st.d["p"]["red"]["advisor"] = "hammurabi"
    dice(st, "red")
    st2, _ = play(st, "red", steps=[{"buy": {"tile": "sun_tzu"}}])
    assert st2.d["p"]["red"]["markers"]["reroll"] == [2, 0]


def test_default_variant_is_original():
    """R160."""
    st = RULES.setup(["a", "b"], {}, Rng(1))
    assert st.d["variant"] == "original"


def test_famine_default_at_the_deadline_trades_nothing():
    """R125: nothing automatic where a strength die would have to go; the default keeps it."""
    st = game(("a", "b"))
    st.d["event"], st.d["waiting"], st.d["stage"], st.d["age"] = "drought", {"a": "famine"}, "famine", 1
    st.d["phase_at"] = 1
    markers(st, "a", food=1)
    dice(st, "a", ("white", {"strength": 1}), ("white", {"gold": 1}))
    res = RULES.resolve(st, {}, Rng(1))
    f = next(e.data for e in res.log if e.kind == "famine")
    assert f["trades"] == [] and f["vp"] == 0


def test_an_edition_given_as_a_file_name_is_refused():
    """Games do no I/O: an edition is given inline in the match file's options."""
    assert [p.code for p in RULES.check_options(["a", "b"], {"edition": "my.yaml"})] == ["options.edition"]
