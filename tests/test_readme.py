"""The README's examples stay true: its first lines name the two commands
CI runs, its match file creates a match, and its order mail is read."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timezone
from pathlib import Path

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


def test_the_match_file_example_creates_a_match(tmp_path):
    spec = yaml.safe_load(yaml_blocks()[0])
    ref = Referee(SqliteStore(tmp_path / "r.sqlite"), tmp_path / "turns",
                  clock=lambda: datetime(2026, 3, 1, 12, 0, tzinfo=UTC),
                  settings=Settings(address="referee@example.org"))
    ref.create_match(spec)
    turn = ref.store.current_turn(spec["id"])
    assert turn["number"] == 1 and turn["deadline"].startswith("2026-03-05T19:00")  # 20:00 Berlin
    assert len(ref.store.players(spec["id"])) == 3


def test_the_order_mail_example_is_a_valid_envelope():
    doc = yaml.safe_load(yaml_blocks()[1])
    assert {"match", "player", "key", "turn", "orders"} <= set(doc)
