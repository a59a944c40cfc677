"""The ``referee`` command (click; shell completion: ``_REFEREE_COMPLETE=bash_source referee``).

Every ordinary mistake ends in one or two plain lines and exit status 2 (usage)
or 1 (failure); see ``referee/app/cli_errors.py``.  The GM's commands are in
``referee/app/cli_gm.py``, ``referee demo`` and ``referee rules`` in ``referee/app/cli_play.py``.
"""
from __future__ import annotations

import logging
import signal
import threading
from pathlib import Path

import click

from referee.app import config as config_mod
from referee.app.cli_count import count
from referee.app.cli_errors import Fail, Usage, run
from referee.game_api import registry
from referee.store.senders import SenderRecords


class Env:
    """What every command shares: the configuration, read once and only when needed."""

    def __init__(self, config: str | None) -> None:
        self.path = Path(config) if config else None
        self._cfg: config_mod.Config | None = None

    @property
    def cfg(self) -> config_mod.Config:
        if self._cfg is None:
            try:
                self._cfg = config_mod.load(self.path)
            except config_mod.ConfigError as e:
                if e.problems == ["no such file"]:
                    raise Usage(f"configuration file {e.path} not found",
                                "check the --config path, or run `referee init` to write one") from None
                shown = e.problems[:5] + ([f"... and {len(e.problems) - 5} more"] if len(e.problems) > 5 else [])
                raise Fail(f"{e.path}: " + "; ".join(shown), "correct the file; `referee init` in an empty "
                           "folder writes a commented example") from None
        return self._cfg

    def referee(self):
        from referee.app.wiring import open_referee
        return open_referee(self.cfg)

    def queries(self):
        """The read-only views alone, without the referee's mail and close parts: ``status``
        answers in a fraction of the time a whole referee takes to import (issue 34)."""
        from referee.app.wiring import settings_of, store_of
        from referee.authority.base import Lookups, aware
        from referee.authority.queries import Queries

        store = store_of(self.cfg)
        return Queries(store, Lookups(store, settings_of(self.cfg)), None, aware(None))

    def sink(self):
        from referee.app.wiring import open_sink
        return open_sink(self.cfg)

    def service(self):
        from referee.app.service import Service
        from referee.app.wiring import open_referee, open_sink, open_source

        cfg = self.cfg
        return Service(open_referee(cfg), open_source(cfg), open_sink(cfg), address=cfg.address,
                       poll_interval=cfg.poll_interval, reopen_source=lambda: open_source(cfg), close_apart=True,
                       close_workers=cfg.close_workers)


pass_env = click.make_pass_decorator(Env)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--config", metavar="FILE", help="configuration file (default: ./referee.yaml, else the embedded default)")
@click.option("--debug", is_flag=True, help="show the Python trace of an internal error")
@click.pass_context
def cli(ctx, config, debug):
    """A play-by-email referee for board and council games."""
    ctx.obj = Env(config)


@cli.command()
@pass_env
def init(env):
    """Write a commented starter referee.yaml here."""
    from referee.app.wiring import open_sink, open_source

    try:
        path = config_mod.write_starter(Path.cwd())
    except FileExistsError:
        raise Fail(f"{config_mod.DEFAULT_NAME} exists already here; not overwritten",
                   "edit it, or remove it first to start afresh") from None
    cfg = config_mod.load(path)
    open_source(cfg).close()  # creates the Maildir folders, so mail can be dropped in at once
    open_sink(cfg)
    click.echo(f"wrote {path}: SQLite + Maildir in this folder ({cfg.mail_in.maildir} in, "
               f"{cfg.mail_out.maildir} out); edit it to use IMAP and SMTP")


@cli.command()
def games():
    """List the installed games."""
    for name in registry.names():
        rules = registry.get(name)
        click.echo(f"{name:24} {rules.title:32} version {rules.version:8} "
                   f"{rules.min_players}-{rules.max_players} players  languages {', '.join(rules.languages)}")


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@pass_env
def new(env, file):
    """Create a match from a match FILE; every player gets a welcome mail."""
    from referee.authority.matches.edition_file import inline_edition
    from referee.authority.matches.match_file import MatchError, file_lang

    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise Fail(f"{file} cannot be read ({e.__class__.__name__})", "a match file is UTF-8 YAML text") from None
    ref = env.referee()
    try:
        created = ref.create_match(inline_edition(text, Path(file).resolve().parent))
    except MatchError as e:   # said in the file's language, where it names one it can read
        lang = file_lang(text) or "en"
        click.echo(f"referee: {file} " + ("hat Fehler:" if lang == "de" else "has problems:"), err=True)
        for problem in e.lines(lang):
            click.echo(f"  {problem}", err=True)
        return 1
    sent = ref.send_pending(env.sink()).sent
    click.echo(f"created match {created.match}; {count(sent, 'mail')} sent (welcomes, rules, the GM's)")
    click.echo(f"GM key (shown once, keep it): {created.gm_key}")


@cli.command()
@click.option("--once", is_flag=True, hidden=True)   # the old spelling for cron: poll is always one pass
@pass_env
def poll(env, once):
    """Read the mailbox until it is empty, answer, and exit (for cron)."""
    service = env.service()
    try:
        report = service.poll_once()
    finally:
        service.source.close()
    click.echo(f"{count(report.mails, 'mail')} read{_outcomes(report.outcomes)}; {count(report.sent, 'mail')} sent")


def _outcomes(outcomes: dict | None) -> str:
    """``{'processed': 2, 'refused': 1}`` as a GM reads it: `` (2 processed, 1 refused)``."""
    parts = [f"{n} {name}" for name, n in sorted((outcomes or {}).items()) if n]
    return f" ({', '.join(parts)})" if parts else ""


@cli.command()
@pass_env
def tick(env):
    """Close due turns, send reminders and the outbox (for cron)."""
    report = env.service().tick(workers=True)   # a league due at once: closed and sent on every core
    closed = ", ".join(f"{m} turn {t}" for m, t in report.closed) or "nothing"
    click.echo(f"closed: {closed}; {count(report.sent, 'mail')} sent")


@cli.command("run")
@pass_env
def run_service(env):
    """Run the service (mail, deadlines, outbox) until SIGTERM or Ctrl-C."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    service = env.service()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    logging.getLogger("referee").info("referee running; stop with SIGTERM or Ctrl-C")
    service.run(stop)
    logging.getLogger("referee").info("stopped cleanly")


@cli.command()
@pass_env
def status(env):
    """Matches, turns, deadlines, who is awaited."""
    ref = env.queries()
    rows = ref.overview()
    if not rows:
        click.echo(f"no matches in {env.cfg.store}")
    for row in rows:
        line = f"{row['id']:20} {row['game']:22} {row['status']:8}"
        if row["turn"] is not None:
            line += f" turn {row['turn']}"
            if row["deadline"]:
                line += f", deadline {row['deadline']} ({row['deadline_utc']:%Y-%m-%d %H:%M} UTC)"
            if row["status"] != "ended":
                line += f", awaiting: {', '.join(row['awaiting']) or 'nobody'}"
        if row["faults"]:
            line += "; FLAGGED: " + ", ".join(f"{f['stage']} {f['item']} ({f['count']}x)" for f in row["faults"])
        click.echo(line)
    aside = ref.set_aside()
    if aside["faults"] or aside["outbox_failed"]:
        parts = [f"{n} {stage}" for stage, n in sorted(aside["faults"].items())]
        parts.append(f"{aside['outbox_failed']} outbox mails failed")
        click.echo("set aside after errors: " + ", ".join(parts) + " (see the log)")
    strangers = SenderRecords(ref.store).stranger_counts()   # issue 13: no backscatter
    if strangers["ignored"] or strangers["answered"]:
        click.echo(f"mail from strangers: {strangers['ignored']} filed as ignored, {strangers['answered']} answered")


@cli.command()
@click.argument("match")
@pass_env
def replay(env, match):
    """Rebuild MATCH (an id in the archive, or a match folder) and check every state hash."""
    from referee.archive.record import replay as replay_archive

    folder = Path(match)
    if not (folder / "match.yaml").is_file():
        folder = env.cfg.archive / match
    if not (folder / "match.yaml").is_file():
        raise Fail(f"no archived match {match!r} (looked in {Path(match)} and {env.cfg.archive / match})",
                   "give a match id from `referee status` or the path of a folder holding match.yaml")
    try:
        report = replay_archive(folder)
    except (OSError, ValueError, KeyError, TypeError, LookupError) as e:
        raise Fail(f"the archive in {folder} cannot be replayed: {e.__class__.__name__}: {str(e)[:160]}",
                   "is it a match folder written by the referee, for a game installed here (`referee games`)?") from None
    click.echo(report.summary())
    return 0 if report.ok else 1


def _register() -> None:
    from referee.app.cli_arena import arena
    from referee.app.cli_backup import backup, restore
    from referee.app.cli_doctor import doctor
    from referee.app.cli_gm import gm
    from referee.app.cli_play import demo, rules
    from referee.app.cli_site import check, schema, site
    from referee.app.cli_store import COMMANDS as store_commands  # migrate, store copy

    for command in (gm, demo, rules, arena, site, schema, check, backup, restore, doctor, *store_commands):
        cli.add_command(command)


_register()


def main(argv: list[str] | None = None) -> int:
    return run(cli, argv)


if __name__ == "__main__":
    raise SystemExit(main())
