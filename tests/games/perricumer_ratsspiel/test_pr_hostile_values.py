"""Issue 33: the new ways values are read (any case, names, umlauts, ``rest``, misplaced
keys, the GM's words) given hostile values: never an exception, never a value read
as something it does not name."""
import pytest
from pr_helpers import ALL_CARDS, orders, session_state

from referee.game_api.contract import GM
from referee_games.perricumer_ratsspiel import RULES
from referee_games.perricumer_ratsspiel.orders import GmOrders, SessionOrders
from referee_games.perricumer_ratsspiel.words import choices, fold

WEIRD = ["", " ", "x" * 5000, "Ä" * 300, "e\u0301" * 200, "\x00", "ﬀ", "İ", "ß" * 50, "-", "_", "🙂", "PRO ",
         "Efferdgrund & Kriegshafen", "efferdgrund_&_kriegshafen"]


@pytest.mark.parametrize("value", WEIRD)
def test_hostile_values_in_every_enumerated_field_only_warn(value):
    s = session_state([1], cards={"p1": ALL_CARDS[:3], "p2": ALL_CARDS[3:6]})
    for card in ALL_CARDS:
        doc = {"ereigniskarte": {"karte": card, "viertel": value, "schicht": value, "ziel": value, "seite": value,
                                 "vorschlag": 1, "abstimmung": {1: value}},
               "aktionen": {"verwaltungsarbeit": "rest",
                            "einflussnahme": [{"ziel": value, "vorschlag": 1, "richtung": value}]},
               "abstimmung": {1: value}, "ereigniskarten": [value, value, value], "auswahl": 2}
        probs = RULES.validate(s, "p1", orders(**doc))
        assert all(p.severity == "warning" for p in probs), probs
        RULES.understood(s, "p1", orders(**doc))


@pytest.mark.parametrize("value", WEIRD)
def test_hostile_values_in_the_gm_orders_only_warn(value):
    s = session_state([1], gm_orders=True)
    doc = GmOrders.model_validate({"nachziehen": [1], "agenda_veroeffentlichen": [value], "neue_vorschlaege": [
        {"title_de": value, "kind": value, "value": value, "direction": value, "pro": [value], "contra": [value],
         "office": value, "candidates": [value, value]}]})
    assert all(p.severity == "warning" for p in RULES.validate(s, GM, doc))


def test_misplaced_keys_of_any_value_are_errors_that_name_the_key():
    s = session_state([1])
    model = SessionOrders.model_validate({"vorschlag": {"a": ["x" * 1000]}, "ziel": None, "punkte": -1, "auswahl": 2})
    errors = [p for p in RULES.validate(s, "p1", model) if p.is_error]
    assert sorted(p.params["key"] for p in errors) == ["punkte", "vorschlag", "ziel"]
    assert all(p.where == p.params["key"] for p in errors)
    with pytest.raises(ValueError):
        SessionOrders.model_validate({"aktionen": {"verwaltungsarbeit": "alle"}})


def test_a_word_two_ids_share_is_read_as_neither():
    table = choices(["a_b", "a-b"])
    assert table == {} and fold("Ärger Straße") == "aerger_strasse"
