"""Phase 4–6 mechanics: elections, the whole-group bonus, offices, the
selection with gaps and its refill, and the GM's orders."""
from pr_helpers import consensus_state, new_game, orders, play, record, session_state

from referee.game_api.contract import GM, Rng
from referee_games.perricumer_ratsspiel import RULES
from referee_games.perricumer_ratsspiel import council as C
from referee_games.perricumer_ratsspiel.session import settle

HAFENMEISTER = 8     # candidates retodan, travine, jorgast, alrik


def _effects():
    return {"double": [], "extra": {}, "absent": {}, "puppets": {}, "kaiserhof": [], "kidnapped": []}


def _rec():
    return {"proposals": [], "korruption_steps": [], "offices_lost": []}


def test_election_persuasion_is_majority_plus_own_preference():
    cands = ["a", "b", "c"]
    assert C.election_field(["a"], cands, {}) == ["a"]
    assert C.election_field(["a"], cands, {"b": 1}) == ["a", "b"]        # 1 : 1 → lot
    assert C.election_field(["a"], cands, {"b": 2}) == ["b"]
    assert C.election_field(["a"], cands, {"b": 2, "c": 1}) == ["b"]      # netted: majority of persuasion
    assert C.election_field(["a", "b"], cands, {}) == ["a", "b"]
    assert C.election_field(["a", "b"], cands, {"c": 1}) == ["c"]


def test_npc_votes_for_the_candidate_sharing_its_symbols():
    s = new_game({"p1": "makil"})
    best, gains = C.inclination(s, "jorgast", s["proposals"][str(HAFENMEISTER)])
    assert gains == {"retodan": 5, "travine": 2, "jorgast": 5, "alrik": 2} and best == ["jorgast", "retodan"]


def test_election_simple_majority_elects_and_voters_gain_by_the_winners_symbols():
    s = session_state([HAFENMEISTER], members={"p1": "makil"})
    ids = C.member_ids(s)
    votes = {str(HAFENMEISTER): {m: ("retodan" if i < 10 else "travine") for i, m in enumerate(ids)}}
    rec = _rec()
    settle(s, votes, _effects(), [], rec, Rng(1))
    rp = rec["proposals"][0]
    assert rp["tally"]["retodan"] == 22 and rp["tally"]["travine"] == 18 and rp["result"] == "retodan"
    assert s["offices"]["hafenmeister"]["holder"] == "retodan" and s["korruption"] == 0
    assert rp["symbol_gains"]["retodan"] == 5 and rp["symbol_gains"]["alrik"] == 2   # Efferdgrund
    assert "jorgast" not in rp["symbol_gains"]                                        # voted travine


def test_election_tie_raises_korruption_and_leaves_the_office():
    s = session_state([HAFENMEISTER], members={"p1": "makil"})
    ids = C.member_ids(s)
    votes = {str(HAFENMEISTER): {m: ("retodan" if i < 9 else "travine") for i, m in enumerate(ids)}}
    rec = _rec()
    settle(s, votes, _effects(), [], rec, Rng(1))
    assert rec["proposals"][0]["result"] is None and s["korruption"] == 1
    assert s["offices"]["hafenmeister"]["holder"] is None


def test_a_whole_quarter_or_estate_voting_alike_gains_one_each_regardless_of_outcome():
    s = consensus_state()
    res = play(s, {"p1": {"abstimmung": {99: "pro"}}, "p2": {"abstimmung": {99: "pro"}}})
    rp = record(res.state, 99)
    assert all(rp["gains"][m] - rp["symbol_gains"].get(m, 0) == 2 for m in C.member_ids(s))
    # alrik alone breaks Efferdgrund and Militär: those two groups get nothing
    res = play(s, {"p1": {"abstimmung": {99: "contra"}}, "p2": {"abstimmung": {99: "pro"}}})
    rp = record(res.state, 99)
    assert "efferdgrund" not in rp["groups"] and "militaer" not in rp["groups"] and "klerus" in rp["groups"]
    assert "alrik" not in rp["gains"]                # lost the vote, broke both his groups
    assert rp["gains"]["efferdan"] == 2 + 1          # Klerus symbol + Klerus voted alike


def test_office_holder_bonus_counts_and_two_rounds_below_seven_cost_the_office():
    s = session_state([], members={"p1": "alrik", "p2": "sarina"})
    s["values"]["stadtkasse"] = 6
    res = play(s, {})
    assert res.state["offices"]["kaemmerer"] == {"holder": "odoardo", "low": 1}
    res = play(res.state, {})
    st = res.state
    assert st["offices"]["kaemmerer"] == {"holder": None, "low": 0}
    assert st["last"]["offices_lost"] == [{"office": "kaemmerer", "holder": "odoardo"}]
    new = st["session"][-1]
    assert new == 49 and st["proposals"][str(new)]["kind"] == "wahl"
    assert st["proposals"][str(new)]["office"] == "kaemmerer"


def test_duplicate_picks_leave_a_gap_the_gm_fills_from_the_top_with_korruption():
    s = new_game({"p1": "alrik", "p2": "sarina"})
    assert s["selection"] == [1, 2, 3, 4] and s["deck"][:2] == [5, 6]
    res = play(s, {"p1": {"auswahl": 3}, "p2": {"auswahl": 3}})
    st = res.state
    assert st["session"] == [1, 3]                    # in selection order
    assert st["korruption"] == 1 and st["last"]["selection"]["fills"] == [1]
    assert st["selection"] == [2, 4, 5, 6]            # refilled at the bottom
    assert st["picked"] == {"3": ["p1", "p2"]}


def test_picked_proposals_keep_the_selection_order():
    s = new_game({"p1": "alrik", "p2": "sarina"})
    res = play(s, {"p1": {"auswahl": 4}, "p2": {"auswahl": 2}})
    assert res.state["session"] == [2, 4] and res.state["korruption"] == 0


def test_gm_orders_fill_gaps_add_proposals_and_publish_an_agenda():
    s = new_game({"p1": "alrik", "p2": "sarina"}, gm_orders=True)
    assert RULES.awaiting(s) == {"p1": "session", "p2": "session", GM: "gm"}
    gm = RULES.order_schema(s, "gm").model_validate({
        "nachziehen": [30], "agenda_veroeffentlichen": ["p2"],
        "neue_vorschlaege": [{"title_de": "Brückenzoll", "value": "landhandel", "pro": ["altstadt"], "contra": []}]})
    assert RULES.validate(s, GM, gm) == []
    res = RULES.resolve(s, {"p1": orders(auswahl=3), "p2": orders(auswahl=3), GM: gm}, Rng(2))
    st = res.state
    assert st["session"] == [3, 30] and st["korruption"] == 1
    assert st["revealed"] == ["p2"]
    assert st["selection"] == [1, 2, 4, 49]           # the GM's new proposal is laid out next
    assert RULES.view(st, "p1")["public"]["revealed_agendas"][0]["player"] == "p2"


def test_when_both_sides_reach_24_with_the_imperial_voice_the_larger_carries():
    s = session_state([1], members={"p1": "makil"})
    ids = C.member_ids(s)
    votes = {"1": {m: ("pro" if i < 11 else "contra") for i, m in enumerate(ids)}}   # 24 : 16
    eff = {**_effects(), "kaiserhof": [{"vorschlag": 1, "seite": "contra"}] * 3}   # +9 contra → 25
    rec = _rec()
    settle(s, votes, eff, [], rec, Rng(1))
    assert rec["proposals"][0]["tally"] == {"pro": 24, "contra": 25}
    assert rec["proposals"][0]["result"] == "contra" and s["korruption"] == 0


def test_equal_sides_above_24_give_no_result():
    s = session_state([1], members={"p1": "makil"})
    ids = C.member_ids(s)
    votes = {"1": {m: ("pro" if i < 11 else "contra") for i, m in enumerate(ids)}}   # 24 : 16
    eff = {**_effects(), "kaiserhof": [{"vorschlag": 1, "seite": "contra"}] * 3}
    votes["1"][ids[-1]] = None               # 24 : 15 + 9 = 24
    rec = _rec()
    settle(s, votes, eff, [], rec, Rng(1))
    assert rec["proposals"][0]["tally"] == {"pro": 24, "contra": 24}
    assert rec["proposals"][0]["result"] is None and s["korruption"] == 1
