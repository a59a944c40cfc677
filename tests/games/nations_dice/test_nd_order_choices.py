"""Issue 36: Nations offers the order page only legal values, labelled in en and de."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from choices_kit import check_offered, positions  # noqa: E402

from referee.game_api import registry  # noqa: E402

RULES = registry.get("nations_dice")


def test_every_offered_value_validates_and_a_tile_offered_is_on_the_board():
    seen = set()
    for variant in ("original", "accelerated"):
        for state, player, stage in positions(RULES, ["ada", "bert"], 7, 200, {"variant": variant}):
            en = check_offered(RULES, state, player, stage)
            seen.add(stage)
            d, q = state.d, state.d["p"][player]
            free = {x[0] for x in q["dice"] if not x[3]}
            if stage == "plan":
                board = {t for column in d["board"] for t in column if t}
                assert {c["value"] for c in en["steps.*.buy.tile"]} == board
                assert {c["value"] for c in en["steps.*.reroll.*"]} == free
                assert {c["value"] for c in en["steps.*"]} == {"ask", "pass", "build", "reroll"}
                for c in en["steps.*.buy.tile"]:   # a plan buying it is accepted (it may fall through: a warning)
                    model = RULES.order_schema(state, stage).model_validate({"steps": [{"buy": {"tile": c["value"]}}, "ask"]})
                    assert not [p for p in RULES.validate(state, player, model) if p.is_error]
            elif stage == "famine":
                assert {c["value"] for c in en["trade.*.*"]} == free
            else:
                assert {c["value"] for c in en["hold.*"]} <= free
    assert {"plan", "famine"} <= seen


def test_the_words_differ_by_language():
    state = next(iter(positions(RULES, ["ada", "bert"], 3, 1)))[0]
    player = next(iter(RULES.awaiting(state)))
    en, de = RULES.order_choices(state, player, "en"), RULES.order_choices(state, player, "de")
    assert [c["label"] for c in en["steps.*"]] != [c["label"] for c in de["steps.*"]]
    assert RULES.messages["kind.steps.*.Step"]["de"].startswith("eine Aktion")
