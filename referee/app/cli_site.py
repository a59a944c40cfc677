"""``referee site``, ``referee schema`` and ``referee check`` on the click command
line; the work is done in ``referee/site/commands.py``."""
from __future__ import annotations

from types import SimpleNamespace

import click


def _config_of(ctx):
    return lambda args: ctx.find_root().obj.cfg


@click.command()
@click.argument("match")
@click.option("--out", metavar="FOLDER", help="folder to write (default: site/<match>)")
@click.pass_context
def site(ctx, match, out):
    """Write a browsable folder of HTML pages for one MATCH from its archive."""
    from referee.site.commands import cmd_site
    return cmd_site(SimpleNamespace(match=match, out=out), _config_of(ctx))


@click.command()
@click.argument("game")
@click.argument("stage", required=False)
def schema(game, stage):
    """Print the JSON Schema of a GAME's order documents (for STAGE, or every stage at set-up)."""
    from referee.app.cli_play import _game
    from referee.site.commands import cmd_schema
    _game(game)   # an unknown game: one plain line and exit 2
    return cmd_schema(SimpleNamespace(game=game, stage=stage))


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--lang", type=click.Choice(["en", "de"]), default=None, help="language of the problems (default: the player's)")
@click.pass_context
def check(ctx, file, lang):
    """Check an order FILE offline against its match's current turn."""
    from referee.app.wiring import open_referee
    from referee.site.commands import cmd_check
    return cmd_check(SimpleNamespace(file=file, lang=lang), open_referee(ctx.find_root().obj.cfg))
