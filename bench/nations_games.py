"""Benchmark: random full Nations games through the game contract, 1–4 players.

Each referee turn: ``random_orders`` (not timed: it stands for the player) →
``order_schema(...).model_validate`` → ``validate`` → ``resolve`` (which copies
the state and carries the game forward through every stored plan step).  The
timed part is parse + validate + resolve; the baseline, measured in the same
run on the same games, is ``resolve`` alone, so the ratio shows what parsing
and validating (the plan preview) add.  Times are CPU seconds of this process
(``time.process_time``), i.e. one core.  Target: >= 50 full 4-player games/s.
Left out: the random players' choices, and the referee around the game (mail, store,
archive, rendering the reports).
Run:  python bench/nations_games.py [--games 100] [--smoke]
"""
from __future__ import annotations

import argparse
import time

from referee.game_api.contract import Rng, derive_seed
from referee_games.nations_dice import RULES, random_orders

SEATS = ["ada", "bert", "cleo", "dora"]
clock = time.process_time


def game(n: int, seed: str) -> tuple[int, float, float]:
    """(turns, seconds parse+validate+resolve, seconds resolve alone)."""
    players = SEATS[:n]
    st = RULES.setup(players, RULES.sample_options(players), Rng(derive_seed(seed, "setup")))
    turns, full, bare = 0, 0.0, 0.0
    while True:
        aw = RULES.awaiting(st)
        if not aw:
            return turns, full, bare
        turns += 1
        chooser = Rng(derive_seed(seed, f"players:{turns}"))
        raw = {p: random_orders(st, p, chooser) for p in sorted(aw)}
        t0 = clock()
        orders = {}
        for p, stage in sorted(aw.items()):
            model = RULES.order_schema(st, stage).model_validate(raw[p])
            if any(x.is_error for x in RULES.validate(st, p, model)):
                raise AssertionError(f"random orders refused at turn {turns}")
            orders[p] = model
        t1 = clock()
        st = RULES.resolve(st, orders, Rng(derive_seed(seed, turns))).state
        t2 = clock()
        full += t2 - t0
        bare += t2 - t1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--smoke", action="store_true", help="a tiny run for CI: 3 games; fails if the bench is broken")
    args = ap.parse_args()
    if args.smoke:
        args.games = 3
    for n in (1, 2, 3, 4):
        turns = full = bare = 0.0
        for i in range(args.games):
            t, f, b = game(n, f"bench-{n}-{i}")
            turns, full, bare = turns + t, full + f, bare + b
        gps = args.games / full
        note = f"  (target >= 50: {'met' if gps >= 50 else 'NOT met'})" if n == 4 else ""
        print(f"nations_dice {n} player(s), {args.games} games, {turns / args.games:.1f} referee turns/game: "
              f"{gps:.1f} games/s parse+validate+resolve, {args.games / bare:.1f} games/s resolve alone, "
              f"ratio {full / bare:.2f}{note}")


if __name__ == "__main__":
    main()
