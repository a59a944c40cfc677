"""Benchmark (issue 35): how strong and how fast the search bot is, through ``referee arena``'s
engine: per game and player count, the bot in one seat (rotating) against random legal
players, its win rate with a 95% Wilson interval against the target (two players: >= 75%;
n players: >= 2/n, twice a fair share), the game length and the CPU seconds per decision
(one core; target <= 2 s at the default strength).  A solo game (one player) is won by its
player nearly always, so there the figure is the final score: the bot's mean against a random
legal player's on the same seeds, with 95% intervals (target: the bot's interval above).
Every player count each game takes is played, except the Ratsspiel's (1-24): 1 to 8 (others
with ``--only perricumer_ratsspiel:12``).  Where a match can end with no seat first (the
Ratsspiel's common defeat or a non-player's win) the line says how often; ``--all-random`` plays
the same seeds with every seat random too, to show how often any seat can come first at all.

The matches run in parts of ``--part`` matches, taken in turn from every configuration, so
a run stopped early still has figures for all (the running totals are printed after each
part).  ``--jobs 2`` plays two parts at once.
Run:  python bench/bot_strength.py [--games 200] [--strength default] [--jobs 1] [--only game:n,...] [--all-random] [--smoke]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from multiprocessing import Pool

from referee.app.arena import RANDOM, ArenaResult, mean_interval, merge, run_arena, wilson
from referee.game_api import registry

CONFIGS = [("founding_fathers", 3), ("founding_fathers", 4), ("founding_fathers", 5),
           ("nations_dice", 1), ("nations_dice", 2), ("nations_dice", 3), ("nations_dice", 4),
           ("revolution_1848", 2), ("revolution_1848", 3), ("revolution_1848", 4),
           ("perricumer_ratsspiel", 1), ("perricumer_ratsspiel", 2), ("perricumer_ratsspiel", 3),
           ("perricumer_ratsspiel", 4), ("perricumer_ratsspiel", 5), ("perricumer_ratsspiel", 6),
           ("perricumer_ratsspiel", 7), ("perricumer_ratsspiel", 8)]


def target(n: int) -> float:
    return 0.75 if n == 2 else 2 / n


def _lower(by: int) -> None:
    """A worker's priority lowered by ``by`` (--nice: yield to the others on a shared machine)."""
    if by:
        os.nice(by)


def _part(job: tuple[str, int, int, int, str, str]) -> ArenaResult:
    game, n, first, count, seed, strength = job
    return run_arena(registry.get(game), n, count, seed, strength, RANDOM, first=first)


def solo_line(res: ArenaResult, base: ArenaResult | None, strength: str) -> str:
    """A solo game's figure: the bot's mean final score against a random player's."""
    bot = res.by_strategy[f"bot:{strength}"]
    times = bot.times or [0.0]
    mine = mean_interval(bot.scores) if len(bot.scores) > 1 else (0.0, 0.0)
    theirs = mean_interval(base.by_strategy[RANDOM].scores) if base and len(base.by_strategy[RANDOM].scores) > 1 else None
    verdict = "pending" if theirs is None else ("met" if mine[0] > theirs[1] else "NOT met")
    against = "" if theirs is None else (f"  random {statistics.mean(base.by_strategy[RANDOM].scores):5.1f} "
                                         f"[{theirs[0]:5.1f}, {theirs[1]:5.1f}]")
    return (f"{res.game:21} 1p {bot.games:4} games  bot score {statistics.mean(bot.scores or [0]):5.1f} "
            f"[{mine[0]:5.1f}, {mine[1]:5.1f}]{against}  target: above random {verdict:7}  "
            f"{statistics.mean(res.lengths):6.1f} turns  "
            f"{statistics.mean(times):.3f} s mean {max(times):.3f} s max per decision (CPU)")


def line(res: ArenaResult, strength: str) -> str:
    bot = res.by_strategy[f"bot:{strength}"]
    low, high = wilson(bot.wins, bot.games)
    rate = bot.wins / bot.games
    goal = target(res.players)
    verdict = "met" if low >= goal else ("likely" if rate >= goal else "NOT met")
    times = bot.times or [0.0]
    return (f"{res.game:21} {res.players}p {bot.games:4} games  bot wins {rate:6.1%} [{low:5.1%}, {high:5.1%}]  "
            f"target {goal:4.0%} {verdict:7}  {statistics.mean(res.lengths):6.1f} turns  "
            f"{statistics.mean(times):.3f} s mean {max(times):.3f} s max per decision (CPU)"
            + (f"  no seat won {res.unwon / len(res.lengths):.0%}{why(res)}" if res.unwon else "")
            + (f"  REFUSED {res.refused}" if res.refused else ""))


def why(res: ArenaResult, digits: int = 0) -> str:
    """How the matches no seat won ended, by the outcome's reason (the Ratsspiel: korruption,
    a common defeat; wahl or machtuebernahme, a non-player councillor's win)."""
    games = len(res.lengths)
    said = [f"{reason or '?'} {n / games:.{digits}%}" for reason, n in sorted(res.unwon_why.items())]
    return f" ({', '.join(said)})" if said else ""


def random_line(res: ArenaResult) -> str:
    """The same seeds with a random legal player in every seat (``--all-random``): how often a
    seat comes first at all where a match can end with none first (the Ratsspiel: Korruption's
    common defeat, or a non-player councillor's win)."""
    games = len(res.lengths)
    firsts = sum(t.wins for t in res.by_strategy.values())
    return (f"{res.game:21} {res.players}p {games:4} games  all random: no seat won {res.unwon / games:6.1%}{why(res, 1)}, "
            f"a seat came first in {firsts / games:6.1%} ({firsts / games / res.players:5.1%} each; "
            f"the bot's target {target(res.players):4.0%})")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--part", type=int, default=20)
    ap.add_argument("--strength", default="default")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default="", help="game:n,game:n ... (default: every configuration)")
    ap.add_argument("--seed", default="bench-bots")
    ap.add_argument("--nice", type=int, default=0, help="lower the workers' priority by N")
    ap.add_argument("--all-random", action="store_true", help="also the same seeds with every seat random: "
                    "how often any seat can come first")
    ap.add_argument("--smoke", action="store_true", help="a tiny run: one fast-bot match of two games; fails if broken")
    args = ap.parse_args()
    configs = [(g, int(n)) for g, n in (x.split(":") for x in args.only.split(",") if x)] or CONFIGS
    if args.smoke:
        args.games, args.part, args.strength, args.jobs = 1, 1, "fast", 1
        args.games, args.part = 2, 2
        configs = [("revolution_1848", 2), ("founding_fathers", 3), ("nations_dice", 1)]
        args.all_random = True
    # a solo configuration also plays its baseline: a random player on the same seeds (every
    # configuration with --all-random: how often any seat comes first where none may)
    jobs = [(g, n, first, min(args.part, args.games - first), args.seed, how)
            for first in range(0, args.games, args.part) for g, n in configs
            for how in ([args.strength, RANDOM] if n == 1 or args.all_random else [args.strength])]
    print(f"bot strength {args.strength}, {args.games} matches per configuration, parts of {args.part}, "
          f"{args.jobs} jobs; load average at start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    start = time.time()
    totals: dict[tuple[str, int, str], ArenaResult] = {}

    def shown(key: tuple[str, int, str]) -> str:
        if key[1] == 1:
            return solo_line(totals[key], totals.get((key[0], 1, RANDOM)), args.strength)
        return line(totals[key], args.strength)

    with Pool(args.jobs, initializer=_lower, initargs=(max(0, min(19, args.nice)),)) as pool:
        for job, part in zip(jobs, pool.imap(_part, jobs)):
            key = (job[0], job[1], job[5])
            totals[key] = merge(totals[key], part) if key in totals else part
            if job[5] != RANDOM:
                print(f"[{time.time() - start:6.0f} s, load {os.getloadavg()[0]:.2f}] " + shown(key), flush=True)
    print(f"--- totals after {time.time() - start:.0f} s wall; load average at end {os.getloadavg()[0]:.2f}")
    for g, n in configs:
        print(shown((g, n, args.strength)))
        if args.all_random and n > 1:
            print(random_line(totals[(g, n, RANDOM)]))
    broken = any(res.refused or not res.lengths for res in totals.values())
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
