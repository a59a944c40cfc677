"""A table of the toy game, early close on, for the reply tests of this folder (a module
may define its own ``table``, as test_replies_say_what_happens_next does)."""
from __future__ import annotations

import pytest
import toygame  # tests/ is on sys.path (tests/conftest.py)
from test_replies_say_what_happens_next import Table

from referee.game_api import registry


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path, True)
    yield t
    t.ref.store.close()
    registry.unregister(toygame.RULES.name)
