"""Benchmark: random legal Founding Fathers games through the game contract.

Each turn: ``random_orders`` → ``order_schema(...).model_validate`` →
``validate`` → ``resolve`` (which copies the state).  The baseline, measured
in the same run on the same seeds, is the bare loop without ``validate``
(random orders parsed and resolved only), so the ratio shows what validation
costs.  Times are CPU seconds of this process (``time.process_time``), i.e. one
core, so other work on a shared machine does not distort them.
Left out: the referee around the game (mail, store, archive, rendering the reports).
Run:  python bench/founding_fathers_games.py [--games 200] [--smoke]
"""
from __future__ import annotations

import argparse
import time

from referee.game_api.contract import Rng, derive_seed
from referee_games.founding_fathers import RULES, random_orders

SEATS = ["ada", "bert", "cleo", "dora", "emil"]


def game(n: int, seed: str, validate: bool) -> tuple[int, dict]:
    st = RULES.setup(SEATS[:n], {}, Rng(derive_seed(seed, "setup")))
    turns = 0
    while True:
        aw = RULES.awaiting(st)
        if not aw:
            return turns, st.d["outcome"]["scores"]
        turns += 1
        chooser = Rng(derive_seed(seed, f"players:{turns}"))
        orders = {}
        for p, stage in sorted(aw.items()):
            model = RULES.order_schema(st, stage).model_validate(random_orders(st, p, chooser))
            if validate and any(x.is_error for x in RULES.validate(st, p, model)):
                raise AssertionError(f"random orders refused at turn {turns}")
            orders[p] = model
        st = RULES.resolve(st, orders, Rng(derive_seed(seed, turns))).state


def run(games: int, validate: bool) -> tuple[float, int]:
    t0 = time.process_time()   # CPU time of this process: fair on a shared machine
    turns = 0
    for i in range(games):
        turns += game(3 + i % 3, f"bench-{i}", validate)[0]
    return time.process_time() - t0, turns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--smoke", action="store_true", help="a tiny run for CI: 3 games; fails if the bench is broken")
    args = ap.parse_args()
    if args.smoke:
        args.games = 3
    full, turns = run(args.games, True)
    bare, _ = run(args.games, False)
    gps = args.games / full
    print(f"founding_fathers: {args.games} games (3/4/5 players), {turns / args.games:.1f} turns/game")
    print(f"  full contract loop (parse + validate + resolve): {gps:.1f} games/s, {turns / full:.0f} turns/s")
    print(f"  baseline, same seeds without validate:          {args.games / bare:.1f} games/s")
    print(f"  ratio full/baseline time: {full / bare:.2f}  (target >= 100 games/s: {'met' if gps >= 100 else 'NOT met'})")


if __name__ == "__main__":
    main()
