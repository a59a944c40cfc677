"""A real PostgreSQL server for the tests: Debian's binaries, ``initdb`` in a
temporary folder, a free port on 127.0.0.1, run as a user other than root
(PostgreSQL refuses root).  Started once per test process when asked; if it
cannot start, the test that asked fails (never skips).

``REFEREE_TEST_STORE=postgresql`` (the second pass of .ci/run) routes every
store the tests open by file name to a schema of its own on that server, so
the tests written for SQLite run on PostgreSQL unchanged.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import psycopg

PG_BIN = Path(os.environ.get("REFEREE_PG_BIN", "/usr/lib/postgresql/15/bin"))
SWITCH = "REFEREE_TEST_STORE"


_WATCHDOG = """
import os, signal, sys, time
parent, server = int(sys.argv[1]), int(sys.argv[2])
while True:
    time.sleep(1)
    try:
        os.kill(server, 0)
    except ProcessLookupError:
        break
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        os.kill(server, signal.SIGINT)
        break
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _runner() -> tuple[int, int] | None:
    """(uid, gid) to run the server as when we are root: postgres, else nobody."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return entry.pw_uid, entry.pw_gid
    raise RuntimeError("running as root and there is neither a 'postgres' nor a 'nobody' user to run PostgreSQL as")


class PgServer:
    """One PostgreSQL cluster: ``url(db)``, ``stop()``, ``start()``, ``restart()``."""

    def __init__(self, durable: bool = False) -> None:
        """``durable``: fsync, synchronous_commit and full_page_writes on, as a production server
        commits (benches); the tests' server runs without them."""
        self.durable = durable
        if not (PG_BIN / "initdb").exists():
            raise RuntimeError(f"PostgreSQL binaries not found in {PG_BIN} (apt-get install postgresql)")
        self.as_user = _runner()
        self.root = Path(tempfile.mkdtemp(prefix="referee-pg-"))
        if self.as_user:
            os.chown(self.root, *self.as_user)
        self.data = self.root / "data"
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None
        self._run([str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "referee", "--auth=trust",
                   "-E", "UTF8", "--locale=C", "--no-sync"])
        self.start()
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE referee")
        self._schemas = 0

    def _preexec(self):
        uid_gid = self.as_user
        if uid_gid is None:
            return None

        def drop() -> None:
            os.setgid(uid_gid[1])
            os.setgroups([])
            os.setuid(uid_gid[0])
        return drop

    def _run(self, cmd: list[str]) -> None:
        done = subprocess.run(cmd, preexec_fn=self._preexec(), capture_output=True, text=True, cwd=self.root,
                              timeout=120)
        if done.returncode:
            raise RuntimeError(f"{cmd[0]} failed: {done.stdout[-800:]} {done.stderr[-800:]}")

    def start(self) -> None:
        on = "on" if getattr(self, "durable", False) else "off"   # an _Attached server has no durable of its own
        log = open(self.root / "server.log", "ab")
        self.proc = subprocess.Popen(
            [str(PG_BIN / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.root),
             "-c", "listen_addresses=127.0.0.1", "-c", f"fsync={on}", "-c", f"synchronous_commit={on}",
             "-c", f"full_page_writes={on}", "-c", "max_connections=300", "-c", "shared_buffers=32MB"],
            preexec_fn=self._preexec(), stdout=log, stderr=log, cwd=self.root, start_new_session=True)
        log.close()
        # the server goes when this test process goes, even by SIGKILL (atexit would not run)
        subprocess.Popen([sys.executable, "-c", _WATCHDOG, str(os.getpid()), str(self.proc.pid)],
                         start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
        end = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    tail = (self.root / "server.log").read_text(errors="replace")[-1500:]
                    raise RuntimeError(f"PostgreSQL did not start: {tail}") from None
                time.sleep(0.1)

    def stop(self, fast: bool = True) -> None:
        """Stop the server (``fast``: SIGINT, which cuts every connection, as a restart does)."""
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGINT if fast else signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, db: str = "referee", schema: str | None = None) -> str:
        url = f"postgresql://referee@127.0.0.1:{self.port}/{db}"
        if schema is not None:   # a schema of its own: each test's store starts empty
            url += "?options=" + quote(f"-csearch_path={schema}")
        return url

    def new_schema(self, name: str | None = None, keep: bool = False) -> str:
        """A fresh, empty schema in the ``referee`` database; the URL of a store in it
        (``keep``: the named schema as it is, if it exists)."""
        if name is None:
            self._schemas += 1
            name = f"s{os.getpid()}_{self._schemas}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            if not keep:
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
            conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{name}"')
        return self.url(schema=name)

    def new_database(self) -> str:
        """A fresh database of its own (for processes that share it by URL)."""
        self._schemas += 1
        name = f"d{os.getpid()}_{self._schemas}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


_shared: PgServer | None = None


class _Attached(PgServer):
    """The server of the test process that started this one (REFEREE_TEST_PG_PORT)."""

    def __init__(self, port: int) -> None:   # noqa: super().__init__ would start a server
        self.port, self.proc, self._schemas = port, None, 0


def shared_server() -> PgServer:
    """This test process's server, started on first use and removed at exit; a
    process it starts (the crash driver) uses the same server."""
    global _shared
    if _shared is None:
        if os.environ.get("REFEREE_TEST_PG_PORT"):
            _shared = _Attached(int(os.environ["REFEREE_TEST_PG_PORT"]))
        else:
            _shared = PgServer()
            atexit.register(_shared.remove)
            os.environ["REFEREE_TEST_PG_PORT"] = str(_shared.port)
    return _shared


# -- the second pass: stores opened by file name live on PostgreSQL -----------------
_by_path: dict[str, str] = {}
opened: list = []


def url_for_path(path) -> str:
    """The schema standing in for the SQLite file ``path`` (the same path, the same store)."""
    key = str(Path(path).resolve()) if str(path) != ":memory:" else f":memory:{len(_by_path)}"
    if key not in _by_path:
        name = "f" + hashlib.sha256(key.encode()).hexdigest()[:20]
        _by_path[key] = shared_server().new_schema(name, keep=True)
    return _by_path[key]


def route_stores_to_postgres() -> None:
    """Make ``open_store(path)`` and ``SqliteStore(path)`` open a PostgreSQL store."""
    import referee.store
    import referee.store.sqlite
    from referee.store.postgres import PostgresStore

    class PathPostgresStore(PostgresStore):
        def __init__(self, path, migrate: bool = False) -> None:
            self.path = str(path)
            super().__init__(url_for_path(path), migrate=migrate)
            opened.append(self)

    real_open = referee.store.open_store

    def open_store(location, migrate: bool = False):
        if referee.store.is_postgres(location):
            return real_open(location, migrate)
        return PathPostgresStore(location, migrate)

    referee.store.open_store = open_store
    referee.store.SqliteStore = PathPostgresStore
    referee.store.sqlite.SqliteStore = PathPostgresStore


def close_opened() -> None:
    while opened:
        try:
            opened.pop().close()
        except Exception:
            pass
