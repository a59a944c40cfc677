"""The checks every game must pass, shipped with the referee so that a game
written as its own package runs exactly what the built-in games run (as
OpenSpiel's random-play test): random legal play through the contract to the
end, dump/load round trips, ``resolve`` leaving its input alone, the same seed
giving the same state hashes, and no other player's private information in any
player's view or rendered report, and a bot in every seat for a few turns sending
only orders the game accepts.  Failures raise ``AssertionError``.

    from referee.app.conformance import check_game
    check_game(RULES)            # every player count the game allows (up to 5)
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable

from referee.bots import decide
from referee.game_api.contract import GM, GameRules, LogEntry, Rng, derive_seed, state_hash, views_of
from referee.game_api.scripted import random_player
from referee.render.renderer import Renderer

SEATS = ["ada", "bert", "cleo", "dora", "emil"]
REPORT_EVERY = 7  # render every 7th turn's reports (and the last): rendering is the slow part
MAX_TURNS = 3000
BOT_TURNS = 8     # turns a bot plays in every seat (issue 35): enough to reach its every stage once
_RENDERER: Renderer | None = None


def renderer() -> Renderer:
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = Renderer()
    return _RENDERER


def player_counts(rules: GameRules) -> list[int]:
    return list(range(rules.min_players, min(rules.max_players, len(SEATS)) + 1))


def seats(n: int) -> list[str]:
    return SEATS[:n]


def sample_options(rules: GameRules, players: list[str]) -> dict:
    fn = getattr(rules, "sample_options", None)
    return fn(players) if callable(fn) else {}


def play(rules: GameRules, players: list[str], seed: str, on_turn: Callable | None = None,
         options: dict | None = None):
    """Play a match with random legal orders; return (final state, state hashes)."""
    rand = random_player(rules)
    options = sample_options(rules, players) if options is None else options
    state = rules.setup(players, options, Rng(derive_seed(seed, "setup")))
    hashes = [state_hash(rules, state)]
    for turn in range(1, MAX_TURNS + 1):
        awaiting = rules.awaiting(state)
        if not awaiting:
            return state, hashes
        chooser = Rng(derive_seed(seed, f"players:{turn}"))
        orders = {}
        for player, stage in sorted(awaiting.items()):
            raw = rand(state, player, chooser)
            model = rules.order_schema(state, stage).model_validate(raw)
            errors = [p for p in rules.validate(state, player, model) if p.is_error]
            assert not errors, f"turn {turn}: random orders of {player} refused: {errors}"
            orders[player] = model
        before = json.dumps(rules.dump(state), sort_keys=True)
        result = rules.resolve(state, orders, Rng(derive_seed(seed, turn)))
        assert json.dumps(rules.dump(state), sort_keys=True) == before, "resolve mutated its input"
        assert all(isinstance(e, LogEntry) for e in result.log)
        state = result.state
        if on_turn:
            on_turn(state, result)
        hashes.append(state_hash(rules, state))
    raise AssertionError(f"{rules.name}: no end after {MAX_TURNS} turns")


def leaves(obj) -> set[str]:
    """Every string of four or more characters at the leaves of a JSON-like value."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.values())
            stack.extend(k for k in x)
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, str) and len(x) >= 4:
            out.add(x)
    return out


def report_text(rules: GameRules, state, result, viewer, lang: str, turn: int) -> str:
    """A viewer's report as the referee renders it (context as in docs/INTERNALS.md)."""
    awaiting = rules.awaiting(state)
    ctx = {"match": {"id": "conformance", "title": rules.title, "game": rules.name, "lang": lang,
                     "timezone": "UTC"},
           "turn": turn, "viewer": viewer, "view": rules.view(state, viewer),
           "log": [{"kind": e.kind, "data": dict(e.data)} for e in result.log if e.visible_for(viewer)],
           "missing": [], "players": {p: {"name": p.title()} for p in SEATS}, "outcome": result.outcome,
           "order_form": rules.order_form(state, viewer, lang) if viewer in awaiting else "",
           "next": None if not awaiting else
           {"turn": turn + 1, "deadline_local": "Monday", "deadline_utc": "2026-03-02 18:00",
            "awaiting": awaiting}}
    text, html = renderer().game_report(rules.name, rules.languages, lang, ctx)
    return text + (html or "")


def check_reports(rules: GameRules, state, result, players: list[str], turn: int) -> None:
    """No player's report shows what only another player may know."""
    public_leaves = leaves(rules.view(state, None))
    private = {p: leaves(rules.view(state, p).get("private")) - public_leaves for p in players}
    for viewer in players:
        for lang in rules.languages:
            text = report_text(rules, state, result, viewer, lang, turn)
            for other in players:
                if other == viewer:
                    continue
                leaked = {x for x in private[other] - private[viewer]
                          if re.search(rf"(?<!\w){re.escape(x)}(?!\w)", text)
                          and not any(x in own for own in private[viewer])}
                assert not leaked, f"{viewer}'s {lang} report shows {other}'s private {sorted(leaked)[:5]}"


def check_views(rules: GameRules, state, players: list[str]) -> None:
    public = rules.view(state, None)
    json.dumps(public)
    assert not public.get("private"), "observers must get no private part"
    public_leaves = leaves(public)
    views = {p: rules.view(state, p) for p in players}
    secrets = {p: leaves(v.get("private")) - public_leaves for p, v in views.items()}
    for viewer, v in views.items():
        json.dumps(v)
        seen = leaves(v)
        for other in players:
            if other == viewer:
                continue
            leaked = (secrets[other] & seen) - secrets[viewer]
            assert not leaked, f"{viewer} sees {other}'s private {sorted(leaked)[:5]}"
    views.update({None: public, GM: rules.view(state, GM)})
    json.dumps(views[GM])
    # every viewer's views at once are the views one by one (JSON tells 1, 1.0 and True apart)
    together = views_of(rules, state, list(views))
    assert list(together) == list(views), "views() must give every viewer asked for, in order"
    for viewer, v in together.items():
        assert json.dumps(v, sort_keys=True) == json.dumps(views[viewer], sort_keys=True), \
            f"views() gives {viewer!r} another view than view()"


def check_declaration(rules: GameRules) -> None:
    assert isinstance(rules, GameRules), "RULES does not have the GameRules shape (referee.game_api.contract)"
    assert rules.name and rules.version and rules.languages
    assert 1 <= rules.min_players <= rules.max_players


def check_random_play(rules: GameRules, n: int, seed: str | None = None) -> int:
    """Play one random match of ``n`` players to the end, checking every turn; returns the turns."""
    players = seats(n)
    turns = 0

    def each(state, result):
        nonlocal turns
        turns += 1
        assert rules.dump(rules.load(rules.dump(state))) == rules.dump(state), "dump/load changes the state"
        check_views(rules, state, players)
        if turns % REPORT_EVERY == 1 or not rules.awaiting(state):
            check_reports(rules, state, result, players, turns)
        for e in result.log:
            json.dumps(e.to_json())

    state, _ = play(rules, players, seed or f"conformance-{rules.name}-{n}", each)
    assert rules.awaiting(state) == {}
    assert turns > 0
    return turns


def check_same_seed_same_hashes(rules: GameRules) -> None:
    players = seats(rules.min_players if rules.min_players > 1 else 2)
    players = players[:max(rules.min_players, min(len(players), rules.max_players))]
    _, first = play(rules, players, "replay-seed")
    _, second = play(rules, players, "replay-seed")
    assert first == second, "the same seed gave different state hashes"
    _, other = play(rules, players, "another-seed")
    assert other != first, "a different seed should give a different game"


def check_bot_seats(rules: GameRules, n: int, turns: int = BOT_TURNS, seed: str = "bots") -> int:
    """The search bot (``referee.bots.decide``, fast) in every seat for a few turns: each of its
    orders passes ``validate``; returns the bot decisions made."""
    players = seats(n)
    state = rules.setup(players, sample_options(rules, players), Rng(derive_seed(seed, "setup")))
    decisions = 0
    for turn in range(1, turns + 1):
        awaiting = rules.awaiting(state)
        if not awaiting:
            break
        orders = {}
        for player, stage in sorted(awaiting.items()):
            raw = decide(rules, state, player, seed=derive_seed(seed, f"bot:{turn}:{player}"), strength="fast")
            model = rules.order_schema(state, stage).model_validate(raw)
            errors = [p for p in rules.validate(state, player, model) if p.is_error]
            assert not errors, f"turn {turn}: the bot's orders for {player} refused: {errors}"
            orders[player] = model
            decisions += 1
        state = rules.resolve(state, orders, Rng(derive_seed(seed, turn))).state
    assert decisions > 0
    return decisions


def check_game(rules: GameRules) -> None:
    """Everything above for one game, every player count it allows (up to five)."""
    check_declaration(rules)
    for n in player_counts(rules):
        check_random_play(rules, n)
    check_same_seed_same_hashes(rules)
    check_bot_seats(rules, player_counts(rules)[-1])
