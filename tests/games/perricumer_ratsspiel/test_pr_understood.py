"""Issue #10: the Ratsspiel's "as understood" echo shows exactly the orders the session
will use: a part replaced by its Standardaktion shows the Standardaktion, not what was
sent; a card not played is "keine"; nulls are left out; and the AP overflow is reported
together with every other problem, not only when it is the only one."""
from __future__ import annotations

from pr_helpers import orders, session_state

from referee.game_api.contract import Rng
from referee_games.perricumer_ratsspiel import RULES


def test_actions_replaced_by_the_standardaktion_are_echoed_as_the_standardaktion():
    s = session_state([1, 2])
    sent = orders(aktionen={"verwaltungsarbeit": 10, "wahlkampf": 10}, abstimmung={1: "pro", 2: "contra"},
                  auswahl=s["selection"][0])
    codes = [p.code for p in RULES.validate(s, "p1", sent)]
    assert codes == ["fault.actions.ap"]
    used = RULES.understood(s, "p1", sent)
    assert used["aktionen"] == {"verwaltungsarbeit": 12, "wahlkampf": 0}
    assert used["abstimmung"] == {1: "pro", 2: "contra"} and used["auswahl"] == s["selection"][0]


def test_the_ap_overflow_is_reported_with_the_other_problems():
    s = session_state([1, 2])
    sent = orders(aktionen={"verwaltungsarbeit": 10, "wahlkampf": 4,
                            "einflussnahme": [{"ziel": "niemand", "vorschlag": 1, "richtung": "pro", "punkte": 2}]},
                  abstimmung={1: "vielleicht", 2: "pro"}, auswahl=9999)
    codes = [p.code for p in RULES.validate(s, "p1", sent)]
    for code in ("fault.actions.target", "fault.actions.ap", "fault.vote.choice", "fault.select.unknown"):
        assert code in codes, codes
    used = RULES.understood(s, "p1", sent)
    assert used["aktionen"] == {"verwaltungsarbeit": 12, "wahlkampf": 0}
    assert used["abstimmung"] == {2: "pro"} and "auswahl" not in used


def test_a_card_is_echoed_without_its_null_fields_and_a_refused_one_as_keine():
    s = session_state([1, 2], cards=None)
    card = {"karte": "kaiserhof", "vorschlag": 1, "seite": "pro"}
    used = RULES.understood(s, "p1", orders(ereigniskarte=card, abstimmung={1: "pro", 2: "pro"}))
    assert used["ereigniskarte"] == card
    assert "viertel" not in str(used) and "None" not in str(used) and "null" not in str(used)
    used = RULES.understood(s, "p1", orders(ereigniskarte={"karte": "aufstaende", "viertel": "nirgendwo"}))
    assert used["ereigniskarte"] == "keine"
    used = RULES.understood(s, "p1", orders(ereigniskarte="keine"))
    assert used["ereigniskarte"] == "keine"


def test_round_one_echoes_the_three_cards_and_the_pick_only():
    s = RULES.setup(["p1", "p2"], {"members": {"p1": "alrik", "p2": "efferdan"}}, Rng(3))
    sent = orders(ereigniskarten=["kaiserhof", "familienstern", "marionette"], auswahl=s["selection"][0])
    used = RULES.understood(s, "p1", sent)
    assert used == {"ereigniskarten": ["familienstern", "marionette", "kaiserhof"], "auswahl": s["selection"][0]}
