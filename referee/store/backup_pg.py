"""The PostgreSQL half of ``referee.store.backup``: ``pg_dump`` in custom format and ``pg_restore``.

Written against the client programs only (``pg_dump``, ``pg_restore``, ``psql``
on PATH or in ``/usr/lib/postgresql/*/bin``); the store passes its address as
``store.dsn`` (no password: that comes from ``REFEREE_STORE_PASSWORD``, as for
the store itself, else libpq's ``PGPASSWORD`` or ``~/.pgpass``).

The store lives in one schema (``current_schema()`` of its address: ``public``,
or the one its ``options=-csearch_path=...`` names); only that schema is dumped,
and a restore replaces the target address's schema with it in one transaction,
renamed when the two differ.  A ``pg_dump`` runs in one repeatable-read
transaction: one consistent moment.
"""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
from datetime import datetime
from pathlib import Path

ASIDE = "referee_restore_aside"
PLAIN = re.compile(r"[a-z_][a-z0-9_]{0,62}")   # a schema name a restore goes on with: no quoting games   # a schema of the dump's name kept out of the way while restoring


def _program(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        raise RuntimeError(f"{name} not found: install the PostgreSQL client programs")
    return found


def _env() -> dict[str, str]:
    """The environment for the client programs: the store's password as libpq's."""
    from referee.store.postgres import PASSWORD_ENV  # psycopg only where PostgreSQL is used

    env = dict(os.environ)
    if os.environ.get(PASSWORD_ENV):   # the store prefers it to PGPASSWORD: so does its backup
        env["PGPASSWORD"] = os.environ[PASSWORD_ENV]
    return env


def _run(*args: str, timeout: float = 3600) -> str:
    """Run a client program (never asking for a password: there is no one to answer)."""
    done = subprocess.run(list(args), stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, env=_env())
    if done.returncode:
        raise RuntimeError(f"{Path(args[0]).name} failed: {done.stderr.decode(errors='replace')[-600:]}")
    return done.stdout.decode(errors="replace")


def _query(dsn: str, sql: str) -> list[list[str]]:
    out = _run(_program("psql"), "-X", "-w", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", dsn, "-c", sql)
    return [line.split("\t") for line in out.splitlines() if line]


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def store_schema(dsn: str) -> str:
    """The schema the store at ``dsn`` lives in: the first of its search path (made or not yet)."""
    rows = _query(dsn, "SELECT coalesce(current_schema(), ''), current_setting('search_path')")
    current, path = (rows[0] + ["", ""])[:2] if rows else ("", "")
    named = [s.strip().strip('"') for s in path.split(",") if s.strip().strip('"') not in ('', '$user')]
    if current or named:
        return current or named[0]
    raise RuntimeError(f"{dsn}: no schema in its search path")


class PostgresBackend:
    name, file = "postgresql", "store.pgdump"

    def dump(self, store, folder: Path) -> Path:
        target = folder / self.file
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        _run(_program("pg_dump"), "--no-password", "--format=custom", "--no-owner", "--no-privileges",
             f"--schema={_ident(store_schema(store.dsn))}", "-f", str(target), "-d", store.dsn)
        return target

    def dumped_schema(self, dumped: Path) -> str | None:
        """The schema the dump's ``turns`` table is in (a listing line ``TABLE <schema> turns <owner>``)."""
        for line in _run(_program("pg_restore"), "--list", str(dumped)).splitlines():
            words = line.split()
            if "TABLE" in words[:-3] and words[words.index("TABLE") + 2:words.index("TABLE") + 3] == ["turns"]:
                return words[words.index("TABLE") + 1]
        return None

    def archived(self, dumped: Path) -> dict[tuple[str, int], str | None]:
        """The turns the dump holds as archived, each with its state hash, read from its
        table data (no server needed)."""
        text = _run(_program("pg_restore"), "--data-only", "--table=turns", "-f", "-", str(dumped))
        found: dict[tuple[str, int], str | None] = {}
        columns, inside = [], False
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
                    found[(row["match"], int(row["number"]))] = result_hash(_copy_text(row.get("result", "\\N")))
        return found

    def check(self, dumped: Path) -> list[str]:
        try:
            schema = self.dumped_schema(dumped)
        except RuntimeError as e:
            return [f"{dumped.name}: not a readable pg_dump archive ({e})"]
        if schema is None:
            return [f"{dumped.name}: holds no referee tables"]
        return [] if PLAIN.fullmatch(schema) else [f"{dumped.name}: its schema has an unusual name {schema[:80]!r}"]

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
        """Replace the schema of the store at ``dsn`` by the dumped one, all or nothing."""
        source, target = self.dumped_schema(dumped), store_schema(dsn)
        if source is None or not PLAIN.fullmatch(source):
            raise RuntimeError(f"{dumped.name}: holds no referee tables in a plainly named schema")
        renamed = source != target
        before = [f"DROP SCHEMA IF EXISTS {_ident(target)} CASCADE;"]
        after = []
        if renamed:   # a schema of the dump's name (the live store beside) steps aside meanwhile
            before += [f"DROP SCHEMA IF EXISTS {ASIDE} CASCADE;", _rename_if(source, ASIDE)]
            after += [f"ALTER SCHEMA {_ident(source)} RENAME TO {_ident(target)};", _rename_if(ASIDE, source)]
        with tempfile.TemporaryDirectory(prefix="referee-restore-") as tmp:
            script = Path(tmp) / "restore.sql"
            _run(_program("pg_restore"), "--no-owner", "--no-privileges", "-f", str(script), str(dumped))
            _run(_program("psql"), "-X", "-w", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-d", dsn,
                 "-c", " ".join(before), "-f", str(script), "-c", " ".join(after) or "SELECT 1")


_COPY_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|(.))")
_COPY_CHARS = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _copy_text(field: str) -> str | None:
    """A field of COPY's text format as the value it stands for (None for NULL)."""
    if field == "\\N":
        return None

    def one(m: re.Match) -> str:
        if m.group(1):
            return chr(int(m.group(1), 8))
        if m.group(2):
            return chr(int(m.group(2), 16))
        return _COPY_CHARS.get(m.group(3), m.group(3))
    return _COPY_ESCAPE.sub(one, field)


def result_hash(result: str | None) -> str | None:
    """The state hash in a turn's stored ``result`` (JSON), None where there is none."""
    try:
        found = json.loads(result).get("hash") if result else None
    except (ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def _rename_if(old: str, new: str) -> str:
    return (f"DO $$BEGIN IF EXISTS (SELECT FROM pg_namespace WHERE nspname = {_literal(old)}) THEN "
            f"ALTER SCHEMA {_ident(old)} RENAME TO {_ident(new)}; END IF; END$$;")
