"""The fixtures of the seat tests (issue 18), imported by their modules (a conftest.py
here would shadow tests/referee's, which its modules import by the name ``conftest``): ``seats_table(**extra)`` makes a
toy-game table (seats_table.Table) with extra match-file fields."""
from __future__ import annotations

import pytest
import toygame  # tests/ is on sys.path (tests/conftest.py)
from seats_table import Table

from referee.game_api import registry


@pytest.fixture
def seats_table(tmp_path):
    registry.register(toygame.RULES)
    made = []

    def make(**extra) -> Table:
        made.append(Table(tmp_path, **extra))
        return made[-1]
    yield make
    for t in made:
        t.ref.store.close()
    registry.unregister(toygame.RULES.name)


@pytest.fixture
def toy():
    """The toy game registered for a test that makes its own tables."""
    registry.register(toygame.RULES)
    yield
    registry.unregister(toygame.RULES.name)
