"""Issue 36: what the order page needs for the Ratsspiel and 1848 — a mapping whose keys the game
offers (the Ratsspiel's votes) and a choice's ``when`` (a card's detail, a step's target), kept
within the page's caps however a game fills it."""
from __future__ import annotations

from pydantic import BaseModel

from referee.game_api import registry
from referee.render import order_page
from referee.render.order_shape import shape


class Votes(BaseModel):
    abstimmung: dict[int, str] = {}


def test_a_mapping_with_keys_to_choose_is_a_map_of_its_values():
    tree = shape(Votes.model_json_schema())
    assert tree["f"][0]["n"] == {"t": "map", "i": {"t": "str"}, "ti": "Abstimmung"}


class _Offers:
    """1848's rules with ``order_choices`` replaced by what a test gives."""

    def __init__(self, offers) -> None:
        self.rules, self.offers = registry.get("revolution_1848"), offers

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def order_choices(self, state, player, lang):
        return self.offers


def test_a_choices_when_is_kept_and_capped():
    hostile = {"steps.*.on": [
        {"value": "PE01", "label": "a", "when": {"play": ["Z01", "Z02"]}},
        {"value": "PE02", "label": "b", "when": {f"k{i}": list(range(1000)) for i in range(20)}},
        {"value": "PE03", "label": "c", "when": {"play": [{"nested": 1}, "Z03", None]}},
        {"value": "PE04", "label": "d", "when": ["play", "Z01"]},
        {"value": "PE05", "label": "e", "when": {"x" * 65: ["Z01"], 7: ["Z02"]}},
    ]}
    got = order_page.choices_of(_Offers(hostile), None, "ada", "en")["steps.*.on"]
    assert got[0] == ["PE01", "a", {"play": ["Z01", "Z02"]}]
    assert len(got[1][2]) == 8 and all(len(v) == order_page.MAX_VALUES for v in got[1][2].values())
    assert got[2][2] == {"play": ["Z03"]}          # only plain values
    assert got[3] == ["PE04", "d"] and got[4] == ["PE05", "e"]   # no mapping of field names: no when
