"""The edition: persons, Zusatzkarten (armies among them) and Ablaufkarten, as data.

YAML (the default ships in this package) or a dict a GM passes in
``options["edition"]``; checked with pydantic on load, then compiled into
frozen records the engine reads.  A Zusatzkarte's effect is one primitive of a
small vocabulary (``do:``) plus its symbols (red, wake, pair), so an edition
describes new cards without code.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Literal, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from referee.game_api.contract import edition_lookup

PARTIES = ("RR", "DL", "L", "R")
FLAGS = ("A", "P", "B")      # Österreich, Preußen, Deutscher Bund
Party = Literal["RR", "DL", "L", "R"]
Flag = Literal["A", "P", "B"]
Side = Literal["own", "other", "any"]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Texts(_M):
    de: str = Field(min_length=1)
    en: str = Field(min_length=1)


class Military(_M):
    flag: Flag
    value: int = Field(ge=1, le=20)


class PersonValue(_M):
    """± to one person on the table (``on:``)."""
    do: Literal["person_value"]
    amount: int = Field(ge=-8, le=8)
    military: int = Field(0, ge=-8, le=8)     # also to a commander's military points
    parties: list[Party] = Field(default_factory=lambda: list(PARTIES))
    side: Side = "any"
    commanders: bool = False                  # may aim at a commander (seed: only Bauernaufstand)
    optional: bool = False                    # may be played without a target

    @model_validator(mode="after")
    def _mil(self):
        if self.military and not self.commanders:
            raise ValueError("military points need commanders: true")
        return self


class PartyValue(_M):
    """± to every person of one party of one player (``player:``, and ``party:`` if not fixed)."""
    do: Literal["party_value"]
    amount: int = Field(ge=-8, le=8)
    party: Party | None = None
    side: Side = "any"


class RemovePerson(_M):
    """A person on the table leaves the game (Lola Montez)."""
    do: Literal["remove_person"]
    commanders: bool = True
    side: Side = "any"


class CommanderValue(_M):
    """+ military points to a commander of the given flags (Kroatien)."""
    do: Literal["commander_value"]
    amount: int = Field(ge=1, le=20)
    flags: list[Flag] = Field(default_factory=lambda: list(FLAGS))


class NoEffect(_M):
    do: Literal["none"]


Effect = Annotated[Union[PersonValue, PartyValue, RemovePerson, CommanderValue, NoEffect],
                   Field(discriminator="do")]


class PersonModel(_M):
    id: str = Field(pattern=r"^PE\d\d$")
    name: str = Field(min_length=1)
    party: Party
    value: int = Field(ge=1, le=8)
    military: Military | None = None
    source: str = Field(min_length=1)


class ZusatzModel(_M):
    id: str = Field(pattern=r"^Z\d\d$")
    name: str = Field(min_length=1)
    text: Texts
    source: str = Field(min_length=1)
    effect: Effect | None = None
    army: Military | None = None
    red: int = Field(0, ge=0, le=20)
    wake: bool = False
    pair: str | None = None

    @model_validator(mode="after")
    def _kind(self):
        if (self.army is None) == (self.effect is None):
            raise ValueError(f"{self.id}: a Zusatzkarte has either an effect or army:")
        return self


class AblaufModel(_M):
    id: str = Field(pattern=r"^A\d\d$")
    name: str = Field(min_length=1)
    source: str = Field(min_length=1)


class EditionModel(_M):
    name: str
    title: str
    persons: list[PersonModel] = Field(min_length=8, max_length=80)
    zusatz: list[ZusatzModel] = Field(min_length=4, max_length=80)
    ablauf: list[AblaufModel] = Field(min_length=6, max_length=40)

    @model_validator(mode="after")
    def _check(self):
        for kind, items in (("person", self.persons), ("zusatz", self.zusatz), ("ablauf", self.ablauf)):
            ids = [x.id for x in items]
            if len(set(ids)) != len(ids):
                raise ValueError(f"{kind} ids must be unique")
        by = {z.id: z for z in self.zusatz}
        for z in self.zusatz:
            if z.pair is not None and (z.pair not in by or by[z.pair].pair != z.id):
                raise ValueError(f"{z.id}: pair {z.pair!r} must name a card that names it back")
        return self


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    party: str
    value: int
    flag: str | None
    mil: int
    source: str


@dataclass(frozen=True)
class Zusatz:
    id: str
    name: str
    text: dict
    source: str
    effect: dict | None
    army_flag: str | None
    army_value: int
    red: int
    wake: bool
    pair: str | None

    @property
    def is_army(self) -> bool:
        return self.army_flag is not None


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    persons: dict          # id -> Person
    zusatz: dict           # id -> Zusatz
    ablauf: dict           # id -> {"name", "source"}
    raw: dict | None       # the GM's dict (None for the shipped default)

    def name_of(self, cid: str) -> str:
        c = self.persons.get(cid) or self.zusatz.get(cid)
        return c.name if c else self.ablauf.get(cid, {}).get("name", cid)


def compile_edition(data: dict, raw: dict | None) -> Edition:
    m = EditionModel.model_validate(data)
    persons = {p.id: Person(p.id, p.name, p.party, p.value, p.military.flag if p.military else None,
                            p.military.value if p.military else 0, p.source) for p in m.persons}
    zusatz = {z.id: Zusatz(z.id, z.name, z.text.model_dump(), z.source,
                           z.effect.model_dump() if z.effect else None,
                           z.army.flag if z.army else None, z.army.value if z.army else 0,
                           z.red, z.wake, z.pair) for z in m.zusatz}
    ablauf = {a.id: {"name": a.name, "source": a.source} for a in m.ablauf}
    return Edition(m.name, m.title, persons, zusatz, ablauf, raw)


def _load_default() -> Edition:
    text = resources.files(__package__).joinpath("default_edition.yaml").read_text("utf-8")
    return compile_edition(yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)), None)


DEFAULT = _load_default()


# the compiled edition for a state's ``edition`` entry (None = the default)
edition_for = edition_lookup(lambda raw: compile_edition(raw, raw), DEFAULT)
