"""Setup, turn flow and the rules around the examples."""
from collections import Counter

from ffkit import ED, board, errors, kinds, play, put_delegation, take

from referee.game_api.contract import Rng, phrase
from referee_games.founding_fathers import RULES
from referee_games.founding_fathers.engine import cut, draw, refill
from referee_games.founding_fathers.rounds import end_game
from referee_games.founding_fathers.state import free_markers


def setup(n, seed=7):
    return RULES.setup(["ada", "bert", "cleo", "dora", "emil"][:n], {}, Rng(seed))


def test_setup_planners_markers_deck_pool_articles():
    for n, planners in [(3, {"madison", "paterson", "sherman"}),
                        (4, {"madison", "paterson", "sherman", "pinckney"}),
                        (5, {"madison", "paterson", "sherman", "pinckney", "hamilton"})]:
        st = setup(n)
        d = st.d
        assert set(d["planners"]) == planners
        assert all(d["hands"][p] == [c] for c, p in d["planners"].items())
        assert all(m == 3 for m in d["markers"].values())
        assert all(len(v) == 4 for v in d["dealt"].values())
        assert len(d["pool"]) == 3 and len(d["resolved"]) == 4 and len(d["articles"]) == 6
        assert all(not fl for _, fl in d["resolved"]) and d["assembly"][1] is False
        unused = {"madison", "paterson", "sherman", "pinckney", "hamilton"} - planners
        every = d["deck"] + d["pool"] + [c for v in d["dealt"].values() for c in v] + list(d["planners"])
        assert sorted(every) == sorted(ED.cards) and unused <= set(d["deck"] + d["pool"] + sum(d["dealt"].values(), []))
        assert RULES.awaiting(st) == {p: "keep" for p in d["players"]}


def test_keep_two_of_four_then_madison_starts():
    st = setup(4)
    d = st.d
    orders = {p: RULES.order_schema(st, "keep").model_validate({"keep": d["dealt"][p][2:]}) for p in d["players"]}
    bad = RULES.order_schema(st, "keep").model_validate({"keep": d["dealt"]["ada"][:1]})
    assert [p.code for p in RULES.validate(st, "ada", bad)] == ["keep.count"]
    res = RULES.resolve(st, orders, Rng(1))
    d2 = res.state.d
    for p in d["players"]:
        assert len(d2["hands"][p]) == 3 and d2["hands"][p][1:] == d["dealt"][p][2:]
    assert len(d2["discard"]) == 8
    madison = d["planners"]["madison"]
    assert RULES.awaiting(res.state) == {madison: "action"}
    # the kept cards are told only to their owner
    kept = [e for e in res.log if e.kind == "kept"]
    assert all(e.visible_to == frozenset([e.data["player"]]) for e in kept)


def test_seven_yea_states_pass_six_nay_fail():
    st = board(bias="large_states", hands={"madison": ["madison", "wythe"]})
    for s, c in zip(["NH", "MA", "CT", "NY", "NJ"], ["langdon", "gorham", "sherman", "lansing", "livingston"]):
        put_delegation(st, s, "yea", [c])
    put_delegation(st, "PA", "nay", ["clymer"])
    res = play(st, "madison", action="vote", state="VA", side="yea", delegates=["wythe"])
    assert "round_ended" not in kinds(res)                 # 6 Yea, 1 Nay
    st2 = board(bias="large_states", hands={"madison": ["madison", "wythe"]})
    for s, c in zip(["NH", "MA", "CT", "NY", "NJ", "PA"], ["langdon", "gorham", "sherman", "lansing", "livingston", "clymer"]):
        put_delegation(st2, s, "yea", [c])
    res = play(st2, "madison", action="vote", state="VA", side="yea", delegates=["wythe"])
    assert next(e.data for e in res.log if e.kind == "round_ended")["result"] == "passed"
    st3 = board(bias="large_states", hands={"madison": ["madison", "wythe"]})
    for s, c in zip(["NH", "MA", "CT", "NY", "NJ"], ["langdon", "gorham", "sherman", "lansing", "livingston"]):
        put_delegation(st3, s, "nay", [c])
    res = play(st3, "madison", action="vote", state="VA", side="nay", delegates=["wythe"])
    assert next(e.data for e in res.log if e.kind == "round_ended")["result"] == "failed"


def test_next_round_starts_after_the_ender_and_persistent_events_go():
    st = board(bias="large_states", active="paterson", hands={"paterson": ["paterson", "wythe"]})
    st.d["persistent"] = [["sherman", "ingersoll"]]
    for s, c in zip(["NH", "MA", "CT", "NY", "NJ", "PA"], ["langdon", "gorham", "sherman", "lansing", "livingston", "clymer"]):
        put_delegation(st, s, "yea", [c])
    take(st, "ingersoll")
    res = play(st, "paterson", action="vote", state="VA", side="yea", delegates=["wythe"])
    d = res.state.d
    assert d["round"] == 2 and d["players"][d["active"]] == "sherman"
    assert d["persistent"] == [] and "ingersoll" in d["discard"]
    assert d["assembly"][0] is not None and d["committee_article"][0] is not None
    assert d["delegations"] == {}
    assert len(d["resolved"]) == 6


def test_marker_reuse_when_none_free_and_uncontrolled_delegation_still_counts():
    st = board(hands={"madison": ["madison", "mifflin", "wilson"]})
    st.d["committee"] = {"madison": 1}
    st.d["debate"]["federalist"] = {"madison": 2}
    put_delegation(st, "NJ", "nay", ["dayton"], ctrl="madison")
    assert free_markers(st.d, "madison") == 0
    res = play(st, "madison", action="vote", state="PA", side="yea", delegates=["mifflin"], reclaim="assembly:NJ")
    d = res.state.d
    assert d["delegations"]["PA"]["ctrl"] == "madison"
    assert d["delegations"]["NJ"] == {"side": "nay", "cards": ["dayton"], "ctrl": None, "protected": False}
    assert ("marker_reused", "assembly:NJ") in [(e.kind, e.data.get("from")) for e in res.log]
    # without a choice the lowest debate marker is reused first
    res = play(st, "madison", action="vote", state="PA", side="yea", delegates=["mifflin"])
    assert res.state.d["debate"]["federalist"] == {} and res.state.d["delegations"]["NJ"]["ctrl"] == "madison"


def test_refill_from_pool_by_position_and_pool_back_to_three():
    st = board(hands={"madison": ["madison", "mifflin", "wilson"]})
    pool = list(st.d["pool"])
    res = play(st, "madison", action="snub", delegates=["mifflin", "wilson"], take=[3, 1])
    d = res.state.d
    assert d["hands"]["madison"] == ["madison", pool[2], pool[0]]
    assert len(d["pool"]) == 3 and d["pool"][0] == pool[1]
    took = next(e for e in res.log if e.kind == "took")
    assert took.visible_to is None and "cards" not in took.data       # backs only in public
    private = next(e for e in res.log if e.kind == "took_cards")
    assert private.visible_to == frozenset(["madison"])


def test_hand_of_three_or_more_after_an_event_draws_nothing():
    st = board(hands={"madison": ["madison", "mchenry", "wilson"]})
    pool = list(st.d["pool"])
    res = play(st, "madison", action="event", card="mchenry", take=[1, 2, 3])
    d = res.state.d
    assert len(d["hands"]["madison"]) == 4 and d["pool"] == pool


def test_deck_runs_out_discard_is_shuffled_and_cut():
    st = board()
    d = st.d
    d["discard"] = d["deck"][:10]
    d["deck"] = []
    log = []
    card = draw(d, Rng(4), log)
    assert card is not None and len(d["deck"]) == 9 and d["discard"] == []
    assert log[0][0] == "reshuffled"


def test_cut_moves_the_top_part_under():
    deck = list(range(20))
    cut(deck, Rng(1))
    assert sorted(deck) == list(range(20)) and deck != list(range(20))
    i = deck.index(0)
    assert deck == list(range(20))[-i:] + list(range(20))[:-i]


def test_planner_reclaimed_when_on_top_of_the_deck_unless_opted_out():
    st = board(hands={"madison": ["mifflin", "wilson", "clymer"]})
    d = st.d
    take(st, "madison", "fitzsimons")
    d["deck"] += ["madison", "fitzsimons"]   # drawing Fitzsimons shows Madison's planner on top
    res = play(st, "madison", action="snub", delegates=["mifflin"], take=[1])
    d2 = res.state.d
    assert "madison" in d2["hands"]["madison"] and "fitzsimons" in d2["pool"]
    assert "planner_reclaimed" in kinds(res)
    st.d["prefs"]["madison"]["reclaim_planner"] = False
    res = play(st, "madison", action="snub", delegates=["mifflin"], take=[1])
    assert "madison" not in res.state.d["hands"]["madison"] and "planner_reclaimed" not in kinds(res)


def test_opt_out_and_advance_flip_choice_are_remembered():
    st = board(hands={"madison": ["madison", "mifflin", "wilson"]})
    res = play(st, "madison", action="snub", committee_flip="flip", reclaim_planner=False)
    assert res.state.d["prefs"]["madison"] == {"flip": "flip", "reclaim_planner": False}


def test_scores_above_thirty_are_kept_and_ties_win_together():
    st = board()
    d = st.d
    d["scores"] = {"madison": 41, "paterson": 41, "sherman": 12}
    out = end_game(d, st.ed, [])
    assert out["scores"]["madison"] == 41 and sorted(out["winners"]) == ["madison", "paterson"]
    assert RULES.awaiting(st) == {}


def test_bad_orders_are_refused_with_places():
    st = board(hands={"madison": ["madison", "mifflin", "wilson"]})
    assert [(p.code, p.where) for p in errors(st, "madison", action="vote", state="PA", side="yea",
                                              delegates=["mifflin", "franklin"])] == [("orders.not_in_hand", "delegates.1")]
    assert [p.code for p in errors(st, "madison", action="vote", state="XX", side="yea",
                                   delegates=["mifflin"])] == ["vote.state_unknown"]
    # a state's name, even misspelt, is answered with its code
    for written in ("Virginia", "virgina"):
        [named] = errors(st, "madison", action="vote", state=written, side="yea", delegates=["mifflin"])
        assert phrase(RULES, named, "en").endswith("Did you mean 'VA'?") and \
            phrase(RULES, named, "de").endswith("Meintest du „VA“?"), written
    assert [p.code for p in errors(st, "madison", action="vote", state="PA", delegates=["mifflin"])] == ["vote.side_missing"]
    assert [p.code for p in errors(st, "madison", action="debate", delegates=["madison"])] == ["debate.planner"]
    assert [p.code for p in RULES.validate(st, "paterson", RULES.default_orders(st, "paterson"))] == ["stage.none"]
    warn = RULES.validate(st, "madison", RULES.order_schema(st, "action").model_validate(
        {"action": "snub", "delegates": ["mifflin"], "take": [7]}))
    assert [(p.code, p.severity) for p in warn] == [("take.bad_position", "warning"), ("take.filled", "warning")]


def test_invalid_orders_at_resolution_fall_back_to_an_empty_snub():
    st = board(hands={"madison": ["madison", "mifflin", "wilson"]})
    o = RULES.order_schema(st, "action").model_validate({"action": "vote", "state": "PA", "side": "nay",
                                                         "delegates": ["franklin"]})
    res = RULES.resolve(st, {"madison": o}, Rng(1))
    assert kinds(res)[0] == "orders_replaced"
    assert res.state.d["hands"]["madison"] == ["madison", "mifflin", "wilson"]
    assert res.state.d["players"][res.state.d["active"]] == "paterson"


def test_edition_counts_by_state_and_public_facts():
    ed = ED
    assert Counter(c.state for c in ed.cards.values()) == Counter(
        {"NH": 2, "MA": 4, "CT": 3, "NY": 3, "NJ": 5, "PA": 8, "DE": 5, "MD": 5, "VA": 7, "NC": 5, "SC": 4, "GA": 4})
    facts = {"ingersoll": "antifederalist", "mifflin": "large_states", "yates": "antifederalist",
             "morris_r": "federalist", "bassett": "small_states"}
    for cid, f in facts.items():
        assert ed.cards[cid].faction == f and ed.cards[cid].source != "house"
    assert sum(1 for c in ed.cards.values() if c.state == "VA" and c.faction == "federalist") == 5
    assert {c.id for c in ed.cards.values() if c.faction == "planner"} == {
        "madison", "paterson", "sherman", "pinckney", "hamilton"}
    assert all(any(s["do"] == "gain_marker" for s in ed.cards[p].steps)
               for p in ["madison", "paterson", "sherman", "pinckney", "hamilton"])
    assert len(ed.articles) == 12
