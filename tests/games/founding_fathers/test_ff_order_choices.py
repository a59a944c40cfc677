"""Issue 36: Founding Fathers offers the order page only legal values, labelled in en and de."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from choices_kit import check_offered, positions  # noqa: E402

from referee.game_api import registry  # noqa: E402

RULES = registry.get("founding_fathers")


def test_every_offered_value_validates_and_is_the_players_own():
    seen = set()
    for state, player, stage in positions(RULES, ["alice", "bob", "carol"], 4, 120):
        en = check_offered(RULES, state, player, stage)
        seen.add(stage)
        d = state.d
        if stage == "keep":
            assert {c["value"] for c in en["keep.*"]} == set(d["dealt"][player])
        elif stage == "action":
            assert {c["value"] for c in en["delegates.*"]} == set(d["hands"][player])
            for c in en["card"]:   # an event offered is one the game lets this player enact
                assert c["value"] in d["hands"][player]
            assert [c["value"] for c in en["take.*"]] == list(range(1, len(d["pool"]) + 1))
            assert {c["value"] for c in en["action"]} == {"vote", "debate", "event", "snub"}
        else:
            assert [c["value"] for c in en["flip"]] == [True, False]
    assert seen == {"keep", "action", "committee_flip"}


def test_the_words_differ_by_language_and_none_is_offered_to_a_waiting_seat():
    state = RULES.setup(["alice", "bob", "carol"], {}, __import__("referee.game_api.contract", fromlist=["Rng"]).Rng(1))
    en, de = RULES.order_choices(state, "alice", "en"), RULES.order_choices(state, "alice", "de")
    assert [c["label"] for c in en["keep.*"]] != [c["label"] for c in de["keep.*"]]   # factions in German
    assert RULES.messages["field.keep"]["de"] == "Karten, die du behältst"
    state.d["stage"] = "action"
    idle = next(p for p in state.d["players"] if p != state.d["players"][state.d["active"]])
    assert RULES.order_choices(state, idle, "en") == {}
