"""The archive's turn files and the store's JSON: the store's JSON columns read back as the
same values (NaN and infinities, which JSON has not, as null: orjson's choice); every file
replaces its old one through a renamed temp file."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive.record import Archive, turn_json
from referee.game_api import fastjson
from referee.store import sql

_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
            | st.text(max_size=20) | st.sampled_from(["", "ä\"\\\n\t\x00\x01\x7f\u2028😀", "\uffff", "😀",
                                                        "two  blanks", "  ", " one"]))
_floats = st.floats(allow_nan=True, allow_infinity=True)
_keys = st.text(max_size=8) | st.sampled_from(["a", "ä", "\uffff", "😀", "Z", "a  b", " "])


def _tree(leaves):
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_keys, inner, max_size=5),
                        max_leaves=40)


def _same_value(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same_value, a, b))
    return type(a) is type(b) and a == b


@settings(max_examples=400, deadline=None)
@given(data=_tree(_scalars | _floats) | st.dictionaries(st.integers(), _scalars, max_size=3))
def test_the_stores_json_reads_back_as_the_same_value(data):
    try:
        expected = json.loads(json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False))
    except ValueError:   # NaN or an infinity: JSON has none, orjson writes null
        assert "null" in sql._dumps(data)
        return
    except TypeError as exc:
        with pytest.raises(type(exc)):
            sql._dumps(data)
        return
    assert _same_value(fastjson.loads(sql._dumps(data)), expected)


def _turn_files(archive: Archive, turn_json: dict) -> dict[str, bytes]:
    archive.write_turn("m1", 3, {"ann": {"orders": {"move": "a→b"}, "source": "player"}}, turn_json,
                       {"ann.de.txt": "Bericht für Ann\n", "ann.de.html": "<p>Ann</p>", "_gm.de.txt": "GM\n"})
    d = archive.turn_dir("m1", 3)
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_write_turn_writes_every_file_whole_and_leaves_no_temp_file(tmp_path: Path):
    archive = Archive(tmp_path / "turns")
    turn = {"match": "m1", "turn": 3, "rev": 0, "seed": 2 ** 63 + 5, "hash": "ab" * 32,
            "log": [{"kind": "moved", "data": {"from": "ä", "to": "b"}, "visible_to": None}],
            "outcome": None, "missing": [], "closed": "2026-03-08T12:00:00+00:00"}
    files = _turn_files(archive, turn)
    assert sorted(files) == ["orders.yaml", "reports/_gm.de.txt", "reports/ann.de.html", "reports/ann.de.txt",
                             "turn.json"]
    assert files["turn.json"] == turn_json(turn).encode()
    assert files["reports/ann.de.txt"] == "Bericht für Ann\n".encode()
    assert files["orders.yaml"].decode().startswith("ann:\n  orders:\n    move: a→b\n")
    turn["log"] = []   # written again (a repaired archive): each file replaced, none appended to
    again = _turn_files(archive, turn)
    assert again["turn.json"] == json.dumps(turn, indent=1, ensure_ascii=False, sort_keys=True).encode()
    assert not [p for p in (tmp_path / "turns").rglob(".*")]


def test_a_write_that_fails_raises_and_the_files_written_before_are_whole(tmp_path: Path):
    archive = Archive(tmp_path / "turns")
    turn = {"match": "m1", "turn": 3, "log": ["first"]}
    _turn_files(archive, turn)
    target = archive.turn_dir("m1", 3) / "turn.json"
    (archive.turn_dir("m1", 3) / "reports" / "ann.de.html").unlink()
    (archive.turn_dir("m1", 3) / "reports" / "ann.de.html").mkdir()   # a folder where a file goes: rename fails
    with pytest.raises(OSError):
        _turn_files(archive, {"match": "m1", "turn": 3, "log": ["second"]})
    assert json.loads(target.read_bytes()) == {"match": "m1", "turn": 3, "log": ["second"]}   # written before
    assert (archive.turn_dir("m1", 3) / "reports" / "ann.de.html").is_dir()


def test_hostile_report_names_never_leave_the_turns_folder(tmp_path: Path):
    archive = Archive(tmp_path / "turns")
    for name in ("../escape.txt", "/etc/x.txt", "a/../../b.txt", ".hidden\x00.txt"):
        with pytest.raises(ValueError):
            archive.write_turn("m1", 1, {}, {"turn": 1}, {name: "x"})
    assert sorted(os.listdir(tmp_path)) == ["turns"]
    assert not list(tmp_path.rglob("escape.txt")) and not list(tmp_path.rglob("b.txt"))
