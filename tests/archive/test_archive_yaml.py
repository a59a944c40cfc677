"""The archive's YAML (archive_yaml.write, PyYAML's safe dumper): every sample in turns/ is
written byte for byte as it stands, libyaml's emitter and the pure-Python one agree, a value
met twice is written twice (the reader refuses aliases), and whatever is written reads back
as the value it was."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.archive import record as archive
from referee.archive import yaml_text as archive_yaml

ROOT = Path(__file__).resolve().parents[2]
_words = (st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,12}", fullmatch=True)
          | st.sampled_from(["on", "Off", "yes", "null", "true", "3", "-1", "1_000", "0x1F", "0o17", "1e3", "1.5",
                             "2026-03-02", "2026-03-02T10:00:00", "_", "a.b", "x-y", "NaN", ".inf", "a" * 99, "a" * 101]))
_any_text = st.text(max_size=12) | st.sampled_from(["", " a", "a ", "a: b", "a #b", "ä", "😀", "- x", "-", "'q'",
                                                     "\"", "a\nb", "\t", "\u2028", "x" * 200 + " y" * 50])
_scalars = st.none() | st.booleans() | st.integers(min_value=-(2 ** 80), max_value=2 ** 80) | _words
_hostile = _scalars | _any_text | st.floats(allow_nan=False)


def _tree(leaves, keys):
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                        max_leaves=30)


def _pure_python(data) -> bytes:
    class Pure(yaml.SafeDumper):
        def ignore_aliases(self, data) -> bool:
            return True
    return yaml.dump(data, Dumper=Pure, allow_unicode=True, sort_keys=False,
                     default_flow_style=False).encode("utf-8")


def test_every_sample_in_turns_is_written_byte_for_byte():
    files = sorted(ROOT.glob("turns/**/*.yaml"))
    assert len([f for f in files if f.name == "orders.yaml"]) >= 50
    for f in files:
        raw = f.read_bytes()
        assert archive._yaml(yaml.safe_load(raw)) == raw, f


def test_libyaml_and_the_pure_python_dumper_write_the_same_bytes():
    assert yaml.__with_libyaml__, "PyYAML's wheels carry libyaml: the archive is written by CSafeDumper"
    for f in sorted(ROOT.glob("turns/demo-*/**/*.yaml"))[:200]:
        data = yaml.safe_load(f.read_bytes())
        assert archive_yaml.write(data) == _pure_python(data), f


@settings(max_examples=300, deadline=None)
@given(data=st.dictionaries(_words | _any_text, _tree(_hostile, _words | _any_text | st.integers()), max_size=4))
def test_hostile_trees_read_back_as_the_values_written(data):
    assert yaml.safe_load(archive_yaml.write(data)) == data


def test_words_yaml_reads_as_other_types_are_quoted():
    data = {"on": "off", "3": "4", "k": ["yes", "No", "1_0", "2026-03-02", "0x1F", "1e3", "true"]}
    text = archive_yaml.write(data)
    assert b"'on': 'off'" in text and b"- 'yes'" in text and b"'3': '4'" in text
    assert yaml.safe_load(text) == data


def test_a_value_met_twice_is_written_twice_and_the_reader_takes_it(tmp_path):
    shared = {"a": ["x", "y"]}
    data = {"one": shared, "two": shared, "empty": (e := {}), "again": e}
    text = archive_yaml.write(data)
    assert b"&" not in text and b"*" not in text
    (tmp_path / "f.yaml").write_bytes(text)
    assert archive_yaml.read(tmp_path / "f.yaml") == data


def test_what_safe_yaml_cannot_write_is_refused():
    for data in ({"a": object()}, {"a": {1, 2}.__iter__()}):
        with pytest.raises(yaml.YAMLError):
            archive_yaml.write(data)
