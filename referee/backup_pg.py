"""The PostgreSQL half of ``referee.backup``: ``pg_dump`` in custom format and ``pg_restore``.

Written against the client programs only (``pg_dump``, ``pg_restore``, ``psql``
on PATH or in ``/usr/lib/postgresql/*/bin``); the store passes its connection
string as ``store.dsn`` (the PostgreSQL store of issue 12 sets
``backup_backend = "postgresql"``).  NOT YET EXERCISED BY A TEST: the
PostgreSQL fixture lives on the ``pg`` branch; see the note in the ops report.
A ``pg_dump`` runs in one repeatable-read transaction: one consistent moment.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
from datetime import datetime
from pathlib import Path


def _program(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        raise RuntimeError(f"{name} not found: install the PostgreSQL client programs")
    return found


def _run(*args: str, timeout: float = 3600) -> str:
    done = subprocess.run(list(args), stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    if done.returncode:
        raise RuntimeError(f"{Path(args[0]).name} failed: {done.stderr.decode(errors='replace')[-600:]}")
    return done.stdout.decode(errors="replace")


def _query(dsn: str, sql: str) -> list[list[str]]:
    out = _run(_program("psql"), "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", dsn, "-c", sql)
    return [line.split("\t") for line in out.splitlines() if line]


class PostgresBackend:
    name, file = "postgresql", "store.pgdump"

    def dump(self, store, folder: Path) -> Path:
        target = folder / self.file
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        _run(_program("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", "-f", str(target), "-d", store.dsn)
        return target

    def archived(self, dumped: Path) -> set[tuple[str, int]]:
        """The turns the dump holds as archived, read from its table data (no server needed)."""
        text = _run(_program("pg_restore"), "--data-only", "--table=turns", "-f", "-", str(dumped))
        found, columns, inside = set(), [], False
        for line in text.splitlines():
            if line.startswith("COPY ") and " turns " in f" {line.split('(')[0]} ".replace(".", " "):
                columns = [c.strip().strip('"') for c in line[line.index("(") + 1:line.index(")")].split(",")]
                inside = True
                continue
            if inside:
                if line == "\\.":
                    break
                row = dict(zip(columns, line.split("\t")))
                if row.get("archived") in ("1", "t", "true"):
                    found.add((row["match"], int(row["number"])))
        return found

    def check(self, dumped: Path) -> list[str]:
        try:
            listing = _run(_program("pg_restore"), "--list", str(dumped))
        except RuntimeError as e:
            return [f"{dumped.name}: not a readable pg_dump archive ({e})"]
        return [] if " TABLE " in listing and "turns" in listing else [f"{dumped.name}: holds no referee tables"]

    def in_use(self, dsn: str) -> bool:
        rows = _query(dsn, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND pid <> pg_backend_pid() AND state <> 'idle'")
        return int(rows[0][0]) > 0

    def holds_matches(self, dsn: str) -> bool:
        try:
            return int(_query(dsn, "SELECT count(*) FROM matches")[0][0]) > 0
        except RuntimeError:   # no tables yet
            return False

    def last_tick(self, dsn: str) -> datetime | None:
        try:
            rows = _query(dsn, "SELECT value FROM meta WHERE key = 'last_tick'")
        except RuntimeError:
            return None
        return datetime.fromisoformat(rows[0][0]) if rows else None

    def load(self, dumped: Path, dsn: str) -> None:
        _run(_program("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges",
             "--single-transaction", "-d", dsn, str(dumped))
