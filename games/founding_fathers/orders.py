"""The orders a player sends, per stage, and how problems with them read."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class KeepOrders(BaseModel):
    """Setup D: keep 2 of the 4 dealt cards (the rest go to the discard pile)."""
    model_config = ConfigDict(extra="forbid")
    keep: list[str] = Field(default_factory=list)

    @field_validator("keep", mode="before")
    @classmethod
    def _lower_all(cls, v):
        return [x.strip().lower() if isinstance(x, str) else x for x in v] if isinstance(v, list) else v


class ActionOrders(BaseModel):
    """One turn: the action, its choices, and which pool cards to take."""
    model_config = ConfigDict(extra="forbid")
    action: Literal["vote", "debate", "event", "snub"] = "snub"
    state: str | None = None            # vote: the delegation; seize_delegation: the target
    side: Literal["yea", "nay"] | None = None
    delegates: list[str] = Field(default_factory=list)   # cards from your hand
    card: str | None = None             # event: the card enacted
    targets: list[str] = Field(default_factory=list)     # event: Assembly cards to discard
    player: str | None = None           # event: the other player aimed at
    position: int | None = None         # event: which card of theirs (1 = first listed)
    pick: str | None = None             # event: a card from the discard pile
    faction: str | None = None          # event: a debate track
    article: str | None = None          # event: a resolved article
    take: list[int] = Field(default_factory=list)        # draw-pool positions 1–3
    reclaim: str | None = None          # if no marker is free: "debate:<faction>", "committee", "assembly:<state>"
    committee_flip: Literal["flip", "keep"] | None = None   # said in advance for a Committee win
    reclaim_planner: bool | None = None  # false: let your planner stay in the deck

    @field_validator("state")
    @classmethod
    def _upper(cls, v):
        return v.strip().upper() if isinstance(v, str) else v

    # card ids, seats, tracks and articles are lower case; a player may write them as the report prints them
    @field_validator("card", "player", "pick", "faction", "article", mode="before")
    @classmethod
    def _lower(cls, v):
        return v.strip().lower().replace(" ", "_") if isinstance(v, str) else v

    @field_validator("side", mode="before")
    @classmethod
    def _side(cls, v):   # the German words for the two sides
        return {"ja": "yea", "nein": "nay"}.get(v.strip().lower(), v) if isinstance(v, str) else v

    @field_validator("reclaim", mode="before")
    @classmethod
    def _reclaim(cls, v):   # debate:federalist, committee, assembly:NJ
        if not isinstance(v, str):
            return v
        room, _, where = v.strip().partition(":")
        room = room.strip().lower()
        return f"{room}:{where.strip().upper() if room == 'assembly' else where.strip().lower()}" if where else room

    @field_validator("delegates", "targets", mode="before")
    @classmethod
    def _lower_all(cls, v):
        return [x.strip().lower() if isinstance(x, str) else x for x in v] if isinstance(v, list) else v


# The fields of ActionOrders each action reads (actions.py; an event's steps in effects.py);
# every action reads EVERY_ACTION. validate checks a reclaim only for the actions that take
# one, and the order page shows a field only while an action that reads it is chosen.
ACTION_FIELDS = {
    "vote": ("state", "side", "delegates", "reclaim"),
    "debate": ("delegates", "reclaim"),
    "event": ("card", "state", "side", "delegates", "targets", "player", "position", "pick", "faction",
              "article", "reclaim"),
    "snub": ("delegates",),
}
EVERY_ACTION = ("action", "take", "committee_flip", "reclaim_planner")


def actions_taking(field: str) -> list[str]:
    """The actions that read ``field`` (all four for a field every action reads)."""
    return [a for a, fields in ACTION_FIELDS.items() if field in fields or field in EVERY_ACTION]


class FlipOrders(BaseModel):
    """The Committee winner decides whether to flip the Committee article."""
    model_config = ConfigDict(extra="forbid")
    flip: bool = False


SCHEMAS = {"keep": KeepOrders, "action": ActionOrders, "committee_flip": FlipOrders}

MESSAGES = {
    "options.players": {"en": "Founding Fathers needs 3 to 5 players, not {n}.",
                        "de": "Founding Fathers braucht 3 bis 5 Spieler, nicht {n}."},
    "options.players_unique": {"en": "Player ids must be unique.", "de": "Spieler-Kennungen müssen eindeutig sein."},
    "options.unknown": {"en": "Unknown option {key} is ignored.", "de": "Unbekannte Option {key} wird ignoriert."},
    "options.edition": {"en": "The edition is not valid: {error}", "de": "Die Edition ist ungültig: {error}"},
    "stage.none": {"en": "You owe no orders now.", "de": "Du schuldest jetzt keine Befehle."},
    "keep.count": {"en": "Keep exactly 2 of your 4 dealt cards.",
                   "de": "Behalte genau 2 deiner 4 ausgeteilten Karten."},
    "keep.unknown": {"en": "{card} is not one of your dealt cards ({dealt}).{near}",
                     "de": "{card} ist keine deiner ausgeteilten Karten ({dealt}).{near}"},
    "orders.not_in_hand": {"en": "{card} is not (or not twice) in your hand.",
                           "de": "{card} ist nicht (oder nicht doppelt) auf deiner Hand."},
    "orders.replaced": {"en": "The orders could not be carried out ({reason}); a snub of no cards was used.",
                        "de": "Die Befehle waren nicht ausführbar ({reason}); es wurde nichts abgeworfen."},
    "vote.state_unknown": {"en": "Name the state that votes (one of NH MA CT NY NJ PA DE MD VA NC SC GA), not {state}.{near}",
                           "de": "Nenne den abstimmenden Staat (NH MA CT NY NJ PA DE MD VA NC SC GA), nicht {state}.{near}"},
    "vote.side_missing": {"en": "Say on which side the delegation votes: yea or nay.",
                          "de": "Gib an, wie die Delegation stimmt: yea (Ja) oder nay (Nein)."},
    "vote.no_delegates": {"en": "A vote needs at least one delegate.",
                          "de": "Eine Stimmabgabe braucht mindestens einen Delegierten."},
    "vote.wrong_state": {"en": "{card} is not a delegate of {state}.",
                         "de": "{card} ist kein Delegierter von {state}."},
    "vote.bias": {"en": "{card} ({faction}) may not vote {side} on an article with {bias} bias.",
                  "de": "{card} ({faction}) darf bei einem Artikel mit Faktion {bias} nicht mit {side} stimmen."},
    "vote.no_reinforce": {"en": "{state} has already voted on that side; a delegation cannot be reinforced.",
                          "de": "{state} hat bereits auf dieser Seite abgestimmt; eine Delegation darf nicht verstärkt werden."},
    "vote.own_delegation": {"en": "You control {state}'s delegation; only another player can override it.",
                            "de": "Du kontrollierst die Delegation von {state}; nur ein anderer Spieler kann sie überstimmen."},
    "vote.override_short": {"en": "To override {state} ({have} delegates) you need at least {need}.",
                            "de": "Um {state} ({have} Delegierte) zu überstimmen, brauchst du mindestens {need}."},
    "vote.protected": {"en": "{state}'s delegation cannot be overridden this round.",
                       "de": "Die Delegation von {state} kann in dieser Runde nicht überstimmt werden."},
    "snub.nothing": {"en": "You snub no delegates: this turn is a pass (you only take cards from the draw pool).",
                     "de": "Du wirfst keine Delegierten ab: dieser Zug ist ein Passen (du nimmst nur Karten aus dem Nachziehbereich)."},
    "debate.no_delegates": {"en": "Speaking in debate needs at least one delegate.",
                            "de": "Zum Debattieren brauchst du mindestens einen Delegierten."},
    "debate.planner": {"en": "{card} is a planner and belongs to no faction's debate.",
                       "de": "{card} ist ein Planer und gehört zu keiner Debattierleiste."},
    "debate.mixed": {"en": "{card} is not of the same faction as the others.",
                     "de": "{card} gehört nicht zur selben Faktion wie die anderen."},
    "event.card": {"en": "Name the card whose event you enact (one in your hand).",
                   "de": "Nenne die Karte, deren Ereignis du ausführst (eine deiner Handkarten)."},
    "event.blocked": {"en": "{card}'s event is blocked by {by} this round.",
                      "de": "Das Ereignis von {card} ist in dieser Runde durch {by} blockiert."},
    "event.no_effect": {"en": "{card}'s event would have no effect now (snub the card instead).",
                        "de": "Das Ereignis von {card} hätte jetzt keine Wirkung (wirf die Karte stattdessen ab)."},
    "event.player": {"en": "Name another player for this event: {choices}.",
                     "de": "Nenne einen anderen Spieler für dieses Ereignis: {choices}."},
    "event.position": {"en": "Give a position from 1 to {size} in that player's hand.",
                       "de": "Gib eine Position von 1 bis {size} in der Hand dieses Spielers an."},
    "event.faction": {"en": "Name a debate track: {choices}.", "de": "Nenne eine Debattierleiste: {choices}."},
    "event.targets_count": {"en": "Name 1 to {max} delegates in the Assembly Room: {choices}.",
                            "de": "Nenne 1 bis {max} Delegierte im Versammlungszimmer: {choices}."},
    "event.target": {"en": "{card} cannot be chosen; choose from: {choices}.",
                     "de": "{card} ist nicht wählbar; wähle aus: {choices}."},
    "event.state": {"en": "Name a delegation nobody controls: {choices}.",
                    "de": "Nenne eine Delegation, die niemand kontrolliert: {choices}."},
    "event.pick": {"en": "Pick a card from the discard pile: {choices}.",
                   "de": "Wähle eine Karte vom Ablagestapel: {choices}."},
    "event.article": {"en": "Name a resolved article: {choices}.",
                      "de": "Nenne einen abgehandelten Artikel: {choices}."},
    "take.bad_position": {"en": "Draw-pool position {position} does not exist (1 to {size}) or is repeated; ignored.",
                          "de": "Position {position} im Nachziehbereich gibt es nicht (1 bis {size}) oder sie ist doppelt; ignoriert."},
    "take.filled": {"en": "You need {cards} from the draw pool; the missing ones are taken from the lowest free positions.",
                    "de": "Du brauchst {cards} aus dem Nachziehbereich; fehlende werden von den niedrigsten freien Positionen genommen."},
    "reclaim.unknown": {"en": "You have no marker at {where}; if one is needed, the first of: {choices}.",
                        "de": "Du hast keinen Marker bei {where}; falls nötig, wird der erste genommen von: {choices}."},
}
