"""The orders a player sends, per stage, and turning plan steps into plain dicts.

``plan``: a list of steps tried in order each time his action comes up::

    steps:
      - buy: {column: 2, row: 1, pay: [r1]}     # or tile: carthage; pay: auto
      - reroll: [w2, w4]                        # or reroll: all
      - build: {pay: auto, trade: auto}
      - pass                                    # accelerated: pass: {food_trade: [[w1, w3]]}
      - ask                                     # stop and ask me

``books`` (original variant, only when there is a real choice): which book dice
to hold back for the famine.  ``famine``: which pairs of dice to trade into food.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, model_serializer, model_validator

ALIASES = {"stein": "stone", "nahrung": "food", "buch": "book", "bücher": "book", "stärke": "strength",
           "staerke": "strength", "wurfwiederholung": "reroll"}


def _id(v):
    """Ids and marker kinds are read case-blind; German marker names are understood."""
    if isinstance(v, str):
        v = v.strip().lower()
        return ALIASES.get(v, v)
    return v


def _word(v):
    """Keywords (auto, none, all, pass, ask, …) in any letter case."""
    return v.strip().lower() if isinstance(v, str) else v


def _steps(v):
    """``steps:`` left empty (every step of the form still commented) is no plan."""
    return [] if v is None else v


Id = Annotated[str, StringConstraints(max_length=16), BeforeValidator(_id)]  # "w3", "o1" or a marker kind
Pairs = list[Annotated[list[Id], Field(max_length=4)]]   # 3 dice still get the clear trade.pair problem


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class BuyStep(_M):
    tile: str | None = Field(None, max_length=40)
    column: int | None = Field(None, ge=1, le=9)
    row: int | None = Field(None, ge=1, le=9)
    pay: Annotated[Union[Literal["auto"], list[Id]], BeforeValidator(_word)] = Field("auto", max_length=24)
    trade: Annotated[Union[Literal["auto", "none"], Pairs], BeforeValidator(_word)] = Field("none", max_length=24)
    replace: int | None = Field(None, ge=1, le=9)        # development slot replaced (R70)
    give_back: list[Id] = Field(default_factory=list, max_length=9)   # dice returned (R66)


class BuildStep(_M):
    pay: Annotated[Union[Literal["auto"], list[Id]], BeforeValidator(_word)] = Field("auto", max_length=24)
    trade: Annotated[Union[Literal["auto", "none"], Pairs], BeforeValidator(_word)] = Field("none", max_length=24)


class PassStep(_M):
    food_trade: Annotated[Union[Literal["auto", "none"], Pairs, None], BeforeValidator(_word)] = Field(None, max_length=24)


class Step(_M):
    buy: BuyStep | None = None
    reroll: Annotated[Union[Literal["all"], list[Id], None], BeforeValidator(_word)] = Field(None, max_length=60)
    build: BuildStep | None = None
    pass_: PassStep | None = Field(None, alias="pass")

    @model_validator(mode="before")
    @classmethod
    def _nulls(cls, v):
        """``- build:`` (YAML null) means build with the defaults."""
        if isinstance(v, dict):
            v = dict(v)
            for k in ("buy", "build", "pass", "pass_"):
                if k in v and v[k] is None:
                    v[k] = {}
            if "reroll" in v and v["reroll"] is None:
                v["reroll"] = "all"
        return v

    @model_serializer(mode="wrap")
    def _only_the_action(self, handler):
        """Dump only the action named, so the referee's dump → validate round trip keeps it."""
        return {("pass" if k == "pass_" else k): v for k, v in handler(self).items() if v is not None}


class PlanOrders(_M):
    steps: Annotated[list[Annotated[Union[Literal["pass", "ask", "build", "reroll"], Step], BeforeValidator(_word)]],
                     BeforeValidator(_steps)] = Field(default_factory=list, max_length=40)


class BooksOrders(_M):
    hold: list[Id] = Field(default_factory=list, max_length=30)    # book dice kept for the famine
    trade: Pairs = Field(default_factory=list, max_length=24)     # always refused (R101)


class FamineOrders(_M):
    trade: Annotated[Union[Literal["auto", "none"], Pairs], BeforeValidator(_word)] = Field("none", max_length=24)


SCHEMAS = {"plan": PlanOrders, "books": BooksOrders, "famine": FamineOrders}
ACTIONS = ("buy", "reroll", "build", "pass_")


def named(step) -> list[str]:
    """The actions a step names (a step must name exactly one)."""
    if isinstance(step, str):
        return [step]
    return [a.rstrip("_") for a in ACTIONS if getattr(step, a) is not None]


def normalise(step) -> dict | str:
    """A parsed step as the plain dict kept in the state ("ask" stays a string)."""
    if isinstance(step, str):
        if step == "ask":
            return "ask"
        if step == "reroll":
            return {"do": "reroll", "dice": "all"}
        if step == "build":
            return {"do": "build", "pay": "auto", "trade": "none"}
        return {"do": "pass", "food_trade": None}
    kind = named(step)[0]
    if kind == "buy":
        return {"do": "buy", **(step.buy or BuyStep()).model_dump()}
    if kind == "reroll":
        return {"do": "reroll", "dice": step.reroll if step.reroll is not None else "all"}
    if kind == "build":
        return {"do": "build", **(step.build or BuildStep()).model_dump()}
    return {"do": "pass", "food_trade": (step.pass_ or PassStep()).food_trade}
