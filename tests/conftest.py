"""Shared pytest fixtures: real mail servers (see mailservers.py).

``mailservers`` gives a clean view (mailboxes emptied, captures cleared) of
one Dovecot + aiosmtpd set started once per session, only when a test asks.
If the servers cannot start the fixture raises: such tests fail, never skip.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# tests/ (the toy game) and tests/kits/ (every folder's helpers, one place) are importable
# from every test module; the test folders themselves mirror referee/'s packages.
for _folder in (Path(__file__).resolve().parent, Path(__file__).resolve().parent / "kits"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))
import pg  # noqa: E402
from mailservers import MailServers, running_mailservers  # noqa: E402

ON_POSTGRES = os.environ.get(pg.SWITCH) == "postgresql"
if ON_POSTGRES:   # before any test module imports the store: every store opened by file name is on PostgreSQL
    pg.route_stores_to_postgres()


def pytest_configure(config):
    # aiosmtpd's own noise (see mail/smtpfront.py); pytest resets module-level filters.
    config.addinivalue_line("filterwarnings", "ignore:Requiring AUTH while not requiring TLS")
    config.addinivalue_line("filterwarnings", "ignore:Session.login_data is deprecated")


@pytest.fixture(scope="session")
def mailservers_session() -> MailServers:
    with running_mailservers() as servers:
        yield servers


@pytest.fixture
def mailservers(mailservers_session: MailServers) -> MailServers:
    mailservers_session.reset()
    return mailservers_session


def pytest_collection_modifyitems(config, items):
    if ON_POSTGRES:   # what only a SQLite file has is checked in the first pass
        left = [i for i in items if i.get_closest_marker("sqlite_file")]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [i for i in items if not i.get_closest_marker("sqlite_file")]


@pytest.fixture(scope="session")
def postgres() -> pg.PgServer:
    """A real PostgreSQL server (one per test process); a failure to start fails the test."""
    return pg.shared_server()


@pytest.fixture(autouse=True)
def _close_routed_stores():
    yield
    if ON_POSTGRES:
        pg.close_opened()
