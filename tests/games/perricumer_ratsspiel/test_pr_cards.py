"""The eight event cards: one per round, each once per game, clashes void."""
from pr_helpers import ALL_CARDS, consensus_state, gm_entries, orders, play, record

from referee.game_api.contract import phrase
from referee_games.perricumer_ratsspiel import RULES

CARDS = {"p1": ALL_CARDS[:4] + ["kaiserhof"], "p2": ALL_CARDS[4:]}


def _state(**kw):
    return consensus_state(cards={"p1": ["familienstern", "fremdes_revier", "fremde_schichten"],
                                  "p2": ["aufstaende", "klassenkampf", "entfuehrung"]}, **kw)


def _cards(s, p1, p2=None):
    s["cards"] = {"p1": list(p1), "p2": list(p2 or ["kaiserhof"])}
    return s


def test_familienstern_doubles_influence_from_votes_won_and_is_spent():
    s = _cards(consensus_state(), ["familienstern"])
    res = play(s, {"p1": {"ereigniskarte": "familienstern", "abstimmung": {99: "pro"}}})
    assert record(res.state, 99)["result"] == "pro"
    assert record(res.state, 99)["symbol_gains"]["alrik"] == 4         # 2 for Militär, doubled
    assert record(res.state, 99)["symbol_gains"]["sarina"] == 2
    assert res.state["cards"]["p1"] == []


def test_fremdes_revier_counts_a_further_quarter():
    s = _cards(consensus_state(extra_pro=["marktviertel"]), ["fremdes_revier"])
    res = play(s, {"p1": {"ereigniskarte": {"karte": "fremdes_revier", "viertel": "marktviertel"},
                          "abstimmung": {99: "pro"}}})
    assert record(res.state, 99)["symbol_gains"]["alrik"] == 5          # Militär + Marktviertel


def test_fremde_schichten_counts_a_further_estate():
    s = _cards(consensus_state(extra_pro=["efferdgrund"], without=["militaer"]), ["fremde_schichten"])
    base = play(s, {"p1": {"abstimmung": {99: "pro"}}})
    assert record(base.state, 99)["symbol_gains"]["alrik"] == 2
    res = play(s, {"p1": {"ereigniskarte": {"karte": "fremde_schichten", "schicht": "patrizier"},
                          "abstimmung": {99: "pro"}}})
    assert record(res.state, 99)["symbol_gains"]["alrik"] == 5


def test_aufstaende_keep_a_quarter_from_voting_but_they_still_gain():
    s = _cards(consensus_state(), ["aufstaende"])
    res = play(s, {"p1": {"ereigniskarte": {"karte": "aufstaende", "viertel": "neustadt"}, "abstimmung": {99: "pro"}}})
    rp = record(res.state, 99)
    neustadt = ["yargunde", "bosper", "rondrigan", "nivard"]
    assert all(rp["votes"][m] is None for m in neustadt)
    assert rp["tally"] == {"pro": 40 - 7, "contra": 0}
    assert all(rp["symbol_gains"][m] == 2 for m in neustadt)


def test_klassenkampf_keeps_an_estate_from_voting_but_they_still_gain():
    s = _cards(consensus_state(), ["klassenkampf"])
    res = play(s, {"p1": {"ereigniskarte": {"karte": "klassenkampf", "schicht": "klerus"}, "abstimmung": {99: "pro"}}})
    rp = record(res.state, 99)
    assert sum(v is None for v in rp["votes"].values()) == 7
    assert rp["tally"]["pro"] == 33 and rp["symbol_gains"]["efferdan"] == 2


def test_entfuehrung_removes_an_npc_this_and_next_round_without_influence():
    s = _cards(consensus_state(), ["entfuehrung"])
    res = play(s, {"p1": {"ereigniskarte": {"karte": "entfuehrung", "ziel": "wallgrin"}, "abstimmung": {99: "pro"}}})
    rp = record(res.state, 99)
    assert rp["votes"]["wallgrin"] is None and "wallgrin" not in rp["gains"]
    assert rp["tally"]["pro"] == 36
    nxt = res.state
    nxt["session"] = [99]
    res2 = play(nxt, {"p1": {"abstimmung": {99: "pro"}}})
    assert record(res2.state, 99)["votes"]["wallgrin"] is None          # the next round too
    nxt2 = res2.state
    nxt2["session"] = [99]
    res3 = play(nxt2, {"p1": {"abstimmung": {99: "pro"}}})
    assert record(res3.state, 99)["votes"]["wallgrin"] == "pro"         # back after two rounds


def test_two_entfuehrungen_on_one_member_are_both_void_and_spent():
    s = _cards(consensus_state(), ["entfuehrung"], ["entfuehrung"])
    card = {"karte": "entfuehrung", "ziel": "wallgrin"}
    res = play(s, {"p1": {"ereigniskarte": card}, "p2": {"ereigniskarte": card}})
    assert record(res.state, 99)["votes"]["wallgrin"] == "pro"
    assert res.state["kidnapped"] == {}
    assert res.state["cards"] == {"p1": [], "p2": []}
    assert [e.data["count"] for e in res.log if e.kind == "card_void"] == [2]


def test_marionette_controls_an_npcs_votes():
    s = _cards(consensus_state(), ["marionette"])
    res = play(s, {"p1": {"ereigniskarte": {"karte": "marionette", "ziel": "efferdan", "abstimmung": {99: "contra"}},
                          "abstimmung": {99: "pro"}}})
    assert record(res.state, 99)["votes"]["efferdan"] == "contra"
    # without explicit votes the puppet votes as its master
    s = _cards(consensus_state(), ["marionette"])
    res = play(s, {"p1": {"ereigniskarte": {"karte": "marionette", "ziel": "wallgrin"}, "abstimmung": {99: "contra"}}})
    assert record(res.state, 99)["votes"]["wallgrin"] == "contra"


def test_two_marionettes_on_one_member_are_void():
    s = _cards(consensus_state(), ["marionette"], ["marionette"])
    card = {"karte": "marionette", "ziel": "wallgrin", "abstimmung": {99: "contra"}}
    res = play(s, {"p1": {"ereigniskarte": card}, "p2": {"ereigniskarte": card}})
    assert record(res.state, 99)["votes"]["wallgrin"] == "pro"


def test_stimme_vom_kaiserhofe_adds_three_votes_to_one_side():
    s = _cards(consensus_state(), ["kaiserhof"])
    res = play(s, {"p1": {"ereigniskarte": {"karte": "kaiserhof", "vorschlag": 99, "seite": "contra"},
                          "abstimmung": {99: "pro"}}})
    assert record(res.state, 99)["tally"] == {"pro": 40, "contra": 3}


def test_only_held_cards_can_be_played_and_a_faulty_card_is_no_card():
    s = _cards(consensus_state(), ["kaiserhof"])
    o = orders(ereigniskarte="familienstern")
    assert [p.code for p in RULES.validate(s, "p1", o) if p.where.startswith("ereignis")] == ["fault.card.used"]
    o = orders(ereigniskarte={"karte": "entfuehrung", "ziel": "efferdan"})   # efferdan is an NPC here
    s["cards"]["p1"] = ["entfuehrung"]
    assert not [p for p in RULES.validate(s, "p1", o) if p.where.startswith("ereignis")]
    o = orders(ereigniskarte={"karte": "entfuehrung", "ziel": "sarina"})     # sarina is played by p2
    probs = [p for p in RULES.validate(s, "p1", o) if p.where.startswith("ereignis")]
    assert [p.code for p in probs] == ["fault.card.target"] and all(p.severity == "warning" for p in probs)
    res = play(s, {"p1": {"ereigniskarte": {"karte": "entfuehrung", "ziel": "sarina"}}})
    assert res.state["cards"]["p1"] == ["entfuehrung"] and res.state["kidnapped"] == {}


def test_three_different_cards_are_chosen_in_round_one():
    from pr_helpers import new_game

    from referee.game_api.contract import Rng
    from referee_games.perricumer_ratsspiel.rules import RULES as R
    s = R.setup(["p1", "p2"], {"members": {"p1": "alrik", "p2": "sarina"}}, Rng(1))
    assert s["cards"] == {"p1": None, "p2": None}
    assert [p.code for p in R.validate(s, "p1", orders(ereigniskarten=["kaiserhof", "kaiserhof", "marionette"]))
            if p.where.startswith("ereigniskarten")] == ["fault.picks.twice"]
    res = play(s, {"p1": {"ereigniskarten": ["kaiserhof", "marionette", "aufstaende"], "auswahl": 1}})
    assert res.state["cards"]["p1"] == ["aufstaende", "marionette", "kaiserhof"]
    assert len(set(res.state["cards"]["p2"])) == 3                       # drawn by lot
    assert [e.data["player"] for e in gm_entries(res, "lot") if e.data["why"] == "ereigniskarten"] == ["p2"]


def test_a_card_field_that_takes_no_such_value_says_which_values_it_takes():
    s = _cards(consensus_state(), ["kaiserhof"])
    agenda = " | ".join(str(nr) for nr in s["session"])
    for card, en, de in (({"karte": "kaiserhof", "vorschlag": 99, "seite": "dafür"},
                          "Possible: pro | contra.", "Möglich: pro | contra."),
                         ({"karte": "kaiserhof", "vorschlag": 12345, "seite": "pro"},
                          f"Possible: {agenda}.", f"Möglich: {agenda}.")):
        [problem] = [p for p in RULES.validate(s, "p1", orders(ereigniskarte=card)) if p.where.startswith("ereignis")]
        assert en in phrase(RULES, problem, "en") and de in phrase(RULES, problem, "de"), problem
