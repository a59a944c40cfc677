"""The orders a player sends, per stage, and how problems with them read."""
from __future__ import annotations

from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee.game_api.contract import PLAN_MESSAGES

ID = Field(None, max_length=24)
WORDS = {"pass": "pass", "passen": "pass", "ask": "ask", "frag": "ask", "fragen": "ask", "frage": "ask"}
# a step's keys in German, read as the English ones (``spielen: PE34`` is ``play: PE34``)
KEYS = {"spielen": "play", "spiele": "play", "schieben": "push", "schiebe": "push", "auf": "on",
        "spieler": "player", "partei": "party", "an": "to", "zu": "to", "wenn": "if", "falls": "if"}
COND_KEYS = {"geantwortet": "answered", "antwort": "answered", "gewinne": "winning", "gewinnt": "winning"}


def _english_keys(v, words: dict):
    if not isinstance(v, dict):
        return v
    out = {}
    for k, x in v.items():
        name = words.get(k.strip().lower(), k) if isinstance(k, str) else k
        out[name if name not in v and name not in out else k] = x
    return out


def _norm_id(v):
    return v.strip().upper() if isinstance(v, str) else v


class Condition(BaseModel):
    """``answered``: a party (RR DL L R), a card id or ``army`` another player played since
    your last turn; ``winning``: whether the table as it lies gives you the trick."""
    model_config = ConfigDict(extra="forbid")
    answered: str | None = ID
    winning: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _german(cls, v):
        return _english_keys(v, COND_KEYS)

    @field_validator("answered")
    @classmethod
    def _up(cls, v):
        if isinstance(v, str) and v.strip().lower() in ("army", "armee"):
            return "army"
        return _norm_id(v)


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    play: str | None = ID
    push: str | None = ID
    on: str | None = ID
    player: str | None = Field(None, max_length=64)
    party: Literal["RR", "DL", "L", "R"] | None = None
    to: str | None = Field(None, max_length=64)
    if_: Condition | None = Field(None, alias="if")

    @model_validator(mode="before")
    @classmethod
    def _german(cls, v):
        return _english_keys(v, KEYS)

    @field_validator("play", "push", "on", mode="before")
    @classmethod
    def _ids(cls, v):
        return _norm_id(v)

    @field_validator("party", mode="before")
    @classmethod
    def _party(cls, v):
        return _norm_id(v)

    @field_validator("player", "to", mode="before")
    @classmethod
    def _seat(cls, v):   # seats are lower case, as the referee stores them
        return v.strip().lower() if isinstance(v, str) else v

    def as_data(self) -> dict:
        out = {k: v for k, v in (("play", self.play), ("push", self.push), ("on", self.on),
                                 ("player", self.player), ("party", self.party), ("to", self.to))
               if v is not None}
        if self.if_ is not None:
            cond = {k: v for k, v in self.if_.model_dump().items() if v is not None}
            if cond:
                out["if"] = cond
        return out


PlanStep = Union[Literal["pass", "ask"], Step]


class TrickOrders(BaseModel):
    """A plan for the trick: steps tried in order each time your play comes up."""
    model_config = ConfigDict(extra="forbid")
    steps: list[PlanStep] = Field(default_factory=lambda: ["ask"], max_length=30)
    draw: Literal["person", "zusatz"] | None = None

    @field_validator("steps", mode="before")
    @classmethod
    def _words(cls, v):
        if isinstance(v, (str, dict)):
            v = [v]
        if isinstance(v, list):
            return [WORDS.get(x.strip().lower(), x) if isinstance(x, str) else x for x in v]
        return v

    def plan(self) -> list:
        return [s if isinstance(s, str) else s.as_data() for s in self.steps]


class DrawOrders(BaseModel):
    """The free choice when drawing at 3 or 5 hand cards."""
    model_config = ConfigDict(extra="forbid")
    draw: Literal["person", "zusatz"] = "person"

    @field_validator("draw", mode="before")
    @classmethod
    def _de(cls, v):
        return {"personenkarte": "person", "zusatzkarte": "zusatz"}.get(str(v).strip().lower(), v) if v else v


SCHEMAS = {"trick": TrickOrders, "draw": DrawOrders}

MESSAGES = dict(PLAN_MESSAGES)
MESSAGES.update({
    "options.players": {"de": "1848 braucht 2 bis 4 Spieler, nicht {n}.", "en": "1848 needs 2 to 4 players, not {n}."},
    "options.players_unique": {"de": "Spieler-Kennungen müssen eindeutig sein.", "en": "Player ids must be unique."},
    "options.unknown": {"de": "Unbekannte Option {key} wird ignoriert.", "en": "Unknown option {key} is ignored."},
    "options.edition": {"de": "Die Edition ist ungültig: {error}", "en": "The edition is not valid: {error}"},
    "stage.none": {"de": "Du schuldest jetzt keine Befehle.", "en": "You owe no orders now."},
    "card.unknown": {"de": "{card} ist keine Karte dieses Spiels.", "en": "{card} is not a card of this game."},
    "card.not_in_hand": {"de": "{card} ist nicht auf deiner Hand.", "en": "{card} is not in your hand."},
    "player.unknown": {"de": "{player} spielt nicht mit (Mitspieler: {choices}).",
                       "en": "{player} is not playing (players: {choices})."},
    "step.fields": {"de": "{card}: {field} passt nicht zu dieser Karte.", "en": "{card}: {field} does not fit this card."},
    "play.opening": {"de": "Solange keine Person ausliegt, gehen nur Personen und Armeen.",
                     "en": "Until a person lies on the table, only persons and armies may be played."},
    "step.kind": {"de": "Ein Schritt nennt entweder play: (ausspielen) oder push: (schieben), oder er ist pass bzw. ask.",
                  "en": "A step names either play: or push:, or it is pass or ask."},
    "step.never": {"de": "Dieser Schritt kann in diesem Stich nie ausgeführt werden: {why}",
                   "en": "This step can never be carried out this trick: {why}"},
    "target.missing": {"de": "Diese Karte braucht ein Ziel (on: Person).", "en": "This card needs a target (on: person)."},
    "target.not_on_table": {"de": "{card} liegt nicht aus.", "en": "{card} is not on the table."},
    "target.commander": {"de": "{card} ist ein Heerführer; Zusatzkarten treffen keine Heerführer.",
                         "en": "{card} is a commander; Zusatzkarten never aim at commanders."},
    "target.party": {"de": "{card} gehört nicht zu {parties}.", "en": "{card} is not of {parties}."},
    "target.flag": {"de": "{card} ist kein Heerführer der Flagge {flags}.", "en": "{card} is no commander of flag {flags}."},
    "target.side": {"de": "Ziel auf der falschen Seite (nötig: {side}).", "en": "Target on the wrong side (needed: {side})."},
    "target.player_missing": {"de": "Diese Karte braucht einen Spieler (player:).", "en": "This card needs a player (player:)."},
    "target.player_unknown": {"de": "{player} spielt nicht mit.", "en": "{player} is not playing."},
    "target.party_missing": {"de": "Diese Karte braucht eine Partei (party: RR, DL, L oder R).",
                             "en": "This card needs a party (party: RR, DL, L or R)."},
    "target.party_fixed": {"de": "Diese Karte wirkt nur auf {party}.", "en": "This card works on {party} only."},
    "plan.later": {"de": "Zuerst ist {actor} dran; dein Plan wird Schritt für Schritt geprüft, wenn du an der Reihe bist.",
                   "en": "{actor} plays first; your plan is tried step by step when your play comes up."},
    "if.answered": {"de": "noch niemand hat mit {what} geantwortet", "en": "nobody has answered with {what} yet"},
    "if.winning": {"de": "du gewinnst den Stich gerade nicht", "en": "you are not winning the trick now"},
    "if.not_winning": {"de": "du gewinnst den Stich gerade", "en": "you are winning the trick now"},
    # the same reasons naming the player, for everyone else's report ({who}, {whose}: the name)
    "card.not_in_hand.of": {"de": "{card} ist nicht auf {whose} Hand.", "en": "{card} is not in {whose} hand."},
    "if.winning.of": {"de": "{who} gewinnt den Stich gerade nicht", "en": "{who} is not winning the trick now"},
    "if.not_winning.of": {"de": "{who} gewinnt den Stich gerade", "en": "{who} is winning the trick now"},
})
