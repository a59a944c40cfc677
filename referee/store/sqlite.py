"""The store on SQLite (the embedded default): one file, WAL, every write
transaction ``BEGIN IMMEDIATE``, which holds the whole file, so workers on
one machine sharing it are serialised and the store's claims only check."""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from referee.store.errors import SchemaMismatch
from referee.store.nul import args_without_nul
from referee.store.sql import SqlStore


class SqliteBackend:
    dialect = "sqlite"
    for_update = ""      # a write transaction already holds the file
    skip_locked = ""

    def __init__(self, path: str | Path) -> None:
        self.path = self.location = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            # owner-only: it holds key hashes and, until sent, welcome mails with keys
            # (SQLite gives its -wal and -shm files the database file's mode)
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.execute("PRAGMA secure_delete=ON")  # scrubbed keys must not linger in free pages
        run = self._conn.execute

        def execute(sql: str, args=()):   # the statements run as written; a NUL in text as on PostgreSQL (nul.py)
            return run(sql, args_without_nul(args) if args else args)
        self.execute = execute
        self._lock = threading.RLock()
        self._depth = 0
        self._owner: int | None = None   # the thread whose transaction is open

    def share_lock(self, lock) -> None:
        """Take write transactions under ``lock`` (re-entrant, context manager) instead of this
        connection's own: close workers share one lock with the parent's mail thread."""
        self._lock = lock

    def in_transaction(self) -> bool:
        """Whether this thread is inside one of this connection's write transactions."""
        return self._depth > 0 and self._owner == threading.get_ident()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth, self._owner = 1, threading.get_ident()
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._depth, self._owner = 0, None

    def try_lock(self, name: str) -> bool:
        """The write transaction holds the file already."""
        return True

    def ddl(self, stmt: str) -> str:
        return stmt

    def schema_lock(self) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the file."""

    def has_table(self, name: str) -> bool:
        return self._conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() \
            is not None

    def columns(self, table: str) -> list[str]:
        return [r["name"] for r in self._conn.execute(f"PRAGMA table_info({table})")]

    def tables(self) -> list[str]:
        return [r[0] for r in self._conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database file and empty it."""
        self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def end_sessions(self, pids: list[int]) -> None:
        """A process that died let its file locks go with it."""

    def close(self) -> None:
        self._conn.close()


class SqliteStore(SqlStore):
    """The store in one SQLite file (``migrate``: bring an older file up to date)."""

    def __init__(self, path: str | Path, migrate: bool = False) -> None:
        super().__init__(SqliteBackend(path), migrate=migrate)

    @property
    def path(self) -> str:
        return self._db.path

    def share_writes(self, other: SqliteStore) -> None:
        """Take write transactions under ``other``'s lock (two connections of one process, such as
        the service's closing thread and its mail loop): a waiting writer is woken when the other
        lets go, where SQLite's busy handler would poll."""
        self.writes_under(other._db._lock)

    def writes_under(self, lock) -> None:
        """Take write transactions under ``lock`` (re-entrant, a context manager: a
        ``multiprocessing`` RLock the close worker processes share): a waiting worker is woken as
        soon as another lets go, where SQLite's busy handler sleeps longer each time it finds the
        file taken (back-to-back closes of one worker starved the other)."""
        self._db.share_lock(lock)

    @property
    def connection(self) -> sqlite3.Connection:
        """The sqlite3 connection itself, for what only SQLite has (``backup``, ``iterdump``)."""
        return self._db._conn


__all__ = ["SqliteStore", "SqliteBackend", "SchemaMismatch"]
