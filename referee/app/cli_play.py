"""``referee demo`` (whole scripted matches in a folder of their own) and
``referee rules GAME`` (a game's full rules, as shipped in its package)."""
from __future__ import annotations

import importlib.resources
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
              help="the rules in this language where the game ships them (RULES.<lang>.md)")
def rules(game, lang):
    """Print the full rules of GAME (as shipped with the game)."""
    text = rules_text(_game(game), lang)
    if text is None:
        raise Fail(f"{game} ships no rules file (README.md or RULES.md in its package)",
                   "ask its author; `referee games` lists what is installed")
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def rules_text(rules_obj, lang: str | None = None) -> str | None:
    """The rules file in the game's package: RULES.<lang>.md, RULES.md, then README.md."""
    package = type(rules_obj).__module__.rpartition(".")[0] or type(rules_obj).__module__
    try:
        root = importlib.resources.files(package)
    except (ModuleNotFoundError, TypeError):
        return None
    names = ([f"RULES.{lang}.md"] if lang else []) + ["RULES.md", "README.md"]
    for name in names:
        item = root / name
        if item.is_file():
            return item.read_text(encoding="utf-8")
    return None
