"""The archive's YAML written without PyYAML where it is plain (archive_yaml.block):
byte for byte what yaml.dump gives, for every sample in turns/ and for random trees,
and PyYAML is used wherever the fast writer would not be sure (floats, blanks,
unicode, odd keys, aliases, huge nesting)."""
from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive import record as archive
from referee.archive import yaml_text as archive_yaml

ROOT = Path(__file__).resolve().parents[2]
_words = (st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,12}", fullmatch=True)
          | st.sampled_from(["on", "Off", "yes", "null", "true", "3", "-1", "1_000", "0x1F", "0o17", "1e3", "1.5",
                             "2026-03-02", "2026-03-02T10:00:00", "_", "a.b", "x-y", "NaN", ".inf", "a" * 99, "a" * 101]))
_any_text = st.text(max_size=12) | st.sampled_from(["", " a", "a ", "a: b", "a #b", "ä", "😀", "- x", "-", "'q'",
                                                     "\"", "a\nb", "\t", "\x85", "\u2028", "x" * 200 + " y" * 50])
_scalars = st.none() | st.booleans() | st.integers(min_value=-(2 ** 80), max_value=2 ** 80) | _words
_hostile = _scalars | _any_text | st.floats(allow_nan=True) | st.tuples(st.integers())


def _tree(leaves, keys):
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                        max_leaves=30)


def _pyyaml(data) -> bytes:
    return archive._yaml_dump(data)


@settings(max_examples=600, deadline=None)
@given(data=st.dictionaries(_words, _tree(_scalars, _words), min_size=1, max_size=4))
def test_plain_trees_are_written_as_pyyaml_writes_them(data):
    fast = archive_yaml.block(data)
    if fast is None:   # taken unless a word is not one it writes
        assert any(not archive_yaml._WORD(w) or len(w) > archive_yaml._KEY_MAX for w in _all_words(data))
    else:
        assert fast == _pyyaml(data)


def _all_words(x):
    if isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from _all_words(v)
    elif isinstance(x, list):
        for v in x:
            yield from _all_words(v)
    elif isinstance(x, str):
        yield x


@settings(max_examples=600, deadline=None)
@given(data=st.dictionaries(_words | _any_text, _tree(_hostile, _words | _any_text | st.integers()), max_size=4))
def test_hostile_trees_give_pyyaml_bytes_through_whichever_path(data):
    try:
        want = _pyyaml(data)
    except yaml.YAMLError:   # a tuple: SafeDumper refuses it, and so does the archive
        fast = archive_yaml.block(data)
        assert fast is None
        return
    assert archive._yaml(data) == want


def test_every_sample_in_turns_is_written_byte_for_byte_and_orders_take_the_fast_path():
    files = sorted(ROOT.glob("turns/**/*.yaml"))
    orders = [f for f in files if f.name == "orders.yaml"]
    assert len(orders) >= 50
    for f in files:
        raw = f.read_bytes()
        data = yaml.safe_load(raw)
        assert archive._yaml(data) == raw, f
    for f in orders:
        assert archive_yaml.block(yaml.safe_load(f.read_bytes())) == f.read_bytes(), f


def test_pyyaml_writes_what_the_fast_path_is_not_sure_of():
    shared = ["a", "b"]
    cases = {
        "float": {"a": 1.5}, "blank": {"a": "two words"}, "unicode": {"a": "Köln"}, "emoji": {"😀": 1},
        "int key": {1: "a"}, "bool key": {True: "a"}, "None key": {None: 1}, "empty str": {"a": ""},
        "leading dash": {"a": "-x"}, "leading dot": {"a": ".x"}, "colon": {"a": "a:b"},
        "long key": {"k" * 130: 1}, "alias": {"a": shared, "b": shared}, "empty alias": {"a": (e := {}), "b": e},
        "tuple": {"a": (1, 2)}, "subclass": {"a": type("S", (str,), {})("x")}, "top list": ["a"], "top empty": {},
    }
    for name, data in cases.items():
        assert archive_yaml.block(data) is None, name
        try:
            want = _pyyaml(data)
        except yaml.YAMLError:
            continue
        assert archive._yaml(data) == want, name


def test_words_yaml_reads_as_other_types_are_quoted_as_pyyaml_quotes_them():
    data = {"on": "off", "3": "4", "null": "~x", "k": ["yes", "No", "1_0", "2026-03-02", "0x1F", "1e3", "true"]}
    assert archive_yaml.block({k: v for k, v in data.items() if k != "null"}) == _pyyaml(
        {k: v for k, v in data.items() if k != "null"})
    assert b"'on': 'off'" in archive._yaml(data) and b"- 'yes'" in archive._yaml(data)


def test_deep_nesting_is_written_as_pyyaml_writes_it_or_left_to_it():
    for n in (50, 200, 5000):
        data = {"a": _deep(n)}
        try:
            want = _pyyaml(data)
        except RecursionError:
            want = None
        fast = archive_yaml.block(data)
        assert fast is None or fast == want


def _deep(n: int):
    x: list = ["leaf"]
    for _ in range(n):
        x = [x, "w"]
    return x
