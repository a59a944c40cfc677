"""``referee migrate`` and ``referee store copy``: bringing a store's schema up
to date, and moving a campaign from the embedded SQLite file to PostgreSQL
with a replay of every match from the copy to prove nothing changed."""
from __future__ import annotations

from pathlib import Path

import click

from referee.app.cli_errors import Fail, Usage
from referee.game_api import registry
from referee.game_api.contract import Rng, state_hash
from referee.store import SchemaMismatch, StoreUnavailable, is_postgres, open_store
from referee.store.copy import copy_store, differences
from referee.store.sql import without_password


def _open(location, migrate: bool = False):
    try:
        return open_store(location, migrate=migrate)
    except SchemaMismatch as e:
        raise Fail(str(e), None if migrate else "run `referee migrate` with this store first") from None
    except (StoreUnavailable, ValueError) as e:
        shown = without_password(location) if isinstance(location, str) else location
        raise Fail(f"cannot open the store {shown}: {str(e).replace(str(location), str(shown))[:300]}",
                   "check the address, that the server runs, and the password in "
                   "REFEREE_STORE_PASSWORD or PGPASSWORD") from None


@click.command()
@click.pass_obj
def migrate(env):
    """Bring the configured store's schema up to this referee's version (back it up first)."""
    store = _open(env.cfg.store, migrate=True)
    try:
        from referee.store.migrations import version_of
        if store.migrated:
            click.echo(f"{store.location}: migrated to schema version {version_of(store)} "
                       f"(applied {', '.join(map(str, store.migrated))})")
        else:
            click.echo(f"{store.location}: schema version {version_of(store)}, up to date")
    finally:
        store.close()


@click.group()
def store():
    """Move a store between backends."""


@store.command("copy")
@click.argument("sqlite_file", type=click.Path(exists=True, dir_okay=False))
@click.argument("postgres_url")
def copy(sqlite_file, postgres_url):
    """Copy the campaign in SQLITE_FILE into the empty PostgreSQL database POSTGRES_URL
    (the password from REFEREE_STORE_PASSWORD or PGPASSWORD), then compare every
    row and replay every match from the copy.  Stop the referee first."""
    if not is_postgres(postgres_url):
        raise Usage(f"{postgres_url!r} is no PostgreSQL address", "write it as postgresql://user@host:port/db")
    source = _open(Path(sqlite_file))
    target = _open(postgres_url)
    try:
        try:
            counts = copy_store(source, target)
        except ValueError as e:
            raise Fail(str(e)) from None
        click.echo("copied: " + ", ".join(f"{t} {n}" for t, n in counts.items() if n))
        wrong = differences(source, target)
        if wrong:
            raise Fail("the copy differs from the original: " + "; ".join(wrong))
        bad = 0
        for match in target.matches():
            turns, problems = replay_stored(target, match)
            click.echo(f"{match['id']}: {turns} turns replayed from the copy, "
                       + ("every state hash matches" if not problems else "; ".join(problems)))
            bad += bool(problems)
        if bad:
            raise Fail(f"{bad} match(es) do not replay from the copy")
        click.echo(f"done: point `store:` in referee.yaml at {postgres_url}")
    finally:
        source.close()
        target.close()


def replay_stored(store, match: dict) -> tuple[int, list[str]]:
    """Resolve every resolved turn of ``match`` again from what the store holds (the
    state it opened with, the orders used, its seed) and compare each state hash
    with the recorded one and with the next turn's opening state."""
    try:
        rules = registry.get(match["game"])
    except LookupError as e:
        return 0, [f"game {match['game']} not installed here ({e})"]
    turns = store.turns(match["id"])
    done = 0
    for i, turn in enumerate(turns):
        result = turn["result"]
        if turn["status"] != "resolved" or not result:
            continue
        state = rules.load(turn["state"])
        orders = {pid: rules.order_schema(state, used["stage"]).model_validate(used["orders"])
                  for pid, used in result["orders"].items()}
        got = state_hash(rules, rules.resolve(state, orders, Rng(turn["seed"])).state)
        if got != result["hash"]:
            return done, [f"turn {turn['number']}: the resolved state's hash differs from the recorded one"]
        if i + 1 < len(turns) and state_hash(rules, rules.load(turns[i + 1]["state"])) != got:
            return done, [f"turn {turns[i + 1]['number']} did not open with the state turn {turn['number']} made"]
        done += 1
    return done, []


COMMANDS = (migrate, store)
