"""The SQLite half of ``referee.store.backup``: the store file copied with SQLite's online
backup API (``sqlite3.Connection.backup``) into one file, page by page in one read
transaction, so the copy is one consistent moment while the service goes on writing."""
from __future__ import annotations

import gzip
import os
import shutil
import sqlite3
import zlib
from datetime import datetime
from pathlib import Path

from referee.store.backup_pg import result_hash
from referee.store.schema import SCHEMA_VERSION

MANIFEST_NAME = "MANIFEST.json"   # referee.store.backup.MANIFEST (which imports this module)


class SqliteBackend:
    name, file = "sqlite", "store.sqlite"
    packed = "store.sqlite.gz"   # the automatic snapshots' dump, packed (pg_dump's custom format is already)

    def pack(self, dumped: Path) -> Path:
        """``dumped`` gzipped beside it (level 1: a store of JSON text packs to ~1/7 in ~20 ms a MB)."""
        target = dumped.with_name(self.packed)
        with open(dumped, "rb") as f, open(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as raw, \
                gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=1, mtime=0) as g:
            shutil.copyfileobj(f, g, 1 << 20)
        dumped.unlink()
        return target

    def unpack(self, packed: Path, scratch: Path, size) -> tuple[Path, list[str]]:
        """(the dump unpacked into ``scratch``, problems); never more than the ``size`` the manifest gives."""
        target = scratch / self.file
        if not isinstance(size, int) or size < 0:
            return target, [f"{MANIFEST_NAME}: no size of the packed store"]
        written = 0
        try:
            with gzip.open(packed, "rb") as g, open(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
                while block := g.read(min(1 << 20, size - written + 1)):
                    written += len(block)
                    if written > size:
                        break
                    f.write(block)
        except (OSError, EOFError, zlib.error) as e:
            return target, [f"{packed.name}: not a whole gzip file ({e})"]
        if written != size:
            return target, [f"{packed.name}: unpacks to another size than the manifest's"]
        return target, []

    def dump(self, store, folder: Path) -> Path:
        target = folder / self.file
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)   # key hashes: owner only
        os.close(fd)
        out = sqlite3.connect(target)
        try:
            if store.path == ":memory:":
                store.connection.backup(out)
            else:
                src = sqlite3.connect(store.path, timeout=30)
                try:
                    src.backup(out)   # pages copied in one read transaction: one consistent moment
                finally:
                    src.close()
            # the copy carries the store's WAL mode; a rollback journal makes it one file
            # alone, which opening it to check it (read-only) leaves without -wal/-shm beside
            out.execute("PRAGMA journal_mode=DELETE")
        finally:
            out.close()
        return target

    def archived(self, dumped: Path) -> dict[tuple[str, int], str | None]:
        """The turns the dump holds as archived, each with its state hash (None: unreadable)."""
        db = sqlite3.connect(f"file:{dumped}?mode=ro", uri=True)
        try:
            return {(m, int(n)): result_hash(r) for m, n, r in
                    db.execute("SELECT match, number, result FROM turns WHERE archived=1")}
        finally:
            db.close()

    def check(self, dumped: Path) -> list[str]:
        try:
            db = sqlite3.connect(f"file:{dumped}?mode=ro", uri=True)
            try:
                ok = db.execute("PRAGMA integrity_check").fetchone()[0]
                version = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            finally:
                db.close()
        except sqlite3.DatabaseError as e:
            return [f"{dumped.name}: not a readable SQLite database ({e})"]
        problems = [] if ok == "ok" else [f"{dumped.name}: integrity check says {ok}"]
        if version is None or int(version[0]) != SCHEMA_VERSION:
            problems.append(f"{dumped.name}: schema version {version and version[0]}, this referee needs {SCHEMA_VERSION}")
        return problems

    def in_use(self, location: str) -> bool:
        """Another connection is writing (a running service mid-transaction)."""
        if not Path(location).exists():
            return False
        db = sqlite3.connect(location, timeout=0.5)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute("ROLLBACK")
            return False
        except sqlite3.OperationalError:
            return True
        finally:
            db.close()

    def holds_matches(self, location: str) -> bool:
        if not Path(location).exists():
            return False
        db = sqlite3.connect(location, timeout=30)
        try:
            return db.execute("SELECT count(*) FROM matches").fetchone()[0] > 0
        except sqlite3.OperationalError:   # no tables yet
            return False
        finally:
            db.close()

    def last_tick(self, location: str) -> datetime | None:
        if not Path(location).exists():
            return None
        db = sqlite3.connect(location, timeout=30)
        try:
            row = db.execute("SELECT value FROM meta WHERE key='last_tick'").fetchone()
        except sqlite3.OperationalError:
            return None
        finally:
            db.close()
        return datetime.fromisoformat(row[0]) if row else None

    def load(self, dumped: Path, location: str) -> None:
        Path(location).parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(location, os.O_RDWR | os.O_CREAT, 0o600))
        src = sqlite3.connect(f"file:{dumped}?mode=ro", uri=True)
        dst = sqlite3.connect(location, timeout=30)
        try:
            src.backup(dst)   # replaces every page in one write transaction, WAL and all
        finally:
            src.close()
            dst.close()
