"""Standardaktionen: no card; Verwaltungsarbeit with 12 AP; vote like an NPC;
a random pick.  Faulty parts fall back to them with a warning."""
from pr_helpers import gm_entries, new_game, orders, play, record, session_state

from referee_games.perricumer_ratsspiel import RULES


def _codes(s, player, o):
    probs = RULES.validate(s, player, o)
    assert all(p.severity == "warning" for p in probs)
    return [p.code for p in probs]


def test_default_orders_are_every_standardaktion_and_only_warn():
    s = session_state([1], members={"p1": "efferdan"})
    d = RULES.default_orders(s, "p1")
    assert d.ereigniskarte is None and d.aktionen is None and d.abstimmung == {} and d.auswahl is None
    assert _codes(s, "p1", d) == ["actions.missing", "vote.missing", "select.missing"]


def test_missing_orders_play_no_card_administer_with_12_vote_as_npc_and_pick_at_random():
    s = session_state([1], members={"p1": "efferdan"}, korruption=5)
    res = RULES.resolve(s, {}, __import__("referee.game_api.contract", fromlist=["Rng"]).Rng(4))
    st = res.state
    assert st["cards"]["p1"] == s["cards"]["p1"]                        # no card
    assert st["last"]["verwaltung"]["points"] == 12
    assert st["last"]["verwaltung"]["reduction"] == 4                     # 1+2+3+4 = 10 ≤ 12
    assert record(st, 1)["votes"]["efferdan"] == "contra"                 # his NPC inclination
    standard = [r for e in gm_entries(res, "npc_votes") for r in e.data["reasons"] if r.get("standard")]
    assert standard == [{"member": "efferdan", "player": "p1", "standard": True, "lot": False, "vote": "contra"}]
    lots = [e for e in gm_entries(res, "lot") if e.data["why"] == "auswahl"]
    assert len(lots) == 1 and lots[0].visible_to == frozenset({"p1"})
    assert lots[0].data["drawn"] in s["selection"]


def test_too_many_action_points_fall_back_to_verwaltungsarbeit():
    s = session_state([1], members={"p1": "alrik"})
    o = orders(aktionen={"verwaltungsarbeit": 6, "wahlkampf": 7})
    assert "fault.actions.ap" in _codes(s, "p1", o)
    res = play(s, {"p1": o.model_dump()})
    ap = res.state["last"]["private"]["p1"]["ap"]
    assert ap["default"] is True and ap["verwaltung"] == 12 and ap["wahlkampf"]["gained"] == 0


def test_einflussnahme_on_a_player_character_is_faulty():
    s = session_state([1], members={"p1": "alrik", "p2": "efferdan"})
    o = orders(aktionen={"einflussnahme": [{"ziel": "efferdan", "vorschlag": 1, "richtung": "pro"}]})
    assert "fault.actions.target" in _codes(s, "p1", o)


def test_a_faulty_vote_is_cast_as_an_npc_would():
    s = session_state([1], members={"p1": "efferdan"})
    o = orders(abstimmung={1: "vielleicht"}, auswahl=s["selection"][0])
    assert _codes(s, "p1", o) == ["fault.vote.choice", "actions.missing"]   # the fault first
    res = play(s, {"p1": o.model_dump()})
    assert record(res.state, 1)["votes"]["efferdan"] == "contra"


def test_a_pick_outside_the_selection_becomes_a_random_pick():
    s = new_game({"p1": "alrik", "p2": "sarina"})
    o = orders(auswahl=30, ereigniskarten=None)
    assert _codes(s, "p1", o) == ["fault.select.unknown"]
    res = play(s, {"p1": {"auswahl": 30}, "p2": {"auswahl": 2}})
    assert res.state["last"]["selection"]["picks"]["p1"] in s["selection"]


def test_round_one_ignores_cards_actions_and_votes_with_a_warning():
    s = new_game({"p1": "alrik"})
    o = orders(ereigniskarte="kaiserhof", aktionen={"verwaltungsarbeit": 12}, abstimmung={1: "pro"}, auswahl=1)
    assert _codes(s, "p1", o) == ["phase.skipped", "phase.skipped", "phase.skipped"]
    res = play(s, {"p1": o.model_dump()})
    assert res.state["last"]["verwaltung"] is None and res.state["last"]["proposals"] == []
    assert res.state["cards"]["p1"] == ["familienstern", "marionette", "kaiserhof"]


def test_every_problem_code_is_phrased_in_german_and_english():
    import pathlib
    import re

    import referee_games.perricumer_ratsspiel as pkg
    from referee_games.perricumer_ratsspiel.messages import MESSAGES
    src = "".join(p.read_text() for p in pathlib.Path(pkg.__file__).parent.glob("*.py"))
    used = set(re.findall(r'_w\("([a-z_.]+)"', src)) | set(re.findall(r'_err\("([a-z_.]+)"', src))
    assert used and used <= set(MESSAGES)
    assert all(set(t) == {"de", "en"} for t in MESSAGES.values())
