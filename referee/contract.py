"""The one module games may import: the shape every game plugin takes.

A game is a pure rules object (see ``GameRules``): no I/O, no clock, no global
random.  The referee owns matches, turns, deadlines, mail and storage and talks
to a game only through these types.
"""
from __future__ import annotations

import hashlib
import json
import math
import random
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Protocol, Sequence, runtime_checkable

from pydantic import BaseModel

PlayerId = str
Stage = str
GM: PlayerId = "@gm"  # viewer id for the game master's full report
PUBLIC: None = None  # viewer id for observers: public information only


@dataclass(frozen=True)
class Problem:
    """Something wrong (error) or doubtful (warning) in an order document.

    ``where`` is a dotted path into the ``orders:`` mapping (``"delegates.1"``)
    so the referee can point at the YAML line; ``code`` + ``params`` let each
    language phrase it (see ``GameRules.messages``); ``text`` is an English
    fallback for codes without a translation.
    """

    code: str
    where: str = ""
    severity: Literal["error", "warning"] = "error"
    params: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


@dataclass(frozen=True)
class LogEntry:
    """Something that happened during resolution, with who may see it.

    ``visible_to``: None = everyone; a frozenset of player ids = those players
    (the GM always sees everything).  ``kind`` picks the template block that
    phrases it; ``data`` must be JSON-safe.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[PlayerId] | None = None

    def visible_for(self, viewer: PlayerId | None) -> bool:
        if viewer == GM or self.visible_to is None:
            return True
        return viewer is not None and viewer in self.visible_to

    def to_json(self) -> dict:
        vis = None if self.visible_to is None else sorted(self.visible_to)
        return {"kind": self.kind, "data": dict(self.data), "visible_to": vis}

    @classmethod
    def from_json(cls, d: Mapping) -> "LogEntry":
        vis = d.get("visible_to")
        return cls(d["kind"], d.get("data") or {}, None if vis is None else frozenset(vis))


@dataclass
class Resolution:
    """What ``resolve`` returns: the next state, what happened, and the
    outcome once the game is over (None while it goes on).  An outcome holds
    at least ``{"winners": [...], "scores": {player: number}}``."""

    state: Any
    log: list[LogEntry]
    outcome: dict | None = None


class Rng:
    """Deterministic randomness built only on ``random.Random.random()``,
    the one method whose sequence Python keeps stable across versions."""

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def random(self) -> float:
        return self._r.random()

    def below(self, n: int) -> int:
        """Uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        return min(int(math.floor(self._r.random() * n)), n - 1)

    def randint(self, a: int, b: int) -> int:
        """Uniform integer in [a, b], both ends included."""
        return a + self.below(b - a + 1)

    def choice(self, seq: Sequence):
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, seq: Sequence, k: int) -> list:
        pool = list(seq)
        self.shuffle(pool)
        return pool[:k]


def derive_seed(match_seed: str, label: str | int) -> int:
    """Seed for one turn (or setup) derived from the match seed."""
    digest = hashlib.sha256(f"{match_seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(rules: "GameRules", state: Any) -> str:
    return hashlib.sha256(canonical_json(rules.dump(state)).encode()).hexdigest()


@runtime_checkable
class GameRules(Protocol):
    """The uniform API every game exposes as ``RULES`` (entry point group
    ``referee.games``).  Everything here is pure and deterministic."""

    name: str  # entry-point name, e.g. "founding_fathers"
    title: str  # human name, e.g. "Founding Fathers"
    version: str  # rules version; a match stays on the version it began with
    languages: tuple[str, ...]  # report languages, first = the game's own
    min_players: int
    max_players: int
    # code -> {lang: "text with {params}"}; used to phrase Problems
    messages: Mapping[str, Mapping[str, str]]

    def check_options(self, players: Sequence[PlayerId], options: Mapping) -> list[Problem]:
        """Problems with a match file's players/options before setup."""

    def setup(self, players: Sequence[PlayerId], options: Mapping, rng: Rng) -> Any: ...

    def awaiting(self, state: Any) -> dict[PlayerId, Stage]:
        """Who owes orders now and of which stage; {} once the game is over."""

    def order_schema(self, state: Any, stage: Stage) -> type[BaseModel]:
        """Pydantic model of the ``orders:`` mapping for this stage."""

    def validate(self, state: Any, player: PlayerId, orders: BaseModel) -> list[Problem]: ...

    def default_orders(self, state: Any, player: PlayerId) -> BaseModel:
        """Orders used when the player sent none (or none valid) by the deadline."""

    def resolve(self, state: Any, orders: Mapping[PlayerId, BaseModel], rng: Rng) -> Resolution:
        """Apply one turn's orders (one per awaited player) and return the
        next state.  Must not mutate ``state``.  NPC choices happen here and
        are logged (visible to the GM) with their reasons."""

    def view(self, state: Any, viewer: PlayerId | None) -> dict:
        """``{"public": ..., "private": ...}`` built as an allow-list for one
        viewer: a player id, ``PUBLIC`` (None, observers) or ``GM``."""

    def order_form(self, state: Any, player: PlayerId, lang: str) -> str:
        """A ready-to-fill YAML text for the ``orders:`` mapping, with comments
        listing the legal choices; empty when the player owes nothing."""

    def dump(self, state: Any) -> dict: ...

    def load(self, data: Mapping) -> Any: ...


def phrase(rules: GameRules, problem: Problem, lang: str) -> str:
    """A problem in words, in ``lang`` if the game translated its code."""
    texts = rules.messages.get(problem.code, {})
    template = texts.get(lang) or texts.get("en") or problem.text or problem.code
    try:
        return template.format(**problem.params)
    except (KeyError, IndexError, ValueError):
        return template
