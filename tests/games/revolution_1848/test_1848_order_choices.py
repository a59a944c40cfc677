"""Issue 36: 1848's choices for the clickable order page.  In positions of matches
played with random orders, every value offered (a step's card, push, target, party,
army's recipient, ``if:`` condition, pass and ask, the draw choice) makes a plan the
referee accepts, with labels in English and German in the report's words."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from choicekit import label_problems, refusals, schema_paths, witness
from r1848kit import board, lay

from referee.app.conformance import play
from referee.game_api.contract import Rng
from referee_games.revolution_1848 import RULES
from referee_games.revolution_1848.orders import SCHEMAS
from referee_games.revolution_1848.page_words import PAGE_WORDS

TEMPLATES = Path(__file__).resolve().parents[3] / "templates" / "revolution_1848"
# a step plays or pushes a card; a condition goes with one
HOW = {"required": {"steps.*": (("play", "push"),)}}


def _refused(problem) -> bool:
    return problem.is_error


def positions(seed: str, players: list[str]) -> list:
    states = [RULES.setup(players, {}, Rng(3))]
    play(RULES, players, seed, on_turn=lambda st, _: states.append(st))
    return states


@pytest.fixture(scope="module")
def matches():
    return [positions("r48-choices-a", ["ada", "bert"]), positions("r48-choices-b", ["ada", "bert", "cleo"]),
            positions("r48-choices-c", ["ada", "bert", "cleo", "dora"])]


def test_every_offered_value_makes_a_plan_the_referee_accepts(matches):
    seen: set[str] = set()
    stages: set[str] = set()
    checked = 0
    for states in matches:
        for s in states[:60]:
            for player, stage in RULES.awaiting(s).items():
                lang = ("de", "en")[checked % 2]
                assert refusals(RULES, s, player, stage, lang, _refused, **HOW) == []
                seen |= set(RULES.order_choices(s, player, lang))
                stages.add(stage)
                checked += 1
    assert stages == {"trick", "draw"}
    assert {"steps.*", "steps.*.play", "steps.*.push", "steps.*.on", "steps.*.player", "steps.*.party",
            "steps.*.to", "steps.*.if.answered", "steps.*.if.winning", "draw"} <= seen
    assert checked > 60


def test_labels_in_english_and_german(matches):
    for states in matches:
        for s in states[:60:4]:
            for player in RULES.awaiting(s):
                assert label_problems(RULES, s, player) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_party_labels_use_the_reports_party_names(matches, lang):
    words = (TEMPLATES / f"_words.{lang}.j2").read_text()
    line = next(x for x in words.splitlines() if x.startswith("{%- set P = "))
    names = dict(re.findall(r'"(RR|DL|L|R)": "([^"]+)"', line))
    s = matches[0][0]
    player = next(iter(RULES.awaiting(s)))
    offered = RULES.order_choices(s, player, lang)["steps.*.if.answered"]
    for e in offered[:4]:
        assert e["label"] == f"{names[e['value']]} ({e['value']})"


def test_a_target_is_offered_only_on_the_side_its_card_aims_at():
    """Z04 (Zensur) aims at another player's person: on the table ada's own person is not offered."""
    st = board(players=("ada", "bert"), hands={"ada": ["Z04", "PE07"], "bert": ["PE11"]})
    lay(st, "ada", "PE06")
    lay(st, "bert", "PE10")
    c = RULES.order_choices(st, "ada", "en")
    on = {e["value"]: e["when"]["play"] for e in c["steps.*.on"]}
    assert on == {"PE10": ["Z04"]}
    orders = witness(c, "steps.*.on", {"value": "PE10", "when": {"play": ["Z04"]}})
    assert orders == {"steps": [{"play": "Z04", "on": "PE10"}]}
    model = RULES.order_schema(st, "trick").model_validate(orders)
    assert [p.code for p in RULES.validate(st, "ada", model)] == ["plan.would_run"]


def test_nothing_offered_to_a_seat_that_owes_nothing(matches):
    for states in matches:
        assert RULES.awaiting(states[-1]) == {}
        for player in states[-1].d["players"]:
            assert RULES.order_choices(states[-1], player, "de") == {}
        for s in states[:40]:
            owed = RULES.awaiting(s)
            for player in s.d["players"]:
                if player not in owed:
                    assert RULES.order_choices(s, player, "en") == {}


def test_the_page_words_name_fields_of_the_order_schemas():
    fields = set().union(*(schema_paths(model) for model in SCHEMAS.values()))
    named = {code.split(".", 1)[1] for code in PAGE_WORDS if code.startswith("field.")}
    assert named <= fields and {"steps", "steps.*.play", "steps.*.if.answered", "draw"} <= named
    assert all(set(texts) == {"de", "en"} and all(texts.values()) for texts in PAGE_WORDS.values())
