"""Every worked example of seed 001, checked to the point."""
from ffkit import board, errors, kinds, play, put_delegation, take

from referee.game_api.contract import Rng
from referee_games.founding_fathers import RULES
from referee_games.founding_fathers.rounds import end_bonus, end_game
from referee_games.founding_fathers.state import free_markers


def madison_with_pa():
    st = board(hands={"madison": ["madison", "ingersoll", "mifflin"]})
    return st


def test_declare_vote_madison_pennsylvania_yea():
    st = madison_with_pa()
    res = play(st, "madison", action="vote", state="PA", side="yea", delegates=["ingersoll", "mifflin"])
    d = res.state.d
    assert d["delegations"]["PA"] == {"side": "yea", "cards": ["ingersoll", "mifflin"],
                                      "ctrl": "madison", "protected": False}
    assert RULES.view(res.state, None)["public"]["assembly"]["tracker"]["PA"] == "yea"
    assert free_markers(d, "madison") == 2        # one marker for the two cards
    assert "madison" in d["hands"]["madison"] and len(d["hands"]["madison"]) == 3
    assert d["players"][d["active"]] == "paterson"


def test_faction_bias_example_ingersoll_and_mifflin():
    st = madison_with_pa()
    nay_both = errors(st, "madison", action="vote", state="PA", side="nay", delegates=["ingersoll", "mifflin"])
    assert [(p.code, p.where) for p in nay_both] == [("vote.bias", "delegates.0")]
    assert errors(st, "madison", action="vote", state="PA", side="nay", delegates=["mifflin"]) == []
    for cards in (["ingersoll"], ["mifflin"], ["ingersoll", "mifflin"]):
        assert errors(st, "madison", action="vote", state="PA", side="yea", delegates=cards) == []
    # the planner is free either way
    assert errors(st, "madison", action="vote", state="VA", side="nay", delegates=["madison"]) == []


def test_override_paterson_three_pa_delegates():
    st = madison_with_pa()
    st = play(st, "madison", action="vote", state="PA", side="yea", delegates=["ingersoll", "mifflin"]).state
    three = ["morris_r", "clymer", "wilson"]      # Federalists and a Large States man may vote Nay
    take(st, *three)
    st.d["hands"]["paterson"] = ["paterson"] + three
    short = errors(st, "paterson", action="vote", state="PA", side="nay", delegates=["morris_r", "clymer"])
    assert [p.code for p in short] == ["vote.override_short"]
    res = play(st, "paterson", action="vote", state="PA", side="nay", delegates=three)
    d = res.state.d
    assert d["delegations"]["PA"]["side"] == "nay" and d["delegations"]["PA"]["ctrl"] == "paterson"
    assert d["delegations"]["PA"]["cards"] == three
    assert d["discard"][-2:] == ["ingersoll", "mifflin"]
    assert free_markers(d, "madison") == 3        # Madison reclaims his marker
    assert "override" in kinds(res)
    assert RULES.view(res.state, None)["public"]["assembly"]["tracker"]["PA"] == "nay"


def test_one_state_one_vote_no_reinforcing_and_no_self_override():
    st = board(hands={"madison": ["madison", "fitzsimons", "clymer", "wilson"]})
    put_delegation(st, "PA", "yea", ["mifflin"], ctrl="paterson")
    assert [p.code for p in errors(st, "madison", action="vote", state="PA", side="yea",
                                   delegates=["wilson"])] == ["vote.no_reinforce"]
    put_delegation(st, "PA", "nay", ["mifflin"], ctrl="madison")
    assert [p.code for p in errors(st, "madison", action="vote", state="PA", side="yea",
                                   delegates=["wilson", "fitzsimons"])] == ["vote.own_delegation"]


def sherman_debate_board():
    st = board(active="sherman",
               hands={"sherman": ["clymer", "mifflin", "wilson"]})
    st.d["debate"]["large_states"] = {"madison": 3, "sherman": 2}
    return st


def test_sherman_three_debate_options():
    st = sherman_debate_board()
    a = play(st, "sherman", action="debate", delegates=["clymer"]).state.d
    assert a["debate"]["federalist"] == {"sherman": 1}
    assert "clymer" in a["discard"]
    b = play(st, "sherman", action="debate", delegates=["wilson"]).state.d
    assert b["debate"]["large_states"] == {"madison": 3, "sherman": 3}   # stacked on Madison
    c = play(st, "sherman", action="debate", delegates=["mifflin", "wilson"]).state.d
    assert c["debate"]["large_states"] == {"madison": 3, "sherman": 4}   # just ahead
    mixed = errors(st, "sherman", action="debate", delegates=["clymer", "wilson"])
    assert [p.code for p in mixed] == ["debate.mixed"]


def round_end_board():
    """Five Nay delegations stand; Paterson casts North Carolina's, the sixth."""
    st = board(bias="small_states", active="paterson",
               hands={"paterson": ["paterson", "davie", "williamson"]})
    put_delegation(st, "NH", "nay", ["langdon"], ctrl="sherman")
    put_delegation(st, "PA", "nay", ["wilson", "fitzsimons"], ctrl="paterson")
    put_delegation(st, "GA", "nay", ["pierce"])                  # uncontrolled: score nobody
    put_delegation(st, "SC", "nay", ["rutledge"])
    put_delegation(st, "MD", "nay", ["carroll"])
    put_delegation(st, "VA", "yea", ["mcclurg"], ctrl="madison")
    put_delegation(st, "MA", "yea", ["strong"], ctrl="madison")
    put_delegation(st, "DE", "yea", ["dickinson"], ctrl="sherman")
    return st


def test_round_end_scoring_example():
    st = round_end_board()
    before = {p: st.d["scores"][p] for p in st.d["players"]}
    res = play(st, "paterson", action="vote", state="NC", side="nay", delegates=["davie", "williamson"])
    d = res.state.d
    log = {e.kind: e.data for e in res.log}
    assert log["round_ended"]["result"] == "failed"
    assert log["assembly_resolved"]["points"] == {"madison": 0, "paterson": 4, "sherman": 1}
    assert log["assembly_resolved"]["to_committee"] == {"madison": 2, "paterson": 0, "sherman": 1}
    # the failed article is flipped: Small States -> Large States, and resolved
    assert log["assembly_resolved"]["showing"] == "large_states"
    assert d["resolved"][4][1] is True
    assert d["delegations"] == {}
    for c in ["langdon", "wilson", "fitzsimons", "davie", "williamson", "pierce", "mcclurg", "dickinson"]:
        assert c in d["discard"]
    # the Committee then resolves: Madison's two markers beat Sherman's one
    assert log["committee_resolved"] == {"winner": "madison", "points": 2, "tied": []}
    assert d["scores"]["paterson"] == before["paterson"] + 4
    assert d["scores"]["sherman"] == before["sherman"] + 1
    assert d["scores"]["madison"] == before["madison"] + 2


def test_committee_example_madison_scores_two_and_flips():
    st = board(bias="large_states", committee_bias="antifederalist", active="madison")
    st.d["committee"] = {"madison": 2, "sherman": 1}
    # six Yea delegations nobody controls; Madison's planner makes the seventh
    for s, c in zip(["NH", "MA", "CT", "NY", "NJ", "PA"], ["langdon", "gorham", "sherman", "lansing", "livingston", "clymer"]):
        put_delegation(st, s, "yea", [c])
    res = play(st, "madison", action="vote", state="VA", side="yea", delegates=["madison"])
    st2 = res.state
    assert st2.d["scores"]["madison"] == 1 + 2      # 1 for the planner on the winning side, 2 for the Committee
    assert st2.d["committee"] == {"sherman": 1}     # Sherman's single marker stays
    assert RULES.awaiting(st2) == {"madison": "committee_flip"}
    assert "flip: false" in RULES.order_form(st2, "madison", "en")
    flipped = play(st2, "madison", flip=True).state
    assert flipped.ed.side(*flipped.d["resolved"][-1]) == "federalist"
    kept = RULES.resolve(st2, {"madison": RULES.default_orders(st2, "madison")}, Rng(3)).state
    assert kept.ed.side(*kept.d["resolved"][-1]) == "antifederalist"   # default: leave it


def test_committee_tie_nobody_scores_markers_stay():
    st = board(bias="large_states", active="madison")
    st.d["committee"] = {"paterson": 2, "sherman": 2}
    for s, c in zip(["NH", "MA", "CT", "NY", "NJ", "PA"], ["langdon", "gorham", "sherman", "lansing", "livingston", "clymer"]):
        put_delegation(st, s, "yea", [c])
    res = play(st, "madison", action="vote", state="VA", side="yea", delegates=["madison"])
    assert res.state.d["committee"] == {"paterson": 2, "sherman": 2}
    assert res.state.d["scores"] == {"madison": 1, "paterson": 0, "sherman": 0}
    assert res.state.d["stage"] == "action"           # no flip stage without a winner
    assert res.state.ed.side(*res.state.d["resolved"][-1]) == "antifederalist"


def test_debate_token_example():
    st = round_end_board()
    st.d["debate"] = {"large_states": {"sherman": 3, "madison": 3},
                      "small_states": {"paterson": 6, "madison": 1},
                      "antifederalist": {},
                      "federalist": {"madison": 4, "sherman": 3}}
    res = play(st, "paterson", action="vote", state="NC", side="nay", delegates=["davie", "williamson"])
    d = res.state.d
    tokens = next(e.data for e in res.log if e.kind == "debates_resolved")["tokens"]
    assert tokens == {"large_states": None, "small_states": "paterson", "antifederalist": None,
                      "federalist": "madison"}
    assert d["tokens"]["paterson"]["small_states"] == 1 and d["tokens"]["madison"]["federalist"] == 1
    assert all(track == {} for track in d["debate"].values())          # markers back


def test_end_bonus_example_exact_points():
    st = board()
    d = st.d
    arts = list(st.ed.articles)
    showing = ["federalist"] * 5 + ["small_states"] * 3 + ["large_states"] * 3 + ["antifederalist"]
    d["resolved"] = []
    for f in showing:     # any article can be made to show a faction by its side
        a = next(x for x in arts if f in (st.ed.articles[x]["front"], st.ed.articles[x]["back"])
                 and x not in [r[0] for r in d["resolved"]])
        d["resolved"].append([a, st.ed.articles[a]["back"] == f])
    d["tokens"] = {"madison": {"federalist": 2, "small_states": 0, "large_states": 0, "antifederalist": 1},
                   "paterson": {"federalist": 1, "small_states": 1, "large_states": 2, "antifederalist": 1},
                   "sherman": {"federalist": 0, "small_states": 1, "large_states": 1, "antifederalist": 0}}
    bonus = end_bonus(d, st.ed)
    assert {f: (b["place"], b["points"]) for f, b in bonus.items()} == {
        "federalist": (1, 5), "small_states": (2, 4), "large_states": (2, 4), "antifederalist": (4, 2)}
    out = end_game(d, st.ed, [])
    assert d["scores"] == {"madison": 5 + 2, "paterson": 4 + 4 + 2, "sherman": 4}
    assert out["winners"] == ["paterson"]
