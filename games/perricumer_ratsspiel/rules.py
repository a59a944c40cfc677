"""The Perricumer Ratsspiel on the referee's game contract."""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from referee.game_api.contract import GM, Problem, Resolution, Rng

from . import summary
from .campaign import CITY_VALUES, load_campaign
from .form import gm_form, player_form
from .messages import MESSAGES
from .orders import CARDS, GmOrders, SessionOrders, read, read_gm, understood
from .page_words import PAGE_WORDS
from .picture import STANDINGS_MESSAGES
from .scripted import random_orders
from .session import resolve_session
from .view import build_view, build_views

STATE_VERSION = 1


def default_seats(players: Sequence[str], camp) -> dict[str, str]:
    """Without `members`: a player whose id names a councillor plays that one;
    the others take the free Zwölferrat/Zwölferbeirat members in roster order."""
    free = [m.id for m in camp.members if m.rank != "reichsvogt"]
    seats = {p: p for p in players if p in free}
    rest = [m for m in free if m not in seats.values()]
    for p in players:
        if p not in seats:
            seats[p] = rest.pop(0)
    return seats


def _err(code: str, **params) -> Problem:
    return Problem(code, "options", "error", params)


class RatsspielRules:
    name = "perricumer_ratsspiel"
    title = "Das Perricumer Ratsspiel"
    version = "1.1"   # 1.1: the seat order is kept where it is not sorted (picture colours); 1.0 archives with unsorted seats replay differently
    languages = ("de", "en")
    min_players = 1
    max_players = 24
    messages = {**MESSAGES, **STANDINGS_MESSAGES, **PAGE_WORDS}

    # --- match set-up -------------------------------------------------
    def check_options(self, players: Sequence[str], options: Mapping) -> list[Problem]:
        try:
            camp = load_campaign(options.get("campaign"))
        except ValidationError as exc:
            return [_err("options.campaign", error=str(exc.errors()[0].get("msg")))]
        probs = []
        if not 1 <= len(players) <= 24 or 2 * len(players) > len(camp.proposals):
            probs.append(_err("options.players", count=len(players)))
        need = 2 * len(players) + len(players) * (camp.rounds - 2)
        if len(camp.proposals) < need:     # playable, but sessions will shrink once the deck is empty
            probs.append(Problem("options.deck", "options", "warning",
                                 {"have": len(camp.proposals), "need": need}))
        seats = {m.id: m for m in camp.members}
        chosen = options.get("members")
        if chosen is not None:
            if set(chosen) != set(players):
                probs.append(_err("options.members", error="every player needs exactly one councillor"))
            vals = list(chosen.values())
            if len(set(vals)) != len(vals):
                probs.append(_err("options.members", error="two players chose the same councillor"))
            for p, m in sorted(chosen.items()):
                if m not in seats or seats[m].rank == "reichsvogt":
                    probs.append(_err("options.members", error=f"{p}: {m} is no Zwölferrat/Zwölferbeirat member"))
        agendas = options.get("agendas") or {}
        known = {a.id for a in camp.agendas}
        for p, a in sorted(agendas.items()):
            if p not in players or a not in known:
                probs.append(_err("options.agendas", error=f"{p}: {a}"))
        for p, cards in sorted((options.get("cards") or {}).items()):
            if p not in players or len(cards) != 3 or len(set(cards)) != 3 or not set(cards) <= set(CARDS):
                probs.append(_err("options.cards", player=p))
        return probs

    def setup(self, players: Sequence[str], options: Mapping, rng: Rng) -> dict:
        camp = load_campaign(options.get("campaign"))
        players = list(players)
        seats = options.get("members") or default_seats(players, camp)
        agendas = dict(options.get("agendas") or {})
        pool = [a.id for a in camp.agendas]
        rng.shuffle(pool)       # GM did not assign: by lot, distinct while there are enough
        for i, p in enumerate(sorted(p for p in players if p not in agendas)):
            agendas[p] = pool[i % len(pool)]
        opening = list(camp.opening) + [p.nr for p in camp.proposals if p.nr not in camp.opening]
        n = 2 * len(players)
        cards = options.get("cards") or {}
        state = {
            "v": STATE_VERSION, "campaign": camp.model_dump(mode="json"), "round": 1,
            "players": {p: seats[p] for p in sorted(players)},
            "values": {v: 10 for v in CITY_VALUES}, "korruption": 0,
            "influence": {m.id: 0 for m in camp.members},
            "offices": {o.id: {"holder": o.holder, "low": 0} for o in camp.offices},
            "agendas": {p: agendas[p] for p in sorted(players)}, "revealed": [],
            "cards": {p: (sorted(cards[p], key=CARDS.index) if p in cards else None) for p in sorted(players)},
            "selection": opening[:n], "deck": opening[n:], "session": [], "picked": {},
            "proposals": {str(p.nr): p.model_dump(mode="json") for p in camp.proposals},
            "next_nr": max(p.nr for p in camp.proposals) + 1, "reelect": [],
            "kidnapped": {}, "last": None, "outcome": None,
            "gm_orders": bool(options.get("gm_orders", False)),
        }
        if players != sorted(players):
            # the match's seat order colours the players in the picture as on the site's chart;
            # kept only where it is not the sorted order, so earlier archives keep their hashes
            state["seat_order"] = players
        return state

    # --- turns --------------------------------------------------------
    def awaiting(self, state: dict) -> dict[str, str]:
        if state["outcome"] is not None:
            return {}
        out = {p: "session" for p in sorted(state["players"])}
        if state["gm_orders"]:
            out[GM] = "gm"
        return out

    def order_schema(self, state: dict, stage: str) -> type[BaseModel]:
        return GmOrders if stage == "gm" else SessionOrders

    def _model(self, state, player, orders) -> BaseModel:
        schema = GmOrders if player == GM else SessionOrders
        if isinstance(orders, schema):
            return orders
        data = orders.model_dump() if isinstance(orders, BaseModel) else dict(orders or {})
        return schema.model_validate(data)

    def validate(self, state: dict, player: str, orders: BaseModel) -> list[Problem]:
        if player == GM:
            return read_gm(state, self._model(state, player, orders))[1]
        if player not in state["players"]:
            return [Problem("options.members", "", "error", {"error": f"{player} plays no councillor"})]
        return read(state, player, self._model(state, player, orders))[1]

    def understood(self, state: dict, player: str, orders: BaseModel) -> dict | None:
        """The orders as they will be used (what the acceptance echoes); the GM's as sent."""
        if player == GM or player not in state["players"]:
            return None
        return understood(state, player, self._model(state, player, orders))

    def default_orders(self, state: dict, player: str) -> BaseModel:
        return GmOrders() if player == GM else SessionOrders()

    def resolve(self, state: dict, orders: Mapping[str, BaseModel], rng: Rng) -> Resolution:
        readings = {}
        for p in sorted(state["players"]):
            model = self._model(state, p, orders.get(p) or SessionOrders())
            readings[p] = read(state, p, model)[0]
        gm = read_gm(state, self._model(state, GM, orders.get(GM) or GmOrders()))[0]
        new, log = resolve_session(state, readings, gm, rng)
        return Resolution(new, log, copy.deepcopy(new["outcome"]))

    # --- presentation -------------------------------------------------
    def view(self, state: dict, viewer: str | None) -> dict:
        return build_view(state, viewer)

    def views(self, state: dict, viewers: list) -> dict:
        return build_views(state, viewers)

    def rules_summary(self, lang: str) -> str:
        """The rules in a few lines, for the welcome mail (``referee rules`` prints the whole)."""
        return summary.rules_summary(lang)

    def picture(self, view: dict, lang: str) -> str:
        from .picture import picture
        return picture(view, lang)

    def standings(self, view: dict) -> dict:
        from .picture import standings
        return standings(view)

    def estimate(self, view: dict) -> dict:
        """Each player's total were the session to end now, as the viewer can know it: the
        public influence, the revealed agendas' bonuses that hold, and the viewer's own."""
        pub = view["public"]
        out = {m["player"]: m["total"] for m in pub["members"] if m["player"]}
        agendas = {a["player"]: a for a in pub["revealed_agendas"] if a}
        own = view.get("private", {}).get("agenda")
        if own:
            agendas.setdefault(own["player"], own)
        if pub["outcome"] is None:
            for player, a in agendas.items():
                if a["active"] and player in out:
                    out[player] += a["bonus"]
        return out

    def order_form(self, state: dict, player: str, lang: str) -> str:
        owed = self.awaiting(state)
        if player not in owed:
            return ""
        return gm_form(state, lang) if player == GM else player_form(state, player, lang)

    def dump(self, state: dict) -> dict:
        return _copy(state)

    def load(self, data: Mapping) -> dict:
        return _copy(dict(data))

    # scripted players (conformance test, demo)
    def random_orders(self, state: dict, player: str, rng: Rng) -> dict[str, Any]:
        return random_orders(state, player, rng)

    # the clickable order page (issue 36)
    def order_choices(self, state: dict, player: str, lang: str) -> dict:
        from .choices import order_choices
        return order_choices(state, player, lang, self.awaiting(state))

    def determinize(self, state: dict, player: str, rng: Rng) -> dict:
        from .hidden import determinize
        return determinize(state, player, rng)


def _copy(value):
    """A copy of JSON-shaped data (dicts, lists, scalars): 3x faster than
    ``copy.deepcopy``, which matters because the referee loads the state for
    every order mail it checks."""
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value


RULES = RatsspielRules()
