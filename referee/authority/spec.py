"""The match file a GM writes (YAML), validated before anything is created."""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class PlayerSpec(_Strict):
    id: str
    name: str
    email: str
    lang: Literal["de", "en"] | None = None

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not _ID.match(v):
            raise ValueError("a player id is lower-case letters, digits, '-' or '_'")
        return v

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        if "@" not in v or " " in v.strip():
            raise ValueError("not a mail address")
        return v.strip().lower()


class ObserverSpec(_Strict):
    email: str
    lang: Literal["de", "en"] | None = None


class MatchSpec(_Strict):
    id: str
    game: str
    title: str | None = None
    edition: str | None = None
    options: dict = Field(default_factory=dict)
    players: list[PlayerSpec]
    gm: str                                    # the GM's mail address
    observers: list[ObserverSpec] = Field(default_factory=list)
    language: Literal["de", "en"] = Field("en", alias="lang")
    timezone: str = "UTC"
    schedule: dict = Field(default_factory=dict)
    early_close: bool = True
    start: Literal["auto", "manual"] = "auto"  # manual: deadlines run only after the GM's start

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not _ID.match(v):
            raise ValueError("a match id is lower-case letters, digits, '-' or '_' (at most 63)")
        return v

    @field_validator("observers", mode="before")
    @classmethod
    def _observers(cls, v):
        return [{"email": o} if isinstance(o, str) else o for o in (v or [])]

    @model_validator(mode="after")
    def _unique(self):
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise ValueError("player ids must be unique")
        return self

    def game_options(self) -> dict:
        opts = dict(self.options)
        if self.edition is not None:
            opts.setdefault("edition", self.edition)
        return opts
