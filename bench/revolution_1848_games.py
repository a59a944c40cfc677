"""Benchmark: random full 1848 games through the game contract.

Each turn: ``random_orders`` → ``order_schema(...).model_validate`` (parse) →
``validate`` (with the plan preview) → ``resolve`` (copies the state, walks the
trick).  The baseline is measured in the same run on the same games: the CPU
time spent inside ``resolve`` alone, so the ratio shows what parsing, checking
and the random players cost on top.  Times are CPU seconds of this process
(``time.process_time``), i.e. one core, fair on a shared machine.
Left out: the referee around the game (mail, store, archive, rendering the reports).
Run:  python bench/revolution_1848_games.py [--games 300] [--smoke]
"""
from __future__ import annotations

import argparse
import time

from referee.game_api.contract import Rng, derive_seed
from referee_games.revolution_1848 import RULES, random_orders

SEATS = ["ada", "bert", "cleo", "dora"]


def game(n: int, seed: str) -> tuple[int, float]:
    """Turns played and CPU seconds spent in ``resolve``."""
    st = RULES.setup(SEATS[:n], {}, Rng(derive_seed(seed, "setup")))
    turns, in_resolve = 0, 0.0
    while True:
        aw = RULES.awaiting(st)
        if not aw:
            return turns, in_resolve
        turns += 1
        chooser = Rng(derive_seed(seed, f"players:{turns}"))
        orders = {}
        for p, stage in sorted(aw.items()):
            model = RULES.order_schema(st, stage).model_validate(random_orders(st, p, chooser))
            if any(x.is_error for x in RULES.validate(st, p, model)):
                raise AssertionError(f"random orders refused at turn {turns}")
            orders[p] = model
        t0 = time.process_time()
        st = RULES.resolve(st, orders, Rng(derive_seed(seed, turns))).state
        in_resolve += time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--smoke", action="store_true", help="a tiny run for CI: 3 games; fails if the bench is broken")
    args = ap.parse_args()
    if args.smoke:
        args.games = 3
    t0 = time.process_time()
    turns, resolve = 0, 0.0
    for i in range(args.games):
        t, r = game(2 + i % 3, f"bench-{i}")
        turns += t
        resolve += r
    full = time.process_time() - t0
    print(f"revolution_1848: {args.games} games (2/3/4 players), {turns / args.games:.1f} turns/game")
    print(f"  full contract loop (random plans + parse + validate + resolve): {args.games / full:.1f} games/s per core, "
          f"{turns / full:.0f} turns/s")
    print(f"  resolve alone, same run:                                        {args.games / resolve:.1f} games/s")
    print(f"  ratio full/resolve time: {full / resolve:.2f}")


if __name__ == "__main__":
    main()
