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
from referee_games.founding_fathers.form import FACTION  # noqa: E402
from referee_games.founding_fathers.form_examples import action_examples  # noqa: E402
from referee_games.founding_fathers.orders import ACTION_FIELDS, EVERY_ACTION, ActionOrders  # noqa: E402
from referee_games.founding_fathers.state import clone  # noqa: E402

RULES = registry.get("founding_fathers")
SEATS = ["alice", "bob", "carol"]
LISTS = ("delegates", "targets", "take")


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


def holds(item: dict, record: dict) -> bool:
    """The page's test of a choice's ``when`` against the fields of its record."""
    return all(record.get(k) in values for k, values in item.get("when", {}).items())


def offered_for(choices: dict, action: str, card: str | None = None) -> set[str]:
    """The fields with a value offered while ``action`` (and ``card``) is chosen: those the page shows."""
    record = {"action": action, "card": card}
    return {path.split(".")[0] for path, items in choices.items() if any(holds(i, record) for i in items)}


def values_at(choices: dict, path: str, record: dict) -> list:
    return [i["value"] for i in choices.get(path, []) if holds(i, record)]


def test_the_fields_the_rules_read_for_each_action_are_the_games_table_and_the_page_offers_them():
    read: dict[str, set] = {a: set() for a in ACTION_FIELDS}
    rng, events = Rng(5), 0
    for state, player in action_positions():
        d, ed = state.d, state.ed
        en = RULES.order_choices(state, player, "en")
        tried = [ex for ex, _ in action_examples(d, ed, player, "en", FACTION["en"]) if "action" in ex]
        tried.append(RULES.random_orders(state, player, rng))
        for example in tried:
            orders = Reading(ActionOrders.model_validate(example))
            check(d, ed, player, orders)
            act(clone(d), ed, player, orders, Rng(0), [], dry=True)
            read[orders.action] |= orders.read
            # each value the rules read from these orders is one the page offers for that action (and card)
            record = {"action": orders.action, "card": example.get("card")}
            for field, value in example.items():
                if field not in orders.read:
                    continue
                if field in LISTS:
                    assert set(value) <= set(values_at(en, f"{field}.*", record)), (example, field)
                else:
                    assert value in values_at(en, field, record), (example, field)
            events += orders.action == "event"
    assert events > 20
    for action, fields in ACTION_FIELDS.items():
        # never a field hidden that the action reads, and no field shown that it does not
        assert read[action] == set(fields) | set(EVERY_ACTION), action


def test_each_action_is_offered_exactly_the_fields_it_takes():
    seen = set()
    for state, player in action_positions():
        en = RULES.order_choices(state, player, "en")
        # every field an action may take has a list (empty: not shown), none is a free input
        assert set(en) >= {f"{f}.*" if f in LISTS else f for fields in ACTION_FIELDS.values() for f in fields}
        for action, fields in ACTION_FIELDS.items():
            given = offered_for(en, action) | offered_for(en, action, next(iter(values_at(en, "card", {})), None))
            assert given <= set(fields) | set(EVERY_ACTION), (action, given)
            assert {"action", "take", "committee_flip"} <= given
            seen.add(action)
        assert offered_for(en, "snub") == {"action", "delegates", "take", "committee_flip"} - (
            set() if state.d["hands"][player] else {"delegates"})
        assert offered_for(en, "debate") <= {"action", "delegates", "reclaim", "take", "committee_flip"}
        assert ("state" in offered_for(en, "vote")) == ("side" in offered_for(en, "vote")) == bool(
            values_at(en, "state", {"action": "vote"}))
        # an event's own fields only once its card is chosen, and only those its steps take
        assert offered_for(en, "event") == {"action", "take", "committee_flip"} | ({"card"} if en["card"] else set())
        for card in values_at(en, "card", {"action": "event"}):
            steps = {st["do"] for st in state.ed.cards[card].steps}
            assert ("player" in offered_for(en, "event", card)) <= bool(steps & {"committee_remove", "steal_card"})
            assert ("side" in offered_for(en, "event", card)) <= ("declare_vote" in steps)
    assert seen == set(ACTION_FIELDS)
