"""Scripted players: random legal orders for any installed game.

Each game ships ``random_orders(state, player, rng) -> dict`` next to its
rules (in its package or a ``play`` module).  ``referee demo`` and the
conformance test use it to play whole matches through the contract.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable

from referee.game_api.contract import GameRules, Rng

RandomOrders = Callable[[object, str, Rng], dict]


def random_player(rules: GameRules) -> RandomOrders:
    fn = getattr(rules, "random_orders", None)
    if callable(fn):
        return fn
    package = type(rules).__module__.rsplit(".", 1)[0]
    for name in (type(rules).__module__, package, package + ".play"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        fn = getattr(module, "random_orders", None)
        if callable(fn):
            return fn
    raise LookupError(f"game {rules.name!r} ships no random_orders(state, player, rng)")
