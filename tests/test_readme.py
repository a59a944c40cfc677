"""The README's examples stay true: its first lines name the two commands
CI runs, its match file creates a match, and its order mail is read."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def yaml_blocks() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", README, re.S)


def test_the_first_lines_give_the_two_commands_and_ci_runs_the_test_command():
    head = README.splitlines()[:6]
    assert any("referee demo" in ln for ln in head)
    test_line = next(ln for ln in head if "pytest" in ln)
    command = test_line.split("&&")[-1].split("#")[0].strip()
    assert command == "python -m pytest -q"
    assert command in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("years", [0, 1])
def test_the_match_file_example_creates_a_match_as_copied_today_and_next_year(tmp_path, years):
    # issue 33: a first_deadline in the past made the copied example fail
    spec = yaml.safe_load(yaml_blocks()[0])
    now = datetime.now(UTC) + timedelta(days=365 * years)
    ref = Referee(SqliteStore(tmp_path / "r.sqlite"), tmp_path / "turns", clock=lambda: now,
                  settings=Settings(address="referee@example.org"))
    ref.create_match(spec)
    turn = ref.store.current_turn(spec["id"])
    ahead = datetime.fromisoformat(turn["deadline"]) - now   # one period, on the next whole minute
    assert turn["number"] == 1 and timedelta(hours=48) <= ahead < timedelta(hours=48, minutes=1)
    assert len(ref.store.players(spec["id"])) == 3


def test_the_order_mail_example_is_a_valid_envelope():
    doc = yaml.safe_load(yaml_blocks()[1])
    assert {"match", "player", "key", "turn", "orders"} <= set(doc)
