"""Perricumer Ratsspiel: what one council session costs.

Not a test: prints figures.  Plays whole sample campaigns with scripted
players (random legal orders) for 2, 6, 12 and 18 players (the 48 sample proposals last all 8 rounds for up to 6 players) and reports, per
session: resolve time, validate time per player, view+order form per player,
and the size of the dumped state (JSON) that the referee stores each turn.

Left out: parsing the orders (``model_validate``), the referee around the game (mail,
store, archive, rendering the reports) and the random players' choices.

    python bench/perricumer_ratsspiel_session.py [GAMES] [--smoke]
"""
from __future__ import annotations

import json
import statistics
import sys
import time

from referee.game_api.contract import Rng, derive_seed
from referee_games.perricumer_ratsspiel import RULES, random_orders


def run(n_players: int, games: int) -> dict:
    players = [f"p{i:02d}" for i in range(n_players)]
    resolve_t, validate_t, present_t, sizes, sessions = [], [], [], [], 0
    for g in range(games):
        seed = f"bench-{n_players}-{g}"
        state = RULES.setup(players, {}, Rng(derive_seed(seed, "setup")))
        turn = 0
        while RULES.awaiting(state):
            turn += 1
            prng = Rng(derive_seed(seed, f"p{turn}"))
            orders = {}
            for p in players:
                model = RULES.order_schema(state, "session").model_validate(random_orders(state, p, prng))
                t = time.perf_counter()
                RULES.validate(state, p, model)
                validate_t.append(time.perf_counter() - t)
                orders[p] = model
            t = time.perf_counter()
            state = RULES.resolve(state, orders, Rng(derive_seed(seed, turn))).state
            resolve_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            for p in players:
                RULES.view(state, p)
                RULES.order_form(state, p, "de")
            present_t.append((time.perf_counter() - t) / n_players)
            sizes.append(len(json.dumps(RULES.dump(state))))
            sessions += 1
    ms = lambda xs: 1000 * statistics.median(xs)   # noqa: E731
    return {"players": n_players, "sessions": sessions, "resolve_ms": ms(resolve_t),
            "resolve_max_ms": 1000 * max(resolve_t), "validate_ms": ms(validate_t),
            "view_form_ms": ms(present_t), "state_kb": max(sizes) / 1024}


def main() -> None:
    smoke = "--smoke" in sys.argv[1:]   # a tiny run for CI: one game of 2 and of 6 players
    args = [a for a in sys.argv[1:] if a != "--smoke"]
    games = 1 if smoke else int(args[0]) if args else 3
    print(f"{'players':>7} {'sessions':>8} {'resolve ms':>10} {'max ms':>7} {'validate ms':>11} "
          f"{'view+form ms':>12} {'state KiB':>9}")
    for n in (2, 6) if smoke else (2, 6, 12, 18):
        r = run(n, games)
        print(f"{r['players']:>7} {r['sessions']:>8} {r['resolve_ms']:>10.2f} {r['resolve_max_ms']:>7.2f} "
              f"{r['validate_ms']:>11.3f} {r['view_form_ms']:>12.2f} {r['state_kb']:>9.1f}")


if __name__ == "__main__":
    main()
