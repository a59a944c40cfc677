"""The campaign a GM supplies: roster, quarters, estates, proposals, offices,
agendas and the number of rounds.  Checked with pydantic when loaded."""
from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

CITY_VALUES: tuple[str, ...] = (
    "zufriedenheit", "truppenstaerke", "ordnung", "stadtkasse",
    "seehandel", "landhandel", "wissenschaft",
)
VALUE_NAMES = {
    "zufriedenheit": {"de": "Zufriedenheit", "en": "Contentment"},
    "truppenstaerke": {"de": "Truppenstärke", "en": "Troop strength"},
    "ordnung": {"de": "Zwölfgöttliche Ordnung", "en": "Twelvegodly order"},
    "stadtkasse": {"de": "Stadtkasse", "en": "City treasury"},
    "seehandel": {"de": "Seehandel", "en": "Sea trade"},
    "landhandel": {"de": "Landhandel", "en": "Land trade"},
    "wissenschaft": {"de": "Wissenschaft", "en": "Learning"},
}
RANK_VOTES = {"reichsvogt": 4, "zwoelferrat": 2, "zwoelferbeirat": 1}
RANK_COUNT = {"reichsvogt": 1, "zwoelferrat": 12, "zwoelferbeirat": 12}

CityValue = Literal["zufriedenheit", "truppenstaerke", "ordnung", "stadtkasse",
                    "seehandel", "landhandel", "wissenschaft"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Text(_Strict):
    de: str
    en: str


class Member(_Strict):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    rank: Literal["reichsvogt", "zwoelferrat", "zwoelferbeirat"]
    viertel: str
    schicht: str
    role: str = ""
    source: str = "house"


class Office(_Strict):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: Text
    value: CityValue
    holder: str | None = None


class Proposal(_Strict):
    nr: int = Field(ge=1)
    title: Text
    kind: Literal["vorschlag", "wahl"] = "vorschlag"
    value: CityValue | None = None      # the city value moved (vorschlag)
    direction: Literal["up", "down"] = "up"   # what a "pro" result does to it
    pro: list[str] = []                 # symbols (quarter/estate ids) on the pro side
    contra: list[str] = []
    office: str | None = None           # wahl: the office elected
    candidates: list[str] = []          # wahl: member ids standing
    source: str = "house"

    @model_validator(mode="after")
    def _shape(self):
        if self.kind == "vorschlag" and self.value is None:
            raise ValueError(f"proposal {self.nr}: a Ratsvorschlag needs a value")
        if self.kind == "wahl" and (not self.office or len(self.candidates) < 2):
            raise ValueError(f"proposal {self.nr}: a Wahlvorschlag needs an office and two candidates")
        return self


class Condition(_Strict):
    value: CityValue
    below: int | None = None            # holds while value < below
    above: int | None = None            # holds while value > above

    @model_validator(mode="after")
    def _one(self):
        if (self.below is None) == (self.above is None):
            raise ValueError("a condition needs exactly one of below/above")
        return self


class Agenda(_Strict):
    id: str
    text: Text
    conditions: list[Condition] = Field(min_length=1)   # all must hold
    bonus: int = Field(ge=1)
    source: str = "house"


class Campaign(_Strict):
    title: str
    sample: bool = False
    note: str = ""
    rounds: int = Field(ge=2, le=60)
    viertel: dict[str, str] = Field(min_length=1)
    schichten: dict[str, str] = Field(min_length=1)
    members: list[Member]
    offices: list[Office] = []
    proposals: list[Proposal]
    opening: list[int] = []             # GM's order of the first selection (else deck order)
    agendas: list[Agenda] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self):
        ids = [m.id for m in self.members]
        if len(set(ids)) != len(ids):
            raise ValueError("member ids must be unique")
        for rank, n in RANK_COUNT.items():
            have = sum(m.rank == rank for m in self.members)
            if have != n:
                raise ValueError(f"the council needs {n} {rank}, found {have}")
        if set(self.viertel) & set(self.schichten):
            raise ValueError("quarter and estate ids must differ")
        for m in self.members:
            if m.viertel not in self.viertel or m.schicht not in self.schichten:
                raise ValueError(f"member {m.id}: unknown quarter or estate")
        symbols = set(self.viertel) | set(self.schichten)
        offices = {o.id for o in self.offices}
        for o in self.offices:
            if o.holder is not None and o.holder not in ids:
                raise ValueError(f"office {o.id}: unknown holder {o.holder}")
        nrs = [p.nr for p in self.proposals]
        if len(set(nrs)) != len(nrs):
            raise ValueError("proposal numbers must be unique")
        for p in self.proposals:
            bad = [s for s in p.pro + p.contra if s not in symbols]
            if bad:
                raise ValueError(f"proposal {p.nr}: unknown symbols {bad}")
            if p.kind == "wahl":
                if p.office not in offices:
                    raise ValueError(f"proposal {p.nr}: unknown office {p.office}")
                if any(c not in ids for c in p.candidates):
                    raise ValueError(f"proposal {p.nr}: unknown candidate")
        elected = {p.office for p in self.proposals if p.kind == "wahl"}
        if offices - elected:
            raise ValueError(f"offices without a Wahlvorschlag: {sorted(offices - elected)}")
        if any(n not in nrs for n in self.opening) or len(set(self.opening)) != len(self.opening):
            raise ValueError("opening lists unknown or repeated proposals")
        if len({a.id for a in self.agendas}) != len(self.agendas):
            raise ValueError("agenda ids must be unique")
        return self


def load_campaign(data: Mapping | None) -> Campaign:
    """The GM's campaign (a mapping) or, without one, the shipped sample."""
    if data is None:
        text = resources.files(__package__).joinpath("sample_campaign.yaml").read_text("utf-8")
        data = yaml.safe_load(text)
    return Campaign.model_validate(data)
