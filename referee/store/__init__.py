"""Storage adapters.  ``open_store`` picks one from a location; SQLite is the default."""
from __future__ import annotations

from pathlib import Path

from referee.store.sqlite import SchemaMismatch, SqliteStore


def open_store(location: str | Path) -> SqliteStore:
    return SqliteStore(location)


__all__ = ["SqliteStore", "SchemaMismatch", "open_store"]
