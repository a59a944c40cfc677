"""Computer players for empty seats (issue 35): one search player for every game,
built on the contract alone (``determinize``, ``random_orders``, ``validate``,
``resolve``, ``standings``; see ``search``).

``decide`` is the one entry the service calls."""
from __future__ import annotations

from typing import Any

from referee.game_api.contract import GameRules, Rng
from referee.game_api.scripted import random_player

from .search import STRENGTHS, choose

__all__ = ["DEFAULT", "STRENGTHS", "decide", "can_search"]

DEFAULT = "default"   # the strength a seat's plain ``bot: true`` plays at


def can_search(rules: GameRules) -> bool:
    """Whether the game ships the hooks the search needs (else the bot plays at random)."""
    return callable(getattr(rules, "determinize", None)) and callable(getattr(rules, "random_orders", None))


def decide(rules: GameRules, state: Any, seat: str, *, seed: int, strength: str = DEFAULT) -> dict:
    """The ``orders:`` mapping the bot in ``seat`` sends for the open turn, decided from what
    ``seat`` may see and ``seed`` alone (derived from the match seed by the caller)."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown bot strength {strength!r}; known: {', '.join(STRENGTHS)}")
    if seat not in rules.awaiting(state):
        raise ValueError(f"{seat!r} owes no orders now")
    rng = Rng(seed)
    if not can_search(rules):   # a game without determinize: no search, its random legal orders
        return random_player(rules)(state, seat, rng)
    return choose(rules, state, seat, rng, STRENGTHS[strength])
