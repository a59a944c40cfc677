"""Find game plugins through the ``referee.games`` entry-point group.

The referee never imports a game by name: a third party can ship a game as
its own distribution.  Tests may add rules objects with ``register``.
"""
from __future__ import annotations

import importlib.resources
from functools import cache
from importlib.metadata import entry_points

from referee.game_api.contract import GameRules

GROUP = "referee.games"
_extra: dict[str, GameRules] = {}


class UnknownGame(LookupError):
    pass


def register(rules: GameRules) -> None:
    """Make a rules object available without an entry point (tests, tools)."""
    _check(rules.name, rules)
    _extra[rules.name] = rules


def unregister(name: str) -> None:
    _extra.pop(name, None)


def names() -> list[str]:
    found = {ep.name for ep in entry_points(group=GROUP)}
    return sorted(found | set(_extra))


def get(name: str) -> GameRules:
    if name in _extra:
        return _extra[name]
    return _load(name)


@cache
def _load(name: str) -> GameRules:
    matches = [ep for ep in entry_points(group=GROUP) if ep.name == name]
    if not matches:
        raise UnknownGame(f"no game called {name!r} is installed (installed: {', '.join(names()) or 'none'})")
    rules = matches[0].load()
    _check(name, rules)
    return rules


def _check(name: str, rules: object) -> None:
    if not isinstance(rules, GameRules):
        raise TypeError(f"entry point {name!r} does not provide a GameRules object")
    if rules.name != name:
        raise TypeError(f"game {name!r} calls itself {rules.name!r}")


def player_rules(rules: GameRules, lang: str) -> str | None:
    """The game's rules for players in ``lang``: ``RULES.<lang>.md`` in its package, or None
    (never its README, which is written for developers)."""
    package = type(rules).__module__.rpartition(".")[0] or type(rules).__module__
    try:
        item = importlib.resources.files(package) / f"RULES.{lang}.md"
    except (ModuleNotFoundError, TypeError):
        return None
    return item.read_text(encoding="utf-8") if item.is_file() else None
