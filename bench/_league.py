"""The league ``bench/close_many.py`` closes (and ``close_latency``, ``send_reports``, ``render_reports``
build on): N matches of Founding Fathers (3–5 players) and the Perricumer Ratsspiel (5–12)
alternating, played a few turns with random orders, and the games' own work of a close, the
baseline every close figure is divided by.  Not a bench itself (the smoke test skips ``_`` files)."""
from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import contract, registry
from referee.game_api.contract import GM, Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.runtime import gc_policy
from referee.store import open_store

# the readers' views as the close asks them; a checkout from before contract.views_of (measured against,
# bench/close_instructions.py --against) asked view once a reader
views_of = getattr(contract, "views_of", None) or (lambda rules, state, viewers: {v: rules.view(state, v) for v in viewers})

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def league(i: int) -> tuple[str, list[str], str]:
    """The i-th match of the mix: (game, seats, language)."""
    if i % 2 == 0:
        return "founding_fathers", [f"f{k}" for k in range(3 + (i // 2) % 3)], ("en", "de")[(i // 2) % 2]
    return "perricumer_ratsspiel", [f"r{k}" for k in range(5 + (i // 2) % 8)], "de"


def spec_of(i: int) -> dict:
    game, seats, lang = league(i)
    spec = {"id": f"m{i:04d}", "game": game, "lang": lang, "gm": f"gm{i % 50}@league.test",
            "timezone": "Europe/Berlin", "schedule": {"period": "48h"}, "early_close": False,
            "players": [{"id": s, "name": s.title(), "email": f"{s}.{i}@league.test"} for s in seats]}
    sample = getattr(registry.get(game), "sample_options", None)
    if callable(sample):
        spec["options"] = sample(seats)
    return spec


def orders_in(ref: Referee, match_id: str, rng: Rng) -> None:
    """Every awaited player's random orders, stored as an accepted mail would store them."""
    rules = registry.get(ref.store.match(match_id)["game"])
    turn = ref.store.current_turn(match_id)
    state = rules.load(turn["state"])
    rand = random_player(rules)
    with ref.store.transaction():
        for pid in sorted(turn["awaiting"]):
            if pid.startswith("@"):
                continue
            ref.store.put_submission(match_id, turn["number"], pid, rand(state, pid, rng),
                                     f"<{match_id}.{turn['number']}.{pid}@league.test>", "0" * 64, ref.now())


def build(root: Path, n: int, turns: int, settings: Settings | None = None) -> tuple[Referee, Clock]:
    """N matches of the mix, ``turns`` turns in, every awaited player's orders in, the clock past their deadline."""
    clock = Clock()
    ref = Referee(open_store(root / "referee.sqlite"), root / "turns", clock=clock,
                  settings=settings or Settings(address="referee@league.test"))
    rng = Rng(derive_seed("close_many", n))
    for i in range(n):
        ref.create_match(spec_of(i), seed=f"league-{i}")
    ref.tick()
    for _ in range(turns + 1):
        for i in range(n):
            orders_in(ref, f"m{i:04d}", rng)
        if _ < turns:
            clock.now += timedelta(hours=49)
            ref.tick()
    with ref.store.transaction():  # the build's own mail is not what is measured
        ref.store._db.execute("DELETE FROM outbox")
    clock.now += timedelta(hours=49)
    return ref, clock


def games_inputs(ref: Referee, n: int) -> list:
    """What the games' own work of every due close starts from, read once: (rules, turn, orders, seats, lang);
    only the open turns, which the tick closes."""
    work = []
    for i in range(n):
        match = ref.store.match(f"m{i:04d}")
        rules = registry.get(match["game"])
        turn = ref.store.current_turn(match["id"])
        if turn is None or turn["status"] != "open":   # a match that ended: the tick closes nothing there
            continue
        subs = ref.store.submissions(match["id"], turn["number"])
        work.append((rules, turn, subs, [p["id"] for p in ref.store.players(match["id"])],
                     match["spec"].get("language") or "en"))
    return work


def games_own_work(work: list, together: bool = True) -> float:
    """CPU seconds for what the games do in a close: load, resolve, view and order form for every
    reader, as the close asks for them (every reader's view at once, ``views_of``; not
    ``together``: one ``view`` call a reader, as closes did before) and under the close's
    collector policy (``gc_policy.closing_pass``)."""
    t = time.process_time()
    with gc_policy.closing_pass():
        for rules, turn, subs, seats, lang in work:
            state = rules.load(turn["state"])
            orders = {p: rules.order_schema(state, stage).model_validate(subs[p]["orders"]) if p in subs
                      else rules.default_orders(state, p) for p, stage in sorted(turn["awaiting"].items())}
            res = rules.resolve(state, orders, Rng(turn["seed"]))
            after, readers = rules.awaiting(res.state), seats + [None, GM]
            if together:
                views_of(rules, res.state, readers)
            else:
                for viewer in readers:
                    rules.view(res.state, viewer)
            for viewer in readers:
                if viewer in after:
                    rules.order_form(res.state, viewer, lang)
    return time.process_time() - t
