"""``RULES``: Nations: The Dice Game on the referee's game contract."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.game_api.contract import LogEntry, Problem, Resolution, Rng, invalid_edition

from . import summary
from .actions import canonical, tile_id
from .edition import edition_for
from .famine import auto_trade, feed, food_pair_problems
from .flow import advance
from .messages import MESSAGES
from .orders import SCHEMAS, BooksOrders, FamineOrders, PlanOrders, normalise
from .page_words import FIELD_MESSAGES
from .phases import spend_books, start_age
from .picture import STANDINGS_MESSAGES
from .pieces import gain_markers, take_dice
from .state import NState, clone, deep, load_state, new_data
from .validate import check_orders

OPTIONS = {"edition", "variant", "hard"}


# the game's messages with the standings' labels
ALL_MESSAGES = {**MESSAGES, **STANDINGS_MESSAGES, **FIELD_MESSAGES}


class NationsDice:
    name = "nations_dice"
    title = "Nations: The Dice Game"
    version = "1.0"
    languages = ("en", "de")
    min_players = 1
    max_players = 4
    messages = ALL_MESSAGES
    demo_seats = (["ada", "bert", "cleo"], "de")

    # --- before the match --------------------------------------------------------
    def check_options(self, players: Sequence[str], options: Mapping) -> list[Problem]:
        probs = []
        if not 1 <= len(players) <= 4:
            probs.append(Problem("options.players", "players", params={"n": len(players)}))
        if len(set(players)) != len(players):
            probs.append(Problem("options.players_unique", "players"))
        for key in sorted(set(options) - OPTIONS):
            probs.append(Problem("options.unknown", str(key)[:40], "warning", {"key": str(key)[:40]}))
        if options.get("variant", "original") not in ("original", "accelerated"):
            probs.append(Problem("options.variant", "variant"))
        if not isinstance(options.get("hard", False), bool):
            probs.append(Problem("options.hard", "hard"))
        why = invalid_edition(options.get("edition"), edition_for)
        if why:
            probs.append(Problem("options.edition", "edition", params={"error": why}))
        return probs

    def sample_options(self, players) -> dict:
        """Conformance and demo: the accelerated variant with 3 players, hard solo."""
        if len(players) == 3:
            return {"variant": "accelerated"}
        if len(players) == 1:
            return {"hard": True}
        return {}

    def setup(self, players: Sequence[str], options: Mapping, rng: Rng) -> NState:
        raw = options.get("edition")
        raw = None if raw is None else deep(dict(raw))
        ed = edition_for(raw)
        players = list(players)
        d = new_data(players, ed, raw, options.get("variant", "original"), bool(options.get("hard", False)))
        order = list(players)
        rng.shuffle(order)                                          # R24
        d["order"] = order
        starts = [1] if len(order) == 1 else ([1, 3] if len(order) == 2 else [1, 2, 3, 4])
        log: list = []
        for i, p in enumerate(order):
            d["p"][p]["culture"] = starts[i]                       # R28–R29, R163
            for colour, n in ed.start_dev_dice.items():
                take_dice(d, p, colour, n * ed.start_devs, rng, log)
            for x in d["p"][p]["dice"]:
                x[2] = None                                         # rolled at the first action (R46)
            for kind, n in ed.start_markers.items():
                gain_markers(d, p, kind, n, log)
        for age in range(1, 5):                                     # R23, R38–R40
            tiles = ed.ages("tiles", age)
            rng.shuffle(tiles)
            events = ed.ages("events", age)
            rng.shuffle(events)
            d["stacks"][str(age)] = tiles
            d["event_stacks"][str(age)] = events
        start_age(d, ed, rng, log)
        advance(d, ed, rng, log)
        return NState(ed, d)

    # --- what is owed ------------------------------------------------------------
    def awaiting(self, state: NState) -> dict[str, str]:
        return dict(state.d["waiting"])

    def order_schema(self, state: NState, stage: str):
        return SCHEMAS[stage]

    def default_orders(self, state: NState, player: str):
        """At a missed deadline: what the online version does by itself (spend all
        books, trade no strength die into food); with nothing left to decide, pass."""
        stage = state.d["waiting"].get(player)
        if stage == "books":
            return BooksOrders()
        if stage == "famine":
            return FamineOrders()
        return PlanOrders(steps=["pass"])

    def understood(self, state: NState, player: str, orders) -> dict:
        """What the acceptance echoes: the orders as given, tiles by their id, without
        the fields left at their defaults."""
        if not isinstance(orders, PlanOrders):
            return orders.model_dump(mode="json")
        data = orders.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        return {"steps": [_tile_by_id(state.ed, s) for s in data.get("steps", [])]}

    def validate(self, state: NState, player: str, orders) -> list[Problem]:
        stage = state.d["waiting"].get(player)
        if stage is None:
            return [Problem("stage.none", "")]
        return check_orders(state.d, state.ed, player, stage, orders)

    # --- resolution ----------------------------------------------------------------
    def resolve(self, state: NState, orders: Mapping, rng: Rng) -> Resolution:
        ed, d0 = state.ed, state.d
        d = clone(d0)
        log: list = []
        for p, stage in d0["waiting"].items():
            o = orders.get(p)
            if o is None or any(x.is_error for x in check_orders(d0, ed, p, stage, o)):
                log.append(("defaulted", {"player": p}, None))
                o = self.default_orders(state, p)
            if stage == "plan":
                d["p"][p]["plan"] = [canonical(ed, normalise(s)) for s in o.steps]
            elif stage == "books":
                spend_books(d, ed, p, list(o.hold), log)
                d["phase_at"] += 1
            elif stage == "famine":
                pairs = (auto_trade(d, ed, p, strength=True) if o.trade == "auto"
                         else [] if o.trade == "none" else o.trade)
                if food_pair_problems(d, ed, p, pairs, "trade"):
                    pairs = []
                feed(d, ed, p, [list(x) for x in pairs], log)
                d["phase_at"] += 1
        if d["stage"] != "over":
            advance(d, ed, rng, log)
        d["turn"] += 1
        entries = [LogEntry(k, data, None if vis is None else frozenset(vis)) for k, data, vis in log]
        return Resolution(NState(ed, d), entries, d["outcome"])

    # --- persistence and views ---------------------------------------------------------
    def dump(self, state: NState) -> dict:
        return deep(state.d)

    def load(self, data: Mapping) -> NState:
        return load_state(dict(data))

    def view(self, state: NState, viewer):
        from .view import build_view
        return build_view(state, viewer)

    def picture(self, view: dict, lang: str) -> str:
        from .picture import picture
        return picture(view, lang)

    def standings(self, view: dict) -> dict:
        from .picture import standings
        return standings(view)

    def rules_summary(self, lang: str) -> str:
        """The rules in a few lines, for the welcome mail (``referee rules`` prints the whole)."""
        return summary.rules_summary(lang)

    def order_form(self, state: NState, player: str, lang: str) -> str:
        from .form import order_form
        return order_form(state, player, lang)

    def random_orders(self, state: NState, player: str, rng: Rng) -> dict:
        from .play import random_orders
        return random_orders(state, player, rng)

    def order_choices(self, state: NState, player: str, lang: str) -> dict:
        from .choices import order_choices
        return order_choices(state, player, lang)

    def determinize(self, state: NState, player: str, rng: Rng) -> NState:
        from .hidden import determinize
        return determinize(state, player, rng)

    def estimate(self, view: dict) -> dict:
        """Each nation's score were the game to end now: its VP and its tiles' VP (R145; at
        the end the tiles' VP are in its VP already)."""
        pub = view["public"]
        over = pub["outcome"] is not None
        return {q["id"]: q["vp"] + (0 if over else q["tile_vp"]) for q in pub["players"]}


def _tile_by_id(ed, step):
    if isinstance(step, dict) and len(step) == 1 and next(iter(step.values())) == {}:
        return next(iter(step))    # build: {} is written "build"
    if isinstance(step, dict) and isinstance(step.get("buy"), dict) and step["buy"].get("tile"):
        return {"buy": dict(step["buy"], tile=tile_id(ed, step["buy"]["tile"]))}
    return step


RULES = NationsDice()
