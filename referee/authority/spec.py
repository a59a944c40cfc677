"""The match file a GM writes (YAML), validated before anything is created."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee import checks


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
        return checks.seat(v)    # "gm" is the game master's

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return checks.header_text(v, "name", checks.MAX_NAME)

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        return checks.email(v)


class ObserverSpec(_Strict):
    email: str
    lang: Literal["de", "en"] | None = None

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        return checks.email(v)


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
    # issue 13: what a sender's proven or failed From means for orders (referee.authority.senders)
    sender_auth: Literal["off", "record", "require"] = "record"

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        return checks.identifier(v, "a match id")

    @field_validator("title")
    @classmethod
    def _title(cls, v: str | None) -> str | None:
        return None if v is None else checks.header_text(v, "title")

    @field_validator("gm")
    @classmethod
    def _gm(cls, v: str) -> str:
        return checks.email(v, "gm")

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
