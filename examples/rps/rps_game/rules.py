"""Rock, Paper, Scissors for 2–4 players, played over a fixed number of rounds.

Every round all players choose at once (a simultaneous game: everyone is
awaited); each choice scores a point against every other player's choice it
beats.  After the last round the most points win (ties share the win).
Pure: no I/O, clock or global random; it imports only the referee's contract.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from referee.game_api.contract import GM, LogEntry, Problem, Resolution, Rng

SIGNS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


class Throw(BaseModel):
    """The orders of one round."""
    model_config = ConfigDict(extra="forbid")
    sign: Literal["rock", "paper", "scissors"] = "rock"


MESSAGES = {
    "options.players": {"en": "Rock, Paper, Scissors needs 2 to 4 players, not {n}.",
                        "de": "Schere, Stein, Papier braucht 2 bis 4 Spieler, nicht {n}."},
    "options.rounds": {"en": "rounds must be a whole number from 1 to 20, not {value}.",
                       "de": "rounds muss eine ganze Zahl von 1 bis 20 sein, nicht {value}."},
    "stage.none": {"en": "You owe no orders now.", "de": "Du schuldest jetzt keine Befehle."},
}
FORM = {"en": "# rock beats scissors, scissors beat paper, paper beats rock\nsign: rock   # rock | paper | scissors\n",
        "de": "# Stein schlägt Schere, Schere schlägt Papier, Papier schlägt Stein\n"
              "sign: rock   # rock (Stein) | paper (Papier) | scissors (Schere)\n"}


class RockPaperScissors:
    name = "rock_paper_scissors"
    title = "Rock, Paper, Scissors"
    version = "1.0"
    languages = ("en", "de")
    min_players = 2
    max_players = 4
    messages = MESSAGES

    def check_options(self, players: Sequence[str], options: Mapping) -> list[Problem]:
        out = []
        if not self.min_players <= len(players) <= self.max_players:
            out.append(Problem("options.players", params={"n": len(players)}))
        rounds = options.get("rounds", 3)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 20:
            out.append(Problem("options.rounds", "rounds", params={"value": str(rounds)[:20]}))
        return out

    def setup(self, players: Sequence[str], options: Mapping, rng: Rng) -> dict:
        return {"players": list(players), "rounds": int(options.get("rounds", 3)), "round": 1,
                "score": {p: 0 for p in players}, "history": []}

    def awaiting(self, state: dict) -> dict[str, str]:
        return {} if state["round"] > state["rounds"] else {p: "throw" for p in state["players"]}

    def order_schema(self, state: dict, stage: str) -> type[BaseModel]:
        return Throw

    def validate(self, state: dict, player: str, orders: BaseModel) -> list[Problem]:
        return [] if player in self.awaiting(state) else [Problem("stage.none")]

    def default_orders(self, state: dict, player: str) -> BaseModel:
        return Throw()

    def resolve(self, state: dict, orders: Mapping[str, BaseModel], rng: Rng) -> Resolution:
        signs = {p: orders[p].sign if p in orders else "rock" for p in state["players"]}
        won = {p: sum(BEATS[signs[p]] == signs[q] for q in state["players"] if q != p) for p in state["players"]}
        new = dict(state, round=state["round"] + 1, history=state["history"] + [signs],
                   score={p: state["score"][p] + won[p] for p in state["players"]})
        log = [LogEntry("throws", {"round": state["round"], "signs": signs, "won": won})]
        outcome = None
        if new["round"] > new["rounds"]:
            best = max(new["score"].values())
            outcome = {"winners": [p for p in new["players"] if new["score"][p] == best], "scores": new["score"]}
            log.append(LogEntry("game_over", {"winners": outcome["winners"]}))
        return Resolution(new, log, outcome)

    def view(self, state: dict, viewer: str | None) -> dict:
        # nothing is secret once a round is resolved; a round's choices are never in the state before
        public = {"round": min(state["round"], state["rounds"]), "rounds": state["rounds"],
                  "score": dict(state["score"]), "history": [dict(h) for h in state["history"]]}
        return {"public": public, "private": {} if viewer in (None, GM) else {"player": viewer}}

    def order_form(self, state: dict, player: str, lang: str) -> str:
        return FORM.get(lang, FORM["en"]) if player in self.awaiting(state) else ""

    def dump(self, state: dict) -> dict:
        return state

    def load(self, data: Mapping) -> dict:
        return {"players": list(data["players"]), "rounds": int(data["rounds"]), "round": int(data["round"]),
                "score": dict(data["score"]), "history": [dict(h) for h in data["history"]]}


def random_orders(state: dict, player: str, rng: Rng) -> dict:
    """A scripted player (the referee's demo and conformance test use it)."""
    return {"sign": rng.choice(SIGNS)}


RULES = RockPaperScissors()
