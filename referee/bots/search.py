"""The search player: a bandit over the candidate moves (UCB1) with a fresh
determinization every play-out, as information-set Monte Carlo tree search does at its
root.  A play-out resolves the chosen move together with random legal orders of every
other awaited seat, then random legal orders for everyone for a limited horizon, and
judges where it ends (``evaluate``).  The budget is counted in play-outs, never in
seconds, so a decision depends only on what the seat sees and the seed."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from referee.game_api.contract import GameRules, Rng
from referee.game_api.scripted import random_player

from .candidates import candidates, one_part_each
from .evaluate import outcome_value, position_value


@dataclass(frozen=True)
class Strength:
    draws: int       # random_orders draws for candidate moves
    playouts: int    # play-outs at most (the bandit's budget)
    horizon: int     # resolves after the move before the position is judged
    work: int        # orders resolved in all play-outs at most: a simultaneous game with many
                     # seats resolves as many orders a turn, and its turns cost as much more
    explore: float = 0.7
    starved: float = 5.5   # play-outs a candidate could get at the full horizon (the first one's
                           # cost tells) below which the search is starved: the Ratsspiel from 2
                           # players (where a play-out runs the full horizon), never Founding Fathers
                           # (9.1 at least), 1848 (6.7) or Nations (one seat at a time)
    starved_playouts: int = 400   # ... and then the play-outs at most, each one resolve long


STRENGTHS: dict[str, Strength] = {
    "fast": Strength(draws=8, playouts=24, horizon=3, work=150, starved=0.0),   # the demo's: as it was
    "default": Strength(draws=24, playouts=160, horizon=6, work=1600),
}


def _seed(rng: Rng) -> int:
    return int(rng.random() * (1 << 53))


def _model(rules: GameRules, state: Any, player: str, stage: str, raw: dict) -> BaseModel:
    try:
        return rules.order_schema(state, stage).model_validate(raw)
    except (ValidationError, ValueError, TypeError):
        return rules.default_orders(state, player)


def playout(rules: GameRules, state: Any, seat: str, move: BaseModel, rng: Rng, horizon: int) -> tuple[float, int]:
    """Value for ``seat`` of playing ``move`` in the determinized ``state``, and the orders resolved."""
    draw = random_player(rules)
    orders: dict[str, BaseModel] = {}
    for player, stage in sorted(rules.awaiting(state).items()):
        orders[player] = move if player == seat else _model(rules, state, player, stage, draw(state, player, rng))
    work = 0
    for step in range(horizon + 1):
        work += len(orders)
        result = rules.resolve(state, orders, Rng(_seed(rng)))
        state = result.state
        if result.outcome is not None:
            return outcome_value(result.outcome, seat), work
        awaiting = rules.awaiting(state)
        if not awaiting or step == horizon:
            break
        orders = {p: _model(rules, state, p, stage, draw(state, p, rng)) for p, stage in sorted(awaiting.items())}
    return position_value(rules, state, seat), work


def choose(rules: GameRules, state: Any, seat: str, rng: Rng, strength: Strength) -> dict:
    """The ``orders:`` mapping the search settles on for ``seat``.  ``state`` is read only
    through ``determinize`` (and ``awaiting``, which is public)."""
    stage = rules.awaiting(state)[seat]
    determinize = rules.determinize   # type: ignore[attr-defined]
    dets = [determinize(state, seat, Rng(_seed(rng))) for _ in range(min(4, strength.draws))]
    moves = candidates(rules, dets, seat, stage, rng, strength.draws)
    if len(moves) == 1:
        return moves[0][0]
    visits = [0] * len(moves)
    totals = [0.0] * len(moves)
    # ties broken by chance, not by the order found: where the play-outs cannot tell the moves
    # apart (nothing scores within the horizon) the default, found first, would be chosen every
    # time, and bots playing bots would pass forever (Founding Fathers' empty snub)
    tie = [rng.random() for _ in moves]
    horizon, limit = strength.horizon, strength.playouts
    # the first play-out (the default, found first) also tells what a play-out costs here
    value, work = playout(rules, dets[0], seat, moves[0][1], rng, horizon)
    if strength.work < strength.starved * len(moves) * work:
        # each candidate would get one or two play-outs, each as long as the game (many seats
        # move at once: the Ratsspiel): the choice would be noise.  Judge every candidate right
        # after the session it plays in (the game's estimate), so the work budget buys many
        # play-outs, and offer each part of a drawn order on its own.
        moves = one_part_each(rules, dets[0], seat, stage, moves)
        if len(moves) == 1:   # no part stands on its own: the default, without spending the budget
            return moves[0][0]
        visits, totals = [0] * len(moves), [0.0] * len(moves)
        tie = [rng.random() for _ in moves]
        horizon, limit = 0, strength.starved_playouts
        pending = list(range(len(moves)))   # every candidate anew, the first play-out dropped
    else:
        totals[0], visits[0] = value, 1
        pending = list(range(1, len(moves)))   # every candidate is played once before the bandit chooses
    for n in range(1, limit):
        if work >= strength.work and not pending:
            break
        if pending:
            arm = pending.pop(0)
        else:
            log_n = math.log(n)
            arm = max(range(len(moves)), key=lambda i: (
                totals[i] / visits[i] + strength.explore * math.sqrt(log_n / visits[i]), tie[i]))
        det = dets[n] if n < len(dets) else determinize(state, seat, Rng(_seed(rng)))
        value, cost = playout(rules, det, seat, moves[arm][1], rng, horizon)
        work += cost
        totals[arm] += value
        visits[arm] += 1
    best = max(range(len(moves)), key=lambda i: (visits[i], totals[i] / max(1, visits[i]), tie[i]))
    return moves[best][0]
