"""The edition: delegates, their events and the articles, as data.

An edition is YAML (the default ships in this package) or a dict a GM passes
in ``options["edition"]``.  It is checked with pydantic when loaded and then
compiled into plain tuples the engine reads quickly.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Literal, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee.game_api.contract import edition_lookup

STATES = ("NH", "MA", "CT", "NY", "NJ", "PA", "DE", "MD", "VA", "NC", "SC", "GA")
FACTIONS = ("large_states", "small_states", "antifederalist", "federalist")
OPPOSED = {"large_states": "small_states", "small_states": "large_states",
           "federalist": "antifederalist", "antifederalist": "federalist"}
PLANNER = "planner"
PLANNER_ORDER = ("madison", "paterson", "sherman", "pinckney", "hamilton")
Faction = Literal["large_states", "small_states", "antifederalist", "federalist"]
CardFaction = Literal["large_states", "small_states", "antifederalist", "federalist", "planner"]


class _Step(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Score(_Step):
    do: Literal["score"]
    points: int = Field(ge=1)


class ScorePer(_Step):
    do: Literal["score_per"]
    what: Literal["own_delegations", "own_delegates", "committee_markers", "debate_tokens", "resolved"]
    faction: Faction | None = None
    points: int = Field(1, ge=1)
    max: int = Field(3, ge=1)


class GainMarker(_Step):
    do: Literal["gain_marker"]
    count: int = Field(1, ge=1)


class CommitteeMarker(_Step):
    do: Literal["committee_marker"]
    count: int = Field(1, ge=1)


class CommitteeRemove(_Step):
    do: Literal["committee_remove"]
    count: int = Field(1, ge=1)


class DebateAdvance(_Step):
    do: Literal["debate_advance"]
    steps: int = Field(1, ge=1)
    faction: Literal["any", "large_states", "small_states", "antifederalist", "federalist"] = "any"


class DeclareVote(_Step):
    do: Literal["declare_vote"]
    with_card: bool = False          # the event card itself votes (stays on the table)
    ignore_bias: Union[bool, Literal["self"]] = False   # True: all cards; "self": the event card only
    protected: bool = False          # the delegation cannot be overridden this round


class DiscardAssembly(_Step):
    do: Literal["discard_assembly"]
    count: int = Field(1, ge=1)
    side: Literal["any", "yea", "nay"] = "any"
    faction: CardFaction | None = None
    rivals_only: bool = False


class StealCard(_Step):
    do: Literal["steal_card"]


class DrawDeck(_Step):
    do: Literal["draw_deck"]
    count: int = Field(1, ge=1)


class PeekDeck(_Step):
    do: Literal["peek_deck"]
    count: int = Field(3, ge=1)


class TakeDiscard(_Step):
    do: Literal["take_discard"]
    faction: CardFaction | None = None


class FlipArticle(_Step):
    do: Literal["flip_article"]
    room: Literal["assembly", "committee", "resolved"]


class SwapArticles(_Step):
    do: Literal["swap_articles"]


class SeizeDelegation(_Step):
    do: Literal["seize_delegation"]


class BlockEvents(_Step):      # persistent
    do: Literal["block_events"]


class BlockCard(_Step):        # persistent
    do: Literal["block_card"]
    card: str


class AssemblyBonus(_Step):    # persistent
    do: Literal["assembly_bonus"]
    points: int = Field(1, ge=1)


class ProtectDelegations(_Step):   # persistent
    do: Literal["protect_delegations"]


Step = Union[Score, ScorePer, GainMarker, CommitteeMarker, CommitteeRemove, DebateAdvance,
             DeclareVote, DiscardAssembly, StealCard, DrawDeck, PeekDeck, TakeDiscard,
             FlipArticle, SwapArticles, SeizeDelegation, BlockEvents, BlockCard,
             AssemblyBonus, ProtectDelegations]
PERSISTENT_ONLY = {"block_events", "block_card", "assembly_bonus", "protect_delegations"}


class Texts(BaseModel):
    model_config = ConfigDict(extra="forbid")
    en: str = Field(min_length=1)
    de: str = Field(min_length=1)


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: Texts
    steps: list[Annotated[Step, Field(discriminator="do")]] = Field(min_length=1)


class Delegate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    state: Literal["NH", "MA", "CT", "NY", "NJ", "PA", "DE", "MD", "VA", "NC", "SC", "GA"]
    faction: CardFaction
    source: str = Field(min_length=1)
    persistent: bool = False
    event: Event

    @model_validator(mode="after")
    def _persistent_steps(self):
        kinds = {s.do for s in self.event.steps}
        if kinds & PERSISTENT_ONLY and not self.persistent:
            raise ValueError(f"{self.id}: {sorted(kinds & PERSISTENT_ONLY)} need persistent: true")
        return self


class Article(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: Texts
    front: Faction            # the historical side
    back: Faction
    source: str = Field(min_length=1)

    @field_validator("back")
    @classmethod
    def _opposed(cls, v, info):
        front = info.data.get("front")
        if front is not None and OPPOSED[front] != v:
            raise ValueError(f"back must be the faction opposed to {front}")
        return v


class EditionModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    title: str
    delegates: list[Delegate]
    articles: list[Article] = Field(min_length=12, max_length=12)

    @model_validator(mode="after")
    def _roster(self):
        ids = [d.id for d in self.delegates]
        if len(set(ids)) != len(ids):
            raise ValueError("delegate ids must be unique")
        if len({a.id for a in self.articles}) != len(self.articles):
            raise ValueError("article ids must be unique")
        by_id = {d.id: d for d in self.delegates}
        for pid in PLANNER_ORDER:
            if pid not in by_id or by_id[pid].faction != PLANNER:
                raise ValueError(f"planner {pid!r} must be a delegate with faction planner")
            if not any(s.do == "gain_marker" for s in by_id[pid].event.steps):
                raise ValueError(f"planner {pid!r}'s event must gain an influence marker")
        for d in self.delegates:
            for s in d.event.steps:
                if s.do == "block_card" and s.card not in by_id:
                    raise ValueError(f"{d.id}: block_card names unknown card {s.card!r}")
        if not all(any(d.state == st for d in self.delegates) for st in STATES):
            raise ValueError("every one of the 12 states needs at least one delegate")
        return self


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    state: str
    faction: str
    persistent: bool
    steps: tuple[dict, ...]
    text: dict
    source: str


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    cards: dict            # id -> Card (in edition order)
    articles: dict         # id -> {"title", "front", "back", "source"}
    raw: dict | None       # the GM's dict (None for the shipped default)

    def side(self, article_id: str, flipped: bool) -> str:
        a = self.articles[article_id]
        return a["back"] if flipped else a["front"]


def compile_edition(data: dict, raw: dict | None) -> Edition:
    model = EditionModel.model_validate(data)
    cards = {d.id: Card(d.id, d.name, d.state, d.faction, d.persistent,
                        tuple(s.model_dump() for s in d.event.steps),
                        d.event.text.model_dump(), d.source) for d in model.delegates}
    arts = {a.id: {"title": a.title.model_dump(), "front": a.front, "back": a.back,
                   "source": a.source} for a in model.articles}
    return Edition(model.name, model.title, cards, arts, raw)


def _load_default() -> Edition:
    text = resources.files(__package__).joinpath("default_edition.yaml").read_text("utf-8")
    return compile_edition(yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)), None)


DEFAULT = _load_default()
# the compiled edition for a state's ``edition`` entry (None = the default)
edition_for = edition_lookup(lambda raw: compile_edition(raw, raw), DEFAULT)
