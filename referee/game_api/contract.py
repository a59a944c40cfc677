"""The one module games may import: the shape every game plugin takes.

A game is a pure rules object (see ``GameRules``): no I/O, no clock, no global
random.  The referee owns matches, turns, deadlines, mail and storage and talks
to a game only through these types.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from referee.game_api import fastjson
from referee.game_api.contract_plans import PLAN_ASK, PLAN_MESSAGES, PlanChoice, follow_plan, plan_preview  # noqa: F401  (part of the contract: plans of sequential play)
from referee.game_api.contract_problem import FAULT, Problem, did_you_mean  # noqa: F401  (part of the contract)
from referee.game_api.contract_svg import Svg, fit  # noqa: F401  (part of the contract: a game's picture hook)
from referee.game_api.schema_words import invalid_edition  # noqa: F401  (part of the contract: an edition's errors in words)

PlayerId = str
T = TypeVar("T")
Stage = str
GM: PlayerId = "@gm"  # viewer id for the game master's full report
PUBLIC: None = None  # viewer id for observers: public information only




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

    def to_json(self) -> dict[str, Any]:
        vis = None if self.visible_to is None else sorted(self.visible_to)
        return {"kind": self.kind, "data": dict(self.data), "visible_to": vis}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> LogEntry:
        vis = d.get("visible_to")
        return cls(d["kind"], d.get("data") or {}, None if vis is None else frozenset(vis))


@dataclass
class Resolution:
    """What ``resolve`` returns: the next state, what happened, and the
    outcome once the game is over (None while it goes on).  An outcome holds
    at least ``{"winners": [...], "scores": {player: number}}``."""

    state: Any
    log: list[LogEntry]
    outcome: dict[str, Any] | None = None


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

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        self.shuffle(pool)
        return pool[:k]


def derive_seed(match_seed: str, label: str | int) -> int:
    """Seed for one turn (or setup) derived from the match seed."""
    digest = hashlib.sha256(f"{match_seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def canonical_json(data: Any) -> str:
    """``data`` as one canonical JSON text: sorted keys, no blanks, UTF-8 as it is."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


E = TypeVar("E")


def json_copy(x: Any) -> Any:
    """A full copy of JSON-like data (what ``dump`` returns is the caller's own)."""
    if isinstance(x, dict):
        return {k: json_copy(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_copy(v) for v in x]
    return x


class EditionState:
    """A game's state as the referee holds it: ``d``, the JSON-safe data the game
    dumps and hashes, beside ``ed``, the compiled edition it is played with
    (``edition_lookup`` gives it back from the data on ``load``)."""

    __slots__ = ("ed", "d")

    def __init__(self, ed: Any, d: dict[str, Any]) -> None:
        self.ed = ed
        self.d = d


def edition_lookup(compile_edition: Callable[[Any], E], default: E, size: int = 16) -> Callable[[Any], E]:
    """A game's ``edition_for(raw)``: None gives the default edition; a match's
    own edition (carried in its state as plain data) is compiled once by its
    content and the last ``size`` kept, so loading a state does not compile it again."""
    @functools.lru_cache(maxsize=size)
    def compiled(key: str) -> E:
        return compile_edition(json.loads(key))

    def edition_for(raw: Any) -> E:
        return default if raw is None else compiled(canonical_json(raw))
    return edition_for


def state_hash(rules: GameRules, state: Any) -> str:
    return hash_of_dump(rules.dump(state))


def hash_of_dump(dumped: Any) -> str:
    """``state_hash`` of a state whose ``rules.dump`` is ``dumped`` (a close has dumped it already)."""
    return encoded_with_hash(dumped)[1]


def encoded_with_hash(dumped: Any) -> tuple[bytes | None, str]:
    """(the store's row text of ``dumped``, UTF-8; ``hash_of_dump(dumped)``): a close encodes the
    new state once for the store's row (``fastjson.dumps_sorted``, which reads back the same value)."""
    return fastjson.dumps_sorted(dumped).encode(), hashlib.sha256(canonical_json(dumped).encode()).hexdigest()


@runtime_checkable
class GameRules(Protocol):
    """The uniform API every game exposes as ``RULES`` (entry point group
    ``referee.games``).  Everything here is pure and deterministic."""

    # Read-only members: a game may declare them as plain class attributes.
    @property
    def name(self) -> str:
        """The entry-point name, e.g. "founding_fathers"."""

    @property
    def title(self) -> str:
        """The human name, e.g. "Founding Fathers"."""

    @property
    def version(self) -> str:
        """The rules version; a match stays on the version it began with."""

    @property
    def languages(self) -> tuple[str, ...]:
        """Report languages, the game's own first."""

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def messages(self) -> Mapping[str, Mapping[str, str]]:
        """code -> {lang: "text with {params}"}; used to phrase Problems."""

    def check_options(self, players: Sequence[PlayerId], options: Mapping[str, Any]) -> list[Problem]:
        """Problems with a match file's players/options before setup."""

    def setup(self, players: Sequence[PlayerId], options: Mapping[str, Any], rng: Rng) -> Any: ...

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

    def view(self, state: Any, viewer: PlayerId | None) -> dict[str, Any]:
        """``{"public": ..., "private": ...}`` built as an allow-list for one
        viewer: a player id, ``PUBLIC`` (None, observers) or ``GM``."""

    def order_form(self, state: Any, player: PlayerId, lang: str) -> str:
        """A ready-to-fill YAML text for the ``orders:`` mapping, with comments
        listing the legal choices; empty when the player owes nothing."""

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> Any: ...

    # Optional hooks (not part of the protocol check: a game without them simply
    # has no picture or no standings):
    #
    # picture(view, lang) -> str | None
    #     An SVG document of the board drawn from ``view(state, viewer)`` only
    #     (never from the state), in ``lang``; the referee renders it to PNG for
    #     the reports and the match site.  Build it with ``Svg`` below.
    # standings(view) -> {label: {player: number}}
    #     What the game counts as the standings ("score", "influence" ...), read
    #     from the public view; the match site charts them over the turns and the
    #     reports show their change since the last turn.
    # views(state, viewers) -> {viewer: view}
    #     Every viewer's ``view`` of one state at once, equal to ``view(state, v)``
    #     for each (the conformance test checks it).  A game whose views have a part
    #     in common builds it once and hands every viewer the very same object: a
    #     close reads a view once a reader, and never writes to one.
    # order_choices(state, player, lang) -> {path: [{"value": v, "label": text}, ...]}
    #     The player's legal choices in this position, for the clickable order page
    #     (issue 36): ``path`` is a dotted path into the ``orders:`` mapping with ``*``
    #     for any list item ("steps.*.card", "phases.vote.choice"); ``label`` is in
    #     ``lang`` and uses the report's words.  The page takes the structure from the
    #     stage's JSON Schema and offers these values where a path matches; {} when
    #     the player owes nothing.  A value may carry ``when: {field: [values]}`` (offered
    #     only while a field of its record holds one of them); an empty list hides an
    #     optional field; a mapping with chosen keys lists its keys at its own path and
    #     each key's values below it.  docs/ORDER-PAGE.md has the whole of it.
    # random_orders(state, player, rng) -> dict
    #     One legal ``orders:`` mapping drawn at random (scripted players, the demo,
    #     the conformance test, and the bots' candidate moves and play-outs).
    # determinize(state, player, rng) -> state
    #     A state the player cannot tell from ``state``: everything ``view(state,
    #     player)`` shows kept, everything hidden from the player (other hands, the
    #     order of decks, secret agendas, other seats' pending plans) drawn anew from
    #     ``rng``.  The result depends only on that view and ``rng`` (issue 35: a bot
    #     never reads what its seat may not see; it searches over such states).
    # estimate(view) -> {player: number}
    #     Each player's score were the game to end now, as the viewer can know it: how a
    #     bot judges where its look-ahead stops (issue 35); it is handed its own seat's
    #     view, so its own secrets may count (the Ratsspiel's agenda), never another's.
    #     Needed where the standings leave out what counts only at the end (Nations'
    #     tiles, the Ratsspiel's agendas); without it the bots read the first label of
    #     ``standings``.


def redeal(slots: Sequence[Any], cards: Sequence[str], rng: Rng,
           key: Callable[[str], Any] = lambda card: None) -> list[str]:
    """Unseen ``cards`` dealt back into ``slots`` at random, for a game's ``determinize``:
    a slot names the ``key`` its card must have (a card back, a kind) or None for any.
    The result depends only on the slots, the set of cards and ``rng``: the cards are
    sorted first, so where the hidden cards lay before leaves no trace.  Linear in the cards."""
    groups: dict[Any, list[str]] = {}
    for card in sorted(cards):
        groups.setdefault(key(card), []).append(card)
    for group in groups.values():
        rng.shuffle(group)
    out: list[str | None] = [None] * len(slots)
    for i, want in enumerate(slots):
        if want is not None and groups.get(want):
            out[i] = groups[want].pop()
    rest = sorted(c for group in groups.values() for c in group)
    rng.shuffle(rest)
    dealt: list[str] = []
    for placed in out:
        if placed is None and not rest:
            raise ValueError("redeal: more slots than cards")
        dealt.append(rest.pop() if placed is None else placed)
    return dealt


def views_of(rules: GameRules, state: Any, viewers: Sequence[PlayerId | None]) -> dict[PlayerId | None, dict[str, Any]]:
    """Every viewer's view of ``state``: the game's ``views`` if it has one, else ``view`` once a viewer."""
    together = getattr(rules, "views", None)
    if together is None:
        return {v: rules.view(state, v) for v in viewers}
    views: dict[PlayerId | None, dict[str, Any]] = together(state, list(viewers))
    return views


def _in_lang(value: Any, lang: str) -> Any:
    if isinstance(value, Mapping) and ("en" in value or lang in value):
        return value.get(lang) or value.get("en") or next(iter(value.values()), "")
    return value


def phrase(rules: GameRules, problem: Problem, lang: str) -> str:
    """A problem in words, in ``lang`` if the game translated its code."""
    texts = rules.messages.get(problem.code, {})
    template = texts.get(lang) or texts.get("en") or problem.text or problem.code
    # a parameter may itself be worded per language: {"en": ..., "de": ...}
    params = {k: _in_lang(v, lang) for k, v in problem.params.items()}
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
