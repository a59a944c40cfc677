"""The match file a GM writes (YAML), validated before anything is created."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee.authority.matches.talk_spec import PressSpec
from referee.bots import DEFAULT, STRENGTHS
from referee.intake import checks

MAX_SEATS = 50   # issue 18: seats of an open match


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class BotProblem(ValueError):
    """A bot option the match file got wrong: ``code`` names its words in en + de (bot_words.SPEC_TEXTS)."""

    def __init__(self, code: str) -> None:
        super().__init__(f"[{code}]")
        self.code = code


def bot_strength(value, code: str = "bot.value") -> str | None:
    """``bot:`` (or ``dropouts.to_bot:``) as the match file may give it: true (the default
    strength), false / absent (none), a strength's name, or ``{strength: NAME}``.
    Anything else (a number, a long text, other keys) is refused, never guessed."""
    if value is None or value is False:
        return None
    if value is True:
        return DEFAULT
    if isinstance(value, dict) and set(value) <= {"strength"}:
        value = value.get("strength", DEFAULT)
    if isinstance(value, str) and value in STRENGTHS:
        return value
    raise BotProblem(code)


class PlayerSpec(_Strict):
    id: str
    name: str
    email: str | None = None                   # none for a bot seat (issue 35): it is never mailed
    lang: Literal["de", "en"] | None = None
    bot: str | None = None                     # issue 35: the strength of the bot playing the seat

    @field_validator("bot", mode="before")
    @classmethod
    def _bot(cls, v):
        return bot_strength(v)

    @model_validator(mode="after")
    def _mail_or_bot(self):
        if self.bot is not None and self.email is not None:
            raise BotProblem("bot.email")
        if self.bot is None and self.email is None:
            raise BotProblem("bot.no_email")
        return self

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
    def _email(cls, v: str | None) -> str | None:
        return None if v is None else checks.email(v)


class ObserverSpec(_Strict):
    email: str
    lang: Literal["de", "en"] | None = None

    @field_validator("email")
    @classmethod
    def _email(cls, v: str) -> str:
        return checks.email(v)


# -- issue 18, seats (life-seats): dropouts and absence ------------------------
class DropoutSpec(_Strict):
    """After ``warn_after`` missed turns in a row the player is warned; after
    ``abandon_after`` the seat is marked abandoned and offered to the GM."""
    warn_after: int = Field(2, ge=1, le=50)
    abandon_after: int = Field(3, ge=1, le=50)
    # issue 35: an abandoned seat goes to a bot of this strength (true: the default) until the GM replaces it
    to_bot: str | None = None

    @field_validator("to_bot", mode="before")
    @classmethod
    def _to_bot(cls, v):
        return bot_strength(v, "bot.dropouts")

    @model_validator(mode="after")
    def _order(self):
        if self.warn_after >= self.abandon_after:
            raise ValueError("warn_after must be smaller than abandon_after")
        return self


class AbsenceSpec(_Strict):
    """``command: absent``: what happens to deadlines in an absence, how long one
    may be and how many a player may declare in a match."""
    policy: Literal["extend", "defaults"] = "defaults"
    max_days: int = Field(14, ge=1, le=60)
    max_times: int = Field(2, ge=1, le=20)


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
    # -- #18 table talk (referee/authority/matches/talk_spec.py): what press is relayed, when, how much
    press: PressSpec = Field(default_factory=PressSpec)
    # -- hardening (issue 13, ops): see OutageSpec and CloseGuardSpec below
    outage: OutageSpec = Field(default_factory=lambda: OutageSpec())
    close_guard: CloseGuardSpec = Field(default_factory=lambda: CloseGuardSpec())
    # -- issue 18, seats (life-seats) --
    dropouts: DropoutSpec | None = None        # none: a missing player is defaulted, never offered
    absence: AbsenceSpec | None = None         # none: "command: absent" is refused

    seats: int | list[str] | None = None        # an open match: seats beyond players: filled by "command: join"
    wait_list: int = Field(10, ge=0, le=50)    # joiners kept once every seat is taken

    @field_validator("absence", mode="before")
    @classmethod
    def _absence_word(cls, v):
        return {"policy": v} if isinstance(v, str) else v

    @field_validator("seats")
    @classmethod
    def _seats(cls, v):
        if isinstance(v, int) and not 1 <= v <= MAX_SEATS:
            raise ValueError(f"a number of seats from 1 to {MAX_SEATS}")
        if isinstance(v, list):
            if not 1 <= len(v) <= MAX_SEATS:
                raise ValueError(f"from 1 to {MAX_SEATS} seat ids")
            v = [checks.seat(s, "seats") for s in v]
            if len(set(v)) != len(v):
                raise ValueError("each seat id only once")
        return v

    @model_validator(mode="after")
    def _seats_hold_the_players(self):
        if isinstance(self.seats, int) and self.seats < len(self.players):
            raise ValueError(f"seats: {self.seats}, but {len(self.players)} players are named already")
        if isinstance(self.seats, list):
            outside = [p.id for p in self.players if p.id not in self.seats]
            if outside:
                raise ValueError(f"seats: the players {', '.join(outside)} have no seat in the list")
        return self

    def free_seats(self) -> list[str]:
        """Seat ids still to fill by joining (named, or numbered: seat1, seat2 ...)."""
        taken = {p.id for p in self.players}
        if isinstance(self.seats, list):
            return [s for s in self.seats if s not in taken]
        if isinstance(self.seats, int):
            numbered = (f"seat{i}" for i in range(1, MAX_SEATS * 2 + 1) if f"seat{i}" not in taken)
            return [next(numbered) for _ in range(self.seats - len(self.players))]
        return []
    # issue 13: what a sender's proven or failed From means for orders (referee.authority.gate.senders)
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


# -- hardening (issue 13, ops): outages and the close guard -------------------
class OutageSpec(_Strict):
    """``outage:`` a deadline the referee (or its mailbox) was down across is moved, not closed."""
    extend: bool = True
    after: str = "15m"     # a gap shorter than this (and than the grace) is no outage

    @field_validator("after")
    @classmethod
    def _after(cls, v: str) -> str:
        from datetime import timedelta

        from referee.authority.schedule import parse_duration
        try:
            amount = parse_duration(str(v)[:40])
        except (ValueError, TypeError, OverflowError):
            raise ValueError("outage.after is a duration such as 15m or 2h") from None
        if not timedelta(minutes=1) <= amount <= timedelta(days=7):
            raise ValueError("outage.after lies between 1m and 7d")
        return str(v)[:40]


class CloseGuardSpec(_Strict):
    """``close_guard:`` hold a close with many more players missing than usual and ask the GM."""
    hold: bool = True
    missing_share: float = Field(0.5, ge=0.0, le=1.0)   # hold when more than this share of the awaited is missing
    usual_missing: int = Field(0, ge=0, le=1000)        # ... and the last turn had at most this many missing


def outage_of(spec: dict) -> OutageSpec:
    """The ``outage:`` options of a stored spec (matches made before them: the defaults)."""
    return OutageSpec.model_validate(spec.get("outage") or {})


def close_guard_of(spec: dict) -> CloseGuardSpec:
    return CloseGuardSpec.model_validate(spec.get("close_guard") or {})
MatchSpec.model_rebuild()
