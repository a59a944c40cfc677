"""``referee backup DIR`` and ``referee restore DIR``: snapshots of the store and
the archive (``referee/store/backup.py``), taken while the service runs."""
from __future__ import annotations

from pathlib import Path

import click

from referee.app.cli_errors import Fail


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.pass_obj
def backup(env, folder):
    """Write a consistent snapshot of the store and the archive into FOLDER (new or empty)."""
    from referee.store import open_store
    from referee.store.backup import BackupError, snapshot

    store = open_store(env.cfg.store)
    try:
        path = snapshot(store, env.cfg.archive, Path(folder))
    except (BackupError, OSError) as e:
        raise Fail(f"no snapshot written: {e}", "give a new or empty folder with room for the store and archive") from None
    finally:
        store.close()
    click.echo(f"snapshot written to {path}; bring it back with: referee restore {path}")


@click.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--force", is_flag=True, help="replace a store that holds matches and a non-empty archive")
@click.pass_obj
def restore(env, folder, force):
    """Bring back the snapshot in FOLDER (checked first; stop the service before)."""
    from referee.store.backup import BackupError
    from referee.store.backup import restore as restore_snapshot

    try:
        done = restore_snapshot(Path(folder), str(env.cfg.store), env.cfg.archive, force=force)
    except (BackupError, OSError) as e:
        raise Fail(f"nothing restored: {e}", getattr(e, "todo", None)) from None
    click.echo(f"restored the snapshot taken {done['taken']} ({done['files']} archive files)"
               + (f"; the archive before it is kept in {done['old_archive']}" if done["old_archive"] else ""))
