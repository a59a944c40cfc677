"""The match file's table-talk options (issue 18)::

    press: private                 # none | public | private | anonymous
    press:                         # or in full
      allow: anonymous
      closed: [vote]               # stages during which no table talk is relayed
      per_day: 20                  # messages a player may send in 24 hours
      max_chars: 2000              # characters of one message

``public``: only messages to everyone; ``private``: to any seats as well;
``anonymous``: a sender may also leave a message unsigned."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee.intake import checks

LEVELS = ("none", "public", "private", "anonymous")
MAX_CHARS = 20_000      # however the match file sets it
MAX_STAGES = 20


class PressSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    allow: Literal["none", "public", "private", "anonymous"] = "none"
    closed: list[str] = Field(default_factory=list, max_length=MAX_STAGES)
    per_day: int = Field(30, ge=1, le=500)
    max_chars: int = Field(2000, ge=50, le=MAX_CHARS)

    @model_validator(mode="before")
    @classmethod
    def _short(cls, v):
        return {"allow": v} if isinstance(v, str) else v

    @field_validator("closed")
    @classmethod
    def _stages(cls, v: list[str]) -> list[str]:
        return [checks.identifier(s, "a stage") for s in v]

    def level(self) -> int:
        return LEVELS.index(self.allow)


def press_options(spec: dict) -> PressSpec:
    """The options of a stored match (its spec as JSON); a match made before they existed has none."""
    return PressSpec.model_validate(spec.get("press") or {})
