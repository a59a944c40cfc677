"""How good a position is for one seat, in [0, 1]: the outcome once the game is over,
else the game's own ``estimate`` of the final scores (read from the seat's own view), or
its standings (the first label: the score, the influence; read from the public view), as
a rank among the seats and a margin over the best rival."""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from referee.game_api.contract import PUBLIC, GameRules

SOLO_SCALE = 20.0   # a solo score this high is worth ~0.88: the scale of the games' solo scores (10-40)


def _rank_and_margin(scores: Mapping[str, Any], seat: str) -> float:
    mine = scores.get(seat)
    rivals = [v for p, v in sorted(scores.items()) if p != seat and isinstance(v, (int, float))]
    if not isinstance(mine, (int, float)):
        return 0.5
    if not rivals:   # a solo game: no rank to take, only the score to raise
        return 0.5 + 0.5 * math.tanh(mine / SOLO_SCALE)
    beaten = sum(1.0 if mine > r else 0.5 if mine == r else 0.0 for r in rivals) / len(rivals)
    spread = max(1.0, max(abs(x) for x in [mine, *rivals]))
    margin = 0.5 + 0.5 * math.tanh(2.0 * (mine - max(rivals)) / spread)
    return 0.7 * beaten + 0.3 * margin


def outcome_value(outcome: Mapping[str, Any], seat: str) -> float:
    winners = list(outcome.get("winners") or [])
    won = 1.0 / len(winners) if seat in winners else 0.0
    scores = outcome.get("scores") or {}
    return 0.8 * won + 0.2 * _rank_and_margin(scores, seat)


def position_value(rules: GameRules, state: Any, seat: str) -> float:
    estimate = getattr(rules, "estimate", None)
    if estimate is not None:   # from the seat's own view: its own secrets (an agenda) count too
        return _rank_and_margin(estimate(rules.view(state, seat)), seat)
    standings = getattr(rules, "standings", None)
    if standings is None:
        return 0.5
    table = standings(rules.view(state, PUBLIC))
    if not table:
        return 0.5
    first = next(iter(table.values()))
    return _rank_and_margin(first, seat)
