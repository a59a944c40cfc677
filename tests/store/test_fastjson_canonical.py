"""The state hash: the bytes hashed are the UTF-8 of ``json.dumps(sort_keys=True,
separators=(",", ":"), ensure_ascii=False)``, as in every earlier release."""
from __future__ import annotations

import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.game_api.contract import canonical_json, hash_of_dump, state_hash

_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
            | st.text(max_size=20) | st.sampled_from(["", "ä\"\\\n\t\x00\x01\x1f\x7f\u2028\u2029😀", "\uffff", "</"]))
_floats = st.floats(allow_nan=True, allow_infinity=True)
_keys = st.text(max_size=8) | st.sampled_from(["a", "ä", "\uffff", "😀", "Z", "\x00"])


def _tree(leaves):
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_keys, inner, max_size=5)
                        | st.tuples(inner, inner), max_leaves=40)


def _reference(data) -> str:
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        return type(exc).__name__


def _ours(data) -> str:
    try:
        return canonical_json(data)
    except (TypeError, ValueError) as exc:
        return type(exc).__name__


@settings(max_examples=300, deadline=None)
@given(data=_tree(_scalars))
def test_the_hashed_bytes_are_the_utf8_of_canonical_json(data):
    ref = _reference(data)
    try:
        want = hashlib.sha256(ref.encode()).hexdigest()
    except UnicodeEncodeError:   # a lone surrogate: the old hash raised too
        want = "UnicodeEncodeError"
    try:
        got = hash_of_dump(data)
    except UnicodeEncodeError:
        got = "UnicodeEncodeError"
    assert got == want


def test_state_hash_is_the_hash_of_the_dump_as_before():
    class Rules:
        def dump(self, state):
            return {"board": state, "n": 2 ** 62, "name": "Köln"}
    data = {"z": [1, 2], "a": {"ü": None}}
    want = hashlib.sha256(json.dumps(Rules().dump(data), sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False).encode()).hexdigest()
    assert state_hash(Rules(), data) == want == hash_of_dump(Rules().dump(data))
