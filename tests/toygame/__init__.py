"""A tiny game for the referee's own tests: "highest unique bid".

Every round each player bids 0..5 from a private budget; the highest bid that
nobody else made scores a point.  Each player also holds a secret number
(private information the tests look for in other players' reports).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from referee.game_api.contract import GM, LogEntry, Problem, Resolution, Rng

TEMPLATES = Path(__file__).parent / "templates"


class Bid(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bid: int = Field(ge=0, le=5)


class ToyBid:
    name = "toybid"
    title = "Highest Unique Bid"
    version = "1.0"
    languages = ("en", "de")
    min_players = 2
    max_players = 4
    messages = {
        "toy.over_budget": {"en": "you bid {bid} but only {left} of your budget is left",
                            "de": "Gebot {bid}, aber nur noch {left} im Budget"},
        "toy.high": {"en": "a bid of 5 is rarely unique", "de": "ein Gebot von 5 ist selten einzig"},
    }

    def check_options(self, players: Sequence[str], options: Mapping) -> list[Problem]:
        problems = []
        if not self.min_players <= len(players) <= self.max_players:
            problems.append(Problem("toy.players", text=f"2 to 4 players, not {len(players)}"))
        if int(options.get("rounds", 3)) < 1:
            problems.append(Problem("toy.rounds", where="rounds", text="at least one round"))
        return problems

    def setup(self, players: Sequence[str], options: Mapping, rng: Rng) -> dict:
        return {"players": list(players), "round": 1, "rounds": int(options.get("rounds", 3)),
                "score": {p: 0 for p in players}, "budget": {p: 10 for p in players},
                "secret": {p: 1000 + rng.below(9000) for p in players}, "history": []}

    def awaiting(self, state: dict) -> dict[str, str]:
        if state["round"] > state["rounds"]:
            return {}
        return {p: "bid" for p in state["players"]}

    def order_schema(self, state: dict, stage: str) -> type[BaseModel]:
        return Bid

    def validate(self, state: dict, player: str, orders: Bid) -> list[Problem]:
        left = state["budget"][player]
        if orders.bid > left:
            return [Problem("toy.over_budget", where="bid", params={"bid": orders.bid, "left": left})]
        if orders.bid == 5:
            return [Problem("toy.high", where="bid", severity="warning")]
        return []

    def default_orders(self, state: dict, player: str) -> Bid:
        return Bid(bid=min(1, state["budget"][player]))

    def resolve(self, state: dict, orders: Mapping[str, BaseModel], rng: Rng) -> Resolution:
        new = self.load(self.dump(state))
        bids = {p: orders[p].bid for p in sorted(orders)}
        for p, b in bids.items():
            new["budget"][p] -= b
        unique = [b for b in set(bids.values()) if list(bids.values()).count(b) == 1 and b > 0]
        winner = None
        if unique:
            top = max(unique)
            winner = next(p for p, b in bids.items() if b == top)
            new["score"][winner] += 1
        log = [LogEntry("bids", {"bids": bids, "winner": winner})]
        # a coin only the GM hears about, so the rng and GM-only logs are exercised
        log.append(LogEntry("coin", {"flip": rng.below(2)}, visible_to=frozenset()))
        for p in bids:
            log.append(LogEntry("budget", {"player": p, "left": new["budget"][p]}, visible_to=frozenset({p})))
        new["history"].append(bids)
        new["round"] += 1
        outcome = None
        if new["round"] > new["rounds"]:
            best = max(new["score"].values())
            outcome = {"winners": sorted(p for p, s in new["score"].items() if s == best), "scores": dict(new["score"])}
        return Resolution(new, log, outcome)

    def view(self, state: dict, viewer: str | None) -> dict:
        public = {"round": state["round"], "rounds": state["rounds"], "score": dict(state["score"])}
        if viewer == GM:
            private = {"budget": dict(state["budget"]), "secret": dict(state["secret"])}
        elif viewer in state["players"]:
            private = {"budget": state["budget"][viewer], "secret": state["secret"][viewer]}
        else:
            private = {}
        return {"public": public, "private": private}

    def order_form(self, state: dict, player: str, lang: str) -> str:
        if player not in self.awaiting(state):
            return ""
        left = state["budget"][player]
        note = "Gebot 0 bis" if lang == "de" else "bid 0 to"
        return f"bid: 0    # {note} {min(5, left)}\n"

    def dump(self, state: dict) -> dict:
        return {**state, "score": dict(state["score"]), "budget": dict(state["budget"]),
                "secret": dict(state["secret"]), "history": [dict(h) for h in state["history"]],
                "players": list(state["players"])}

    def load(self, data: Mapping) -> dict:
        return self.dump(dict(data))


RULES = ToyBid()
