"""Each effect primitive, the refusals, and every card's event."""
import pytest
from ffkit import ED, board, errors, kinds, play, put_delegation, take

from referee.game_api.contract import Rng
from referee_games.founding_fathers import RULES
from referee_games.founding_fathers.edition import PLANNER_ORDER
from referee_games.founding_fathers.play import _event_choices

SPOTS = [("NH", "yea", ["langdon"], 1), ("MA", "nay", ["king", "gorham"], 1), ("DE", "yea", ["bedford"], 2),
         ("GA", "nay", ["few"], None), ("SC", "yea", ["butler"], 0), ("MD", "nay", ["mercer"], None),
         ("NY", "nay", ["yates"], 2)]


def rich(cid: str):
    """A busy board on which ``cid``'s event can act, ``cid`` in the active hand."""
    players = [p for p in PLANNER_ORDER if p != cid][:3]
    me = players[0]
    st = board(players=players, bias="large_states", hands={me: [cid]})
    own = ED.cards[cid].state
    for s, side, cards, who in SPOTS:
        if s != own and cid not in cards:
            put_delegation(st, s, side, cards, ctrl=None if who is None else players[who])
    st.d["committee"] = {players[1]: 1}
    theirs = [c for c in ["blair", "wythe", "mcclurg"] if c != cid][:2]
    take(st, *theirs)
    st.d["hands"][players[1]] += theirs
    for c in ["dickinson", "strong", "clymer", "mason", "spaight"]:
        if c != cid:
            take(st, c)
            st.d["discard"].append(c)
    fed = next(a for a, v in ED.articles.items() if v["front"] == "federalist"
               and a not in (st.d["assembly"][0], st.d["committee_article"][0]))
    if fed not in [r[0] for r in st.d["resolved"]]:
        st.d["articles"].remove(fed)
        st.d["articles"].append(st.d["resolved"].pop()[0])
        st.d["resolved"].append([fed, False])
    return st, me


@pytest.mark.parametrize("cid", list(ED.cards))
def test_every_card_event(cid):
    st, me = rich(cid)
    card = ED.cards[cid]
    raw = _event_choices(st.d, ED, me, cid, Rng(5))
    before = st.d
    res = play(st, me, **raw)
    d = res.state.d
    assert cid not in d["hands"][me]
    ks = kinds(res)
    assert ks[0] == "event"
    for step in card.steps:
        kind = step["do"]
        if kind in ("score", "score_per"):
            assert d["scores"][me] > before["scores"][me]
        elif kind == "gain_marker":
            assert d["markers"][me] == before["markers"][me] + step["count"]
        elif kind == "committee_marker":
            assert d["committee"].get(me, 0) >= 1
        elif kind == "committee_remove":
            q = raw["player"]
            assert d["committee"].get(q, 0) == before["committee"][q] - 1
        elif kind == "debate_advance":
            f = step["faction"] if step["faction"] != "any" else raw["faction"]
            assert d["debate"][f][me] == step["steps"]
        elif kind == "declare_vote":
            v = d["delegations"][card.state]
            assert cid in v["cards"] and v["ctrl"] == me and v["protected"] == step["protected"]
        elif kind == "discard_assembly":
            assert sum(len(v["cards"]) for v in d["delegations"].values()) == \
                sum(len(v["cards"]) for v in before["delegations"].values()) - len(raw["targets"])
            assert all(t in d["discard"] for t in raw["targets"])
        elif kind == "seize_delegation":
            assert d["delegations"][raw["state"]]["ctrl"] == me
        elif kind == "steal_card":
            assert len(d["hands"][raw["player"]]) == len(before["hands"][raw["player"]]) - 1
        elif kind == "draw_deck":
            assert "drew" in ks and len(d["hands"][me]) >= 3
        elif kind == "peek_deck":
            peek = next(e for e in res.log if e.kind == "peeked_cards")
            assert peek.visible_to == frozenset([me]) and peek.data["cards"] == before["deck"][::-1][:step["count"]]
        elif kind == "take_discard":
            assert raw["pick"] in d["hands"][me] and raw["pick"] not in d["discard"]
        elif kind == "flip_article":
            assert "article_flipped" in ks
        elif kind == "swap_articles":
            assert d["assembly"] == before["committee_article"]
        else:       # persistent effects
            assert [me, cid] in d["persistent"]
    if card.persistent:
        assert [me, cid] in d["persistent"] and cid not in d["discard"]
    elif not any(s["do"] == "declare_vote" and s["with_card"] for s in card.steps):
        assert cid in d["discard"]


def test_event_refused_when_it_would_have_no_effect():
    st = board(hands={"madison": ["madison", "gerry"]})         # no Federalist in the Assembly Room
    probs = errors(st, "madison", action="event", card="gerry", targets=["washington"])
    assert [p.code for p in probs] == ["event.no_effect"]
    assert "gerry (no effect now)" in RULES.order_form(st, "madison", "en")


def test_ingersoll_blocks_other_players_events_for_the_round():
    st = board(hands={"madison": ["madison", "ingersoll"], "paterson": ["paterson", "jenifer"]})
    st = play(st, "madison", action="event", card="ingersoll").state
    assert st.d["persistent"] == [["madison", "ingersoll"]]
    probs = errors(st, "paterson", action="event", card="jenifer")
    assert [(p.code, p.params["by"]) for p in probs] == [("event.blocked", "Jared Ingersoll")]
    st.d["active"] = 0
    st.d["hands"]["madison"].append("mcclurg")
    assert errors(st, "madison", action="event", card="mcclurg") == []   # not the enacting player


def test_robert_morris_blocks_washington_only_for_others():
    st = board(hands={"madison": ["madison", "morris_r"], "paterson": ["paterson", "washington", "jenifer"]})
    st = play(st, "madison", action="event", card="morris_r").state
    assert [p.code for p in errors(st, "paterson", action="event", card="washington", side="yea")] == ["event.blocked"]
    assert errors(st, "paterson", action="event", card="jenifer") == []


def test_washington_votes_regardless_of_bias_and_cannot_be_overridden():
    st = board(bias="antifederalist", hands={"madison": ["madison", "washington", "blair"],
                                             "paterson": ["paterson", "mason", "randolph", "mcclurg", "wythe"]})
    st = play(st, "madison", action="event", card="washington", side="yea", delegates=["blair"]).state
    v = st.d["delegations"]["VA"]
    assert v == {"side": "yea", "cards": ["washington", "blair"], "ctrl": "madison", "protected": True}
    assert st.d["scores"]["madison"] == 1
    assert [p.code for p in errors(st, "paterson", action="vote", state="VA", side="nay",
                                   delegates=["randolph", "mcclurg", "wythe"])] == ["vote.protected"]


def test_davie_ignores_bias_himself_but_not_his_colleagues():
    st = board(bias="small_states", hands={"madison": ["madison", "davie", "williamson", "blount"]})
    assert errors(st, "madison", action="event", card="davie", side="yea", delegates=["blount"]) == []
    probs = errors(st, "madison", action="event", card="davie", side="yea", delegates=["williamson"])
    assert [p.code for p in probs] == ["vote.bias"]


def test_pinckney_cc_protects_own_delegations():
    st = board(bias="large_states", hands={"madison": ["madison", "pinckney_cc"],
                                           "paterson": ["paterson", "clymer", "morris_g"]})
    put_delegation(st, "PA", "yea", ["mifflin"], ctrl="madison")
    st = play(st, "madison", action="event", card="pinckney_cc").state
    assert [p.code for p in errors(st, "paterson", action="vote", state="PA", side="nay",
                                   delegates=["clymer", "morris_g"])] == ["vote.protected"]


def test_fitzsimons_assembly_bonus_at_round_end():
    st = board(bias="large_states", hands={"madison": ["madison", "wythe"]})
    st.d["persistent"] = [["madison", "fitzsimons"]]
    take(st, "fitzsimons")
    for s, c in zip(["NH", "MA", "CT", "NY", "NJ", "PA"], ["langdon", "gorham", "sherman", "lansing", "livingston", "clymer"]):
        put_delegation(st, s, "yea", [c])
    put_delegation(st, "PA", "yea", ["clymer", "wilson"], ctrl="madison")
    res = play(st, "madison", action="vote", state="VA", side="yea", delegates=["wythe"])
    # PA: Clymer 1 + Wilson (Large States, matches) 2, VA: Wythe 1; plus 1 per delegate = 3
    assert next(e.data for e in res.log if e.kind == "assembly_resolved")["points"]["madison"] == 4 + 3


def test_discard_last_card_reopens_the_state_and_returns_the_marker():
    st = board(hands={"madison": ["madison", "yates"]})
    put_delegation(st, "PA", "yea", ["mifflin"], ctrl="paterson")
    put_delegation(st, "NJ", "nay", ["dayton", "brearley"], ctrl="sherman")
    res = play(st, "madison", action="event", card="yates", targets=["mifflin", "dayton"])
    d = res.state.d
    assert "PA" not in d["delegations"] and d["delegations"]["NJ"]["cards"] == ["brearley"]
    assert sum(1 for v in d["delegations"].values() if v["ctrl"] == "paterson") == 0
    reopened = {e.data["state"]: e.data["reopened"] for e in res.log if e.kind == "assembly_discarded"}
    assert reopened == {"PA": True, "NJ": False}
    too_many = errors(st, "madison", action="event", card="yates", targets=["mifflin", "dayton", "brearley"])
    assert [p.code for p in too_many] == ["event.targets_count"]


def test_lansing_only_targets_rivals():
    st = board(hands={"madison": ["madison", "lansing"]})
    put_delegation(st, "PA", "yea", ["mifflin"], ctrl="madison")
    put_delegation(st, "NJ", "nay", ["dayton"])
    assert [p.code for p in errors(st, "madison", action="event", card="lansing", targets=["mifflin"])] == ["event.no_effect"]


def test_steal_card_by_position_tells_the_front_only_to_the_two():
    st = board(hands={"madison": ["madison", "bassett"], "sherman": ["sherman", "wilson"]})
    res = play(st, "madison", action="event", card="bassett", player="sherman", position=2)
    assert "wilson" in res.state.d["hands"]["madison"] and res.state.d["hands"]["sherman"] == ["sherman"]
    front = next(e for e in res.log if e.kind == "card_taken_front")
    assert front.visible_to == frozenset(["madison", "sherman"])
    assert [p.code for p in errors(st, "madison", action="event", card="bassett", player="sherman",
                                   position=5)] == ["event.position"]


def test_gain_marker_limited_by_the_stockpile_of_eight():
    st = board(hands={"madison": ["madison", "hamilton"]})
    st.d["markers"]["madison"] = 8
    res = play(st, "madison", action="event", card="hamilton")
    assert res.state.d["markers"]["madison"] == 8 and res.state.d["scores"]["madison"] == 1
    assert "marker_gained" not in kinds(res)


def test_committee_marker_needs_a_free_marker():
    st = board(hands={"madison": ["madison", "broom"]})
    st.d["committee"] = {"madison": 3}
    assert [p.code for p in errors(st, "madison", action="event", card="broom")] == ["event.no_effect"]


def test_seize_swap_flip_take_discard_and_committee_remove():
    st = board(bias="large_states", committee_bias="federalist",
               hands={"madison": ["madison", "read", "randolph", "morris_g", "livingston", "blount", "franklin"]})
    put_delegation(st, "GA", "nay", ["few"])
    st.d["committee"] = {"sherman": 2}
    take(st, "mason")
    st.d["discard"].append("mason")
    a = play(st, "madison", action="event", card="read", state="GA").state.d
    assert a["delegations"]["GA"]["ctrl"] == "madison"
    b = play(st, "madison", action="event", card="randolph").state.d
    assert b["assembly"] == st.d["committee_article"] and b["committee_article"] == st.d["assembly"]
    first = st.d["resolved"][0][0]
    c = play(st, "madison", action="event", card="morris_g", article=first).state.d
    assert c["resolved"][0] == [first, True]
    e = play(st, "madison", action="event", card="livingston", pick="mason").state.d
    assert "mason" in e["hands"]["madison"] and "mason" not in e["discard"]
    f = play(st, "madison", action="event", card="blount", player="sherman").state.d
    assert f["committee"] == {"sherman": 1}
    g = play(st, "madison", action="event", card="franklin").state.d
    assert g["assembly"] == [st.d["assembly"][0], True]
    assert [p.code for p in errors(st, "madison", action="event", card="blount", player="paterson")] == ["event.player"]


def test_score_per_counts_each_kind():
    from referee_games.founding_fathers.effects import Ctx, _per_count
    st = board(hands={"madison": ["madison"]})
    put_delegation(st, "PA", "yea", ["mifflin", "wilson"], ctrl="madison")
    put_delegation(st, "NJ", "nay", ["dayton"], ctrl="madison")
    st.d["committee"] = {"madison": 2}
    st.d["tokens"]["madison"]["federalist"] = 3
    st.d["resolved"] = [[a, False] for a, v in ED.articles.items() if v["front"] == "federalist"][:2]
    x = Ctx(st.d, ED, "madison", "madison", None, None, [])
    got = {w: _per_count(x, {"what": w, "faction": "federalist"})
           for w in ["own_delegations", "own_delegates", "committee_markers", "debate_tokens", "resolved"]}
    assert got == {"own_delegations": 2, "own_delegates": 3, "committee_markers": 2, "debate_tokens": 3, "resolved": 2}


def test_edition_defined_vote_event_without_its_own_card():
    """An edition may define a plain "declare an extra vote" event from hand cards."""
    import json

    from referee_games.founding_fathers.edition import compile_edition
    raw = {"name": "t", "title": "t",
           "delegates": [{"id": c.id, "name": c.name, "state": c.state, "faction": c.faction, "source": c.source,
                          "persistent": c.persistent, "event": {"text": c.text, "steps": list(c.steps)}}
                         for c in ED.cards.values()],
           "articles": [{"id": a, "source": v["source"], "front": v["front"], "back": v["back"], "title": v["title"]}
                        for a, v in ED.articles.items()]}
    raw = json.loads(json.dumps(raw))
    jen = next(d for d in raw["delegates"] if d["id"] == "jenifer")
    jen["event"]["steps"] = [{"do": "declare_vote", "ignore_bias": True}, {"do": "score", "points": 1}]
    ed = compile_edition(raw, raw)
    st = board(bias="large_states", hands={"madison": ["madison", "jenifer", "dayton"]})
    st.ed, st.d["edition"] = ed, raw
    res = play(st, "madison", action="event", card="jenifer", state="NJ", side="nay", delegates=["dayton"])
    d = res.state.d
    assert d["delegations"]["NJ"]["cards"] == ["dayton"] and "jenifer" in d["discard"]
    assert d["scores"]["madison"] == 1
    assert [p.code for p in errors(st, "madison", action="event", card="jenifer", state="NJ", side="nay",
                                   delegates=[])] == ["vote.no_delegates"]
