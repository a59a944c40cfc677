"""``referee demo`` (whole scripted matches in a folder of their own) and
``referee rules GAME`` (a game's rules for players, as shipped in its package)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from referee.app.cli_errors import Fail, Usage
from referee.game_api import registry

DEMO_FOLDER = "referee-demo"   # never ./turns: in a checkout that is the committed sample archive


def _game(name: str):
    if name not in registry.names():
        raise Usage(f"unknown game {name!r}", f"installed: {', '.join(registry.names())} (`referee games`)")
    return registry.get(name)


@click.command()
@click.option("--seed", default="demo", show_default=True, help="match seed (the same seed gives the same matches)")
@click.option("--game", "game_names", multiple=True, metavar="GAME", help="only this game (repeatable)")
@click.option("--out", type=click.Path(file_okay=False), default=DEMO_FOLDER, show_default=True,
              help="folder for the archive (OUT/turns) and the mailboxes (OUT/demo); "
                   "`--out .` in the repository root re-records the sample matches in turns/")
def demo(seed, game_names, out):
    """Play a whole match of every installed game with scripted players."""
    from referee.app.demo import run_demo

    for name in game_names:
        _game(name)
    base = Path(out)
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise Fail(f"cannot make the folder {base} ({e.strerror or e.__class__.__name__})",
                   "give a writable folder with --out") from None
    return run_demo(base, seed=seed, games=list(game_names) or None)


@click.command()
@click.argument("game")
@click.option("--lang", type=click.Choice(["en", "de"]), default=None,
              help="the language of the rules (default: the game's first language)")
def rules(game, lang):
    """Print the rules of GAME for players (as shipped with the game)."""
    rules_obj = _game(game)
    lang = lang or rules_obj.languages[0]
    text = registry.player_rules(rules_obj, lang)
    if text is None:   # never the developers' README: that is not written for players
        raise Fail(f"{game} ships no rules for players in {lang!r} (RULES.{lang}.md in its package)",
                   f"try --lang {' or '.join(rules_obj.languages)}, or ask the game's author")
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
