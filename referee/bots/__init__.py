"""Computer players for empty seats (issue 35): one search player for every game,
built on the contract alone.

``decide`` is the one entry the service calls; until the search lands it plays a
random legal move (placeholder, replaced by the search player)."""
from __future__ import annotations

from typing import Any

from referee.game_api.contract import GameRules, Rng
from referee.game_api.scripted import random_player

STRENGTHS = ("default",)


def decide(rules: GameRules, state: Any, seat: str, *, seed: int, strength: str = "default") -> dict:
    """The ``orders:`` mapping the bot in ``seat`` sends for the open turn, drawn from
    ``seed`` (derived from the match seed by the caller)."""
    return random_player(rules)(state, seat, Rng(seed))
