"""Issue 36: the order page shows each action only the fields it takes. The game's one table of
them (``orders.ACTION_FIELDS``) is checked against the fields the rules really read while they
validate and carry out orders, and the page's choices against the table."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from choices_kit import positions  # noqa: E402

from referee.game_api import registry  # noqa: E402
from referee.game_api.contract import Rng  # noqa: E402
from referee_games.founding_fathers.actions import act, check  # noqa: E402
from referee_games.founding_fathers.form_examples import action_examples  # noqa: E402
from referee_games.founding_fathers.form import FACTION  # noqa: E402
from referee_games.founding_fathers.orders import ACTION_FIELDS, EVERY_ACTION, ActionOrders  # noqa: E402
from referee_games.founding_fathers.state import clone  # noqa: E402

RULES = registry.get("founding_fathers")
SEATS = ["alice", "bob", "carol"]


class Reading:
    """Orders that note each field the rules read from them."""

    def __init__(self, orders: ActionOrders) -> None:
        self.__dict__.update(orders_=orders, read=set())

    def __getattr__(self, name):
        self.read.add(name)
        return getattr(self.orders_, name)


def action_positions():
    for seed in (4, 9):
        for state, player, stage in positions(RULES, SEATS, seed, 120):
            if stage == "action":
                yield state, player


def offered_for(choices: dict, action: str) -> set[str]:
    """The fields whose choices the page offers while ``action`` is chosen (their ``when``)."""
    return {path.split(".")[0] for path, items in choices.items()
            if any(action in item.get("when", {}).get("action", [action]) for item in items)}


def test_the_fields_the_rules_read_for_each_action_are_the_games_table():
    read: dict[str, set] = {a: set() for a in ACTION_FIELDS}
    rng = Rng(5)
    for state, player in action_positions():
        d, ed = state.d, state.ed
        tried = [ex for ex, _ in action_examples(d, ed, player, "en", FACTION["en"]) if "action" in ex]
        tried.append(RULES.random_orders(state, player, rng))
        for example in tried:
            orders = Reading(ActionOrders.model_validate(example))
            check(d, ed, player, orders)
            act(clone(d), ed, player, orders, Rng(0), [], dry=True)
            read[orders.action] |= orders.read
    for action, fields in ACTION_FIELDS.items():
        # never a field hidden that the action reads, and no field shown that it does not
        assert read[action] == set(fields) | set(EVERY_ACTION), action


def test_each_action_is_offered_exactly_the_fields_it_takes():
    seen = set()
    for state, player in action_positions():
        en = RULES.order_choices(state, player, "en")
        # every field an action may take has a list (empty: not shown), none is a free input
        assert set(en) >= {f"{f}.*" if f in ("delegates", "targets") else f
                           for fields in ACTION_FIELDS.values() for f in fields}
        for action, fields in ACTION_FIELDS.items():
            given = offered_for(en, action)
            assert given <= set(fields) | set(EVERY_ACTION), (action, given)
            assert {"action", "take", "committee_flip"} <= given
            seen.add(action)
        assert offered_for(en, "snub") == {"action", "delegates", "take", "committee_flip"} - (
            set() if state.d["hands"][player] else {"delegates"})
        assert offered_for(en, "debate") <= {"action", "delegates", "reclaim", "take", "committee_flip"}
        assert not offered_for(en, "vote") & {"card", "targets", "player", "position", "pick", "faction", "article"}
        if en["state"] and any("vote" in c["when"]["action"] for c in en["side"]):
            assert {"state", "side"} <= offered_for(en, "vote")
        assert ("card" in offered_for(en, "event")) == bool(en["card"])
    assert seen == set(ACTION_FIELDS)
