"""Issue 38: turn.json is written a key a line and a log event a line by the json module's C
encoder (``indent=`` used its pure-Python encoder, ~10x slower on a council game's log); it
reads back as the same value, whatever the log holds."""
from __future__ import annotations

import json

import pytest

from referee.archive.record import record_files, turn_json

TURN = {"turn": 3, "seed": 12, "rev": 0, "hash": "ab" * 32, "closed": "2026-03-02T09:00:00+00:00",
        "match": "m1", "missing": [], "outcome": None,
        "log": [{"kind": "vote", "data": {"nr": 14, "für": "pro", "why": "a\nb \"q\" \u2028"}, "visible_to": None},
                {"kind": "lot", "data": {"drawn": [1, 2.5, -3], "deep": {"x": [[{}]]}}, "visible_to": ["ann"]}]}


def test_turn_json_reads_back_as_the_turn_with_one_event_a_line():
    text = turn_json(TURN)
    assert json.loads(text) == TURN
    lines = text.split("\n")   # (splitlines would also cut at the U+2028 inside a value)
    events = [line for line in lines if line.startswith('  {"data"')]
    assert len(events) == 2 and all(json.loads(e.rstrip(",")) in TURN["log"] for e in events)
    assert ' "missing": [],' in lines and ' "outcome": null,' in lines
    assert "für" in text, "written as UTF-8, not escaped"


@pytest.mark.parametrize("value", [{}, {"log": []}, {"log": [[], {}, None, "x"]}, {"k": float("1e308")}])
def test_turn_json_holds_every_shape(value):
    assert json.loads(turn_json(value)) == value


def test_the_record_writes_turn_json_so():
    (_, _), (name, data) = record_files({"ann": {"source": "player"}}, TURN)
    assert name == "turn.json" and data == turn_json(TURN).encode("utf-8")
