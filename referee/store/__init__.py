"""Storage: ``open_store`` picks the backend from a location.  A file path is
SQLite (the embedded default); ``postgresql://user@host:port/db`` is PostgreSQL
(the password from REFEREE_STORE_PASSWORD or PGPASSWORD, never in the address).
Both run the one SQL implementation in ``sql.py``."""
from __future__ import annotations

from pathlib import Path

from referee.store.errors import SchemaMismatch, StoreUnavailable
from referee.store.sql import SqlStore
from referee.store.sqlite import SqliteStore


def is_postgres(location: str | Path) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def open_store(location: str | Path, migrate: bool = False) -> SqlStore:
    """``migrate``: bring an older store up to date (else it is refused, as is a newer one)."""
    if is_postgres(location):
        from referee.store.postgres import PostgresStore  # psycopg only where PostgreSQL is used

        return PostgresStore(str(location), migrate=migrate)
    return SqliteStore(location, migrate=migrate)


def location_of(store) -> str | None:
    """Where a second connection to ``store`` opens the same store (its file or address);
    None where it would see another one (``:memory:``)."""
    location = getattr(store, "location", None) or getattr(store, "path", None)
    if not location or ":memory:" in (location, getattr(store, "path", None)):
        return None
    return str(location)


__all__ = ["SqlStore", "SqliteStore", "SchemaMismatch", "StoreUnavailable", "is_postgres", "location_of", "open_store"]
