"""The store's schema versions: a new store is made from ``schema.SCHEMA`` and
stamped with the newest version; an older one is brought up by the migrations
below, in order, each in one transaction (``referee migrate``).  A referee
refuses a store newer than itself (an older worker must not write a newer
layout), and an older one until it is migrated.

Adding to the schema: append the change to SCHEMA (new stores) AND as the next
``Migration`` here (stores that exist), then raise ``schema.SCHEMA_VERSION``;
tests/store/test_migrations.py checks that both roads end in the same tables.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.store.errors import SchemaMismatch
from referee.store.schema import (
    BOT_TABLES,
    CLOSE_TABLES,
    JOIN_TABLES,
    PREF_TABLES,
    SCHEMA,
    SCHEMA_VERSION,
    SEAT_TABLES,
    SENDER_TABLES,
    TALK_TABLES,
)

Step = str | Callable[..., None]   # portable SQL, or a function of the store for what SQL alone cannot say


@dataclass(frozen=True)
class Migration:
    version: int        # the schema version this migration makes
    why: str
    steps: tuple[Step, ...]


def _seq_from_rowid(store) -> None:
    """Schema 1 kept seat order in SQLite's rowid (it existed only on SQLite)."""
    if store.dialect == "sqlite":
        for table in ("players", "player_history", "observers"):
            store._db.execute(f"UPDATE {table} SET seq = rowid")


def _statements(tables: str) -> list[str]:
    return [stmt for stmt in tables.split(";") if stmt.strip()]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(2, "seat order in a column of its own (PostgreSQL has no rowid)", (
        "ALTER TABLE players ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE player_history ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE observers ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",
        _seq_from_rowid,
    )),
    Migration(3, "table talk, the chronicle and letters (issue 18)", tuple(_statements(TALK_TABLES))),
    Migration(4, "seats: missed turns, marks, absences, address changes, joining, wait list (issue 18)",
              tuple(_statements(SEAT_TABLES))),
    Migration(5, "the verdict on each mail's sender, strangers' mail answered or ignored (issue 13)",
              tuple(_statements(SENDER_TABLES))),
    Migration(6, "who writes a closed turn's archive: a worker repairs only what no live worker is writing "
              "(issue 12)", ("ALTER TABLE turns ADD COLUMN archiver TEXT",)),
    Migration(7, "a turn keeps the standings of its state, read when the turn before closed (the next close "
              "reads them, not a fresh public view of the state: issue 8)",
              ("ALTER TABLE turns ADD COLUMN standings TEXT",)),
    Migration(8, "joins wait for a code mailed to the joiner's address before they hold anything (issue 32)",
              tuple(_statements(JOIN_TABLES))),
    Migration(9, "a queue of due turns that close workers claim for a while, so that no two try one close and "
              "a dead worker's claim expires (issues 34 and 38)", tuple(_statements(CLOSE_TABLES))),
    Migration(10, "a seat's own settings: reports without the board picture (issue 38)",
              tuple(_statements(PREF_TABLES))),
    Migration(11, "computer players in seats: which seat a bot plays, how strong, and the turn it last "
              "decided (issue 35)", tuple(_statements(BOT_TABLES))),
    # the next one: Migration(12, "...", ("CREATE TABLE IF NOT EXISTS ...", ...)),
)
LATEST = MIGRATIONS[-1].version
assert LATEST == SCHEMA_VERSION, "schema.SCHEMA_VERSION must name the last migration"


def version_of(store) -> int | None:
    """The store's recorded schema version; None for an empty database."""
    if not store._db.has_table("meta"):
        return None
    row = store._one("SELECT value FROM meta WHERE key='schema_version'")
    return None if row is None else int(row["value"])


def _create(store) -> None:
    for stmt in SCHEMA.split(";"):
        if stmt.strip():
            store._db.execute(store._db.ddl(stmt))
    store._exec("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


def open_checked(store, migrate: bool = False) -> list[int]:
    """Make a new store, or check an existing one's version (``migrate``: bring an
    older one up to date).  Returns the migrations applied."""
    # a made store is opened without the schema lock: a worker stopped while it held the lock (a
    # debugger, SIGSTOP) would otherwise stall every other process that opens the store
    version = version_of(store)
    if version is None:
        with store.transaction():
            store._db.schema_lock()   # two workers starting on one new database: one creates it
            version = version_of(store)
            if version is None:
                _create(store)
                return []
    if version > SCHEMA_VERSION:
        raise SchemaMismatch(f"{store.location}: schema version {version} is newer than this referee's "
                             f"({SCHEMA_VERSION}); refusing to start: upgrade the referee")
    if version < SCHEMA_VERSION and not migrate:
        raise SchemaMismatch(f"{store.location}: schema version {version}, this referee needs {SCHEMA_VERSION}: "
                             "back it up, then run `referee migrate`")
    return migrate_store(store) if migrate else []


def migrate_store(store) -> list[int]:
    """Apply every migration the store lacks, each in one transaction."""
    applied = []
    for m in MIGRATIONS:
        with store.transaction():
            store._db.schema_lock()
            current = version_of(store) or 1
            if m.version <= current:
                continue
            for step in m.steps:
                if isinstance(step, str):
                    store._db.execute(store._db.ddl(step))
                else:
                    step(store)
            store._exec("UPDATE meta SET value=? WHERE key='schema_version'", (str(m.version),))
        applied.append(m.version)
    return applied
