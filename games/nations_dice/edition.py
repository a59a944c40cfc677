"""The edition: dice faces, markers, the 60 progress tiles and 12 events, as data.

An edition is YAML (the default ships in this package) or a dict a GM passes in
``options["edition"]``.  It is checked with pydantic on load and compiled into
plain dicts and tuples the engine reads quickly.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from referee.game_api.contract import edition_lookup

SYMBOLS = ("gold", "stone", "book", "food", "strength")
MARKER_KINDS = ("reroll",) + SYMBOLS
COLOURS = ("white", "blue", "orange", "red")
TYPES = ("building", "military", "advisor", "colony", "wonder")
Symbol = Literal["gold", "stone", "book", "food", "strength"]
Colour = Literal["white", "blue", "orange", "red"]
MarkerKind = Literal["reroll", "gold", "stone", "book", "food", "strength"]
AGES = 4
TILES_PER_AGE = 15
EVENTS_PER_AGE = 3


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Texts(_M):
    en: str = Field(min_length=1, max_length=80)
    de: str = Field(min_length=1, max_length=80)


class Die(_M):
    count: int = Field(ge=1, le=40)
    source: str = Field(min_length=1)
    faces: list[dict[Symbol, int]] = Field(min_length=6, max_length=6)

    @model_validator(mode="after")
    def _positive(self):
        for f in self.faces:
            if any(n < 1 or n > 6 for n in f.values()):
                raise ValueError("a face shows 1 to 6 of each symbol")
        return self


class Markers(_M):
    source: str = Field(min_length=1)
    counts: dict[MarkerKind, int]


class Start(_M):
    source: str = Field(min_length=1)
    developments: int = Field(5, ge=1, le=8)
    development_dice: dict[Colour, int]
    markers: dict[MarkerKind, int]


class Tile(_M):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,30}$")
    age: int = Field(ge=1, le=AGES)
    type: Literal["building", "military", "advisor", "colony", "wonder"]
    name: Texts
    vp: int = Field(ge=0, le=20)
    dice: dict[Colour, int] = Field(default_factory=dict)      # developments (a house wonder may too)
    markers: dict[MarkerKind, int] = Field(default_factory=dict)  # colonies, built wonders
    rerolls: int = Field(0, ge=0, le=4)                         # advisors
    stone: int = Field(0, ge=0, le=20)                          # wonders: build cost
    source: str = Field(min_length=1)

    @model_validator(mode="after")
    def _shape(self):
        dev = self.type in ("building", "military")
        if dev and not self.dice:
            raise ValueError(f"{self.id}: a development shows dice")
        if self.type not in ("building", "military", "wonder") and self.dice:
            raise ValueError(f"{self.id}: only developments (and house wonders) give dice")
        if self.type == "advisor" and (self.rerolls < 1 or self.markers):
            raise ValueError(f"{self.id}: an advisor shows reroll markers (rerolls: n) and nothing else")
        if self.type != "advisor" and self.rerolls:
            raise ValueError(f"{self.id}: only advisors show reroll markers")
        if (self.type == "wonder") != (self.stone > 0):
            raise ValueError(f"{self.id}: a wonder (and only a wonder) has a stone cost")
        if any(n < 1 for n in list(self.dice.values()) + list(self.markers.values())):
            raise ValueError(f"{self.id}: counts are at least 1")
        return self


class Event(_M):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,30}$")
    age: int = Field(ge=1, le=AGES)
    name: Texts
    food: int = Field(ge=0, le=30)
    strength: int = Field(ge=0, le=30)
    source: str = Field(min_length=1)


class EditionModel(_M):
    name: str
    title: str
    dice: dict[Colour, Die]
    markers: Markers
    start: Start
    tiles: list[Tile]
    events: list[Event]

    @model_validator(mode="after")
    def _counts(self):
        if set(self.dice) != set(COLOURS):
            raise ValueError("dice: give the faces of white, blue, orange and red")
        ids = [t.id for t in self.tiles] + [e.id for e in self.events]
        if len(set(ids)) != len(ids):
            raise ValueError("tile and event ids must be unique")
        for age in range(1, AGES + 1):
            if sum(t.age == age for t in self.tiles) != TILES_PER_AGE:
                raise ValueError(f"age {age} needs exactly {TILES_PER_AGE} progress tiles")
            if sum(e.age == age for e in self.events) != EVENTS_PER_AGE:
                raise ValueError(f"age {age} needs exactly {EVENTS_PER_AGE} events")
        white = self.start.development_dice
        for colour, n in white.items():
            if n * self.start.developments * 4 > self.dice[colour].count:
                raise ValueError(f"the supply of {colour} dice cannot equip 4 players' start")
        return self


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    faces: dict            # colour -> tuple of 6 faces, each a dict symbol -> n
    dice_count: dict       # colour -> dice in the box
    marker_count: dict     # kind -> markers in the box
    start_devs: int
    start_dev_dice: dict   # colour -> n (each printed starting development)
    start_markers: dict
    tiles: dict            # id -> dict (type, age, vp, dice, markers, rerolls, stone, name, source)
    events: dict           # id -> dict (age, food, strength, name, source)
    raw: dict | None
    names: dict            # tile or event id -> {"en", "de"} (for the reports)

    def ages(self, what: str, age: int) -> list[str]:
        table = self.tiles if what == "tiles" else self.events
        return [i for i, t in table.items() if t["age"] == age]


def compile_edition(data: dict, raw: dict | None) -> Edition:
    m = EditionModel.model_validate(data)
    faces = {c: tuple(dict(sorted(f.items())) for f in d.faces) for c, d in m.dice.items()}
    tiles = {t.id: {"type": t.type, "age": t.age, "vp": t.vp, "dice": dict(t.dice),
                    "markers": dict(t.markers), "rerolls": t.rerolls, "stone": t.stone,
                    "name": t.name.model_dump(), "source": t.source} for t in m.tiles}
    events = {e.id: {"age": e.age, "food": e.food, "strength": e.strength,
                     "name": e.name.model_dump(), "source": e.source} for e in m.events}
    counts = {k: m.markers.counts.get(k, 0) for k in MARKER_KINDS}
    names = {i: dict(x["name"]) for i, x in [*tiles.items(), *events.items()]}
    return Edition(m.name, m.title, faces, {c: d.count for c, d in m.dice.items()}, counts,
                   m.start.developments, dict(m.start.development_dice), dict(m.start.markers),
                   tiles, events, raw, names)


def _load_default() -> Edition:
    text = resources.files(__package__).joinpath("default_edition.yaml").read_text("utf-8")
    return compile_edition(yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)), None)


DEFAULT = _load_default()
# the compiled edition for a state's ``edition`` entry (None = the default)
edition_for = edition_lookup(lambda raw: compile_edition(raw, raw), DEFAULT)


def cost_currency(tile: dict) -> str:
    """Colonies are paid in strength, every other tile in gold (R56)."""
    return "strength" if tile["type"] == "colony" else "gold"
