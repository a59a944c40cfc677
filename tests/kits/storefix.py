"""Fixtures for the store's own tests (imported by name: a second conftest module would shadow
tests/referee/conftest, which tests import by name): they run on both backends: ``store_at`` opens
a store on SQLite in a temp folder, or in a fresh schema of the test
PostgreSQL server (tests/kits/pg.py)."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from referee.store import open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request) -> str:
    return request.param


@pytest.fixture
def location(backend, tmp_path, request):
    if backend == "sqlite":
        return tmp_path / "s.sqlite"
    return request.getfixturevalue("postgres").new_schema()


@pytest.fixture
def store_at(location):
    """open(migrate=False): a store at this test's location; every store opened is closed after."""
    opened = []

    def open_(migrate: bool = False):
        s = open_store(location, migrate=migrate)
        opened.append(s)
        return s
    yield open_
    for s in opened:
        s.close()


@pytest.fixture
def store(store_at):
    return store_at()


@contextmanager
def statements(store) -> Iterator[list[str]]:
    """The SQL the store runs inside the block, in order (its connection's own execute, wrapped)."""
    seen: list[str] = []
    real = store._db.execute

    def counting(sql, args=()):
        seen.append(sql)
        return real(sql, args)
    store._db.execute = counting
    try:
        yield seen
    finally:
        store._db.execute = real
