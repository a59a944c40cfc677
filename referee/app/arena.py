"""``referee arena``'s engine: whole matches played in process through the contract alone
(setup, awaiting, validate, resolve), a search bot against random legal players or other
bots, the bot's seat rotating from match to match, and the figures a GM reads: per seat
and strategy the win rate with a 95% Wilson interval, the game length in turns and the
time per decision.  A shared first place counts as a win for each who shares it."""
from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from referee.bots import decide
from referee.game_api.contract import GameRules, Rng, derive_seed
from referee.game_api.scripted import random_player

RANDOM = "random"
MAX_TURNS = 3000   # a match longer than this is stopped and counted as won by nobody


@dataclass
class Tally:
    games: int = 0
    wins: float = 0
    times: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)   # final scores, where the outcome gives them

    def add(self, won: bool) -> None:
        self.games += 1
        self.wins += 1 if won else 0


@dataclass
class ArenaResult:
    game: str
    players: int
    strategies: list[str]                       # strategy of each seat label, bot first
    by_seat: dict[tuple[int, str], Tally] = field(default_factory=dict)
    by_strategy: dict[str, Tally] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)
    unfinished: int = 0
    unwon: int = 0                              # ended with no seat first: a common defeat, a non-player's win
    unwon_why: Counter = field(default_factory=Counter)   # ... by the outcome's reason, where it gives one
    refused: int = 0                            # bot orders the game refused (should stay 0)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)
    return max(0.0, low), min(1.0, high)


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float]:
    """The 95% normal interval of the mean of ``values`` (at least two)."""
    mean = statistics.mean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def seat_names(n: int) -> list[str]:
    return [f"seat{i + 1}" for i in range(n)]


def lineup(n: int, index: int, strength: str, against: str) -> list[str]:
    """Each seat's strategy in match ``index``: the bot in seat ``index % n`` (``strength``
    ``random``: a random legal player there, a solo game's baseline)."""
    rival = RANDOM if against == RANDOM else f"bot:{against}"
    out = [rival] * n
    out[index % n] = RANDOM if strength == RANDOM else f"bot:{strength}"
    return out


def play_match(rules: GameRules, strategies: list[str], seed: str, options: dict | None = None,
               clock: Callable[[], float] = time.process_time) -> tuple[dict | None, int, dict[str, list[float]], int]:
    """One match: (outcome or None if stopped, turns, decision times per seat, refused bot orders)."""
    players = seat_names(len(strategies))
    plays = dict(zip(players, strategies))
    draw = random_player(rules)
    state = rules.setup(players, options or {}, Rng(derive_seed(seed, "setup")))
    times: dict[str, list[float]] = {p: [] for p in players}
    refused = 0
    for turn in range(1, MAX_TURNS + 1):
        awaiting = rules.awaiting(state)
        if not awaiting:
            return None, turn - 1, times, refused
        chooser = Rng(derive_seed(seed, f"players:{turn}"))
        orders = {}
        for player, stage in sorted(awaiting.items()):
            how = plays.get(player, RANDOM)
            if how == RANDOM:
                raw = draw(state, player, chooser)
            else:
                start = clock()
                raw = decide(rules, state, player, seed=derive_seed(seed, f"bot:{turn}:{player}"),
                             strength=how.partition(":")[2])
                times[player].append(clock() - start)
            model = rules.order_schema(state, stage).model_validate(raw)
            if any(p.is_error for p in rules.validate(state, player, model)):
                refused += 1
                model = rules.default_orders(state, player)
            orders[player] = model
        result = rules.resolve(state, orders, Rng(derive_seed(seed, turn)))
        state = result.state
        if result.outcome is not None:
            return result.outcome, turn, times, refused
    return None, MAX_TURNS, times, refused


def run_arena(rules: GameRules, players: int, games: int, seed: str, strength: str, against: str,
              first: int = 0, options: dict | None = None) -> ArenaResult:
    """Matches ``first`` .. ``first + games - 1`` of the series ``seed`` (a bench plays a
    series in parts and ``merge``s them)."""
    result = ArenaResult(rules.name, players, [])
    for index in range(first, first + games):
        strategies = lineup(players, index, strength, against)
        outcome, turns, times, refused = play_match(rules, strategies, f"{seed}:{index}", options)
        result.refused += refused
        result.lengths.append(turns)
        winners = set((outcome or {}).get("winners") or [])
        if outcome is None:
            result.unfinished += 1
        elif not winners:
            result.unwon += 1
            result.unwon_why[str(outcome.get("reason") or "")] += 1
        scores = (outcome or {}).get("scores") or {}
        for i, (seat, how) in enumerate(zip(seat_names(players), strategies)):
            won = seat in winners
            result.by_seat.setdefault((i + 1, how), Tally()).add(won)
            total = result.by_strategy.setdefault(how, Tally())
            total.add(won)
            total.times.extend(times[seat])
            if isinstance(scores.get(seat), (int, float)):
                total.scores.append(float(scores[seat]))
    result.strategies = sorted(result.by_strategy, key=lambda s: (s == RANDOM, s))
    return result


def merge(into: ArenaResult, part: ArenaResult) -> ArenaResult:
    """``part``'s matches added to ``into`` (the same game and player count)."""
    for table, other in ((into.by_seat, part.by_seat), (into.by_strategy, part.by_strategy)):
        for key, tally in other.items():
            mine = table.setdefault(key, Tally())   # type: ignore[arg-type]
            mine.games += tally.games
            mine.wins += tally.wins
            mine.times.extend(tally.times)
            mine.scores.extend(tally.scores)
    into.lengths.extend(part.lengths)
    into.unfinished += part.unfinished
    into.unwon += part.unwon
    into.unwon_why.update(part.unwon_why)
    into.refused += part.refused
    into.strategies = sorted(into.by_strategy, key=lambda s: (s == RANDOM, s))
    return into
