"""The hardening tests' fixtures: the toy game registered, a referee whose clock the test moves."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hardkit  # noqa: E402
import toygame  # noqa: E402

from referee import registry  # noqa: E402


@pytest.fixture(autouse=True)
def toy_registered():
    registry.register(toygame.RULES)
    yield
    registry.unregister(toygame.RULES.name)


@pytest.fixture
def clock():
    return hardkit.Clock()
