"""``fastjson.loads`` reads a store's JSON column as ``json.loads`` does, value and type,
including what orjson refuses (NaN, an exponent beyond a float, a lone surrogate), and what
``dumps_sorted`` wrote reads back exactly, integers beyond 64 bits too (orjson alone reads an
integer beyond 64 bits in a text of another's as a float)."""
from __future__ import annotations

import json

import pytest

from referee.game_api import fastjson

AGREES = [
    '{"b": 1, "a": [1, 2.5, -0.0, null, true, false, "x"]}',
    '{"a": 1, "a": 2}',                        # a repeated key: the last one stands
    '"\\u0000 \\u00fc \\ud83d\\ude00"',       # escapes, a surrogate pair
    '18446744073709551615', '-9223372036854775808', '1e-400', '1.7976931348623157e308',
    ' [ 1 ,2 ] ', '"\\u00e4\u00f6"',
]
HOSTILE = [
    '"123456789012345678901234567890"',        # a long digit run in a string: still the same
    'NaN', '[Infinity, -Infinity]', '1E400',   # json's extensions, an overflowing exponent
    '"\\ud800"', '["\\udfff", 1]',             # lone surrogates
    '[' * 5000 + ']' * 5000,                   # deeper than orjson reads
]
BROKEN = ['', '{', '[1,]', '{"a" 1}', '"\x01"', "{'a': 1}", '[1] x', '\ud800']


@pytest.mark.parametrize("text", AGREES + HOSTILE)
def test_loads_gives_what_json_gives_value_and_type(text):
    try:
        expected = repr(json.loads(text))
    except RecursionError:   # json's own limit: fastjson hands the text to json, so the same
        with pytest.raises(RecursionError):
            fastjson.loads(text)
        return
    assert repr(fastjson.loads(text)) == expected


@pytest.mark.parametrize("text", AGREES)
def test_loads_reads_bytes_as_json_does(text):
    assert repr(fastjson.loads(text.encode("utf-8"))) == repr(json.loads(text.encode("utf-8")))


def test_a_big_integer_the_store_wrote_stays_an_exact_int():
    value = {"big": 123456789012345678901234567890, "neg": -9223372036854775809, "n": [10 ** 30, 1]}
    back = fastjson.loads(fastjson.dumps_sorted(value))
    assert back == value and type(back["big"]) is int and type(back["n"][0]) is int
    assert fastjson.loads(fastjson.dumps_sorted(value).encode()) == value


@pytest.mark.parametrize("text", BROKEN)
def test_broken_json_is_refused_as_json_refuses_it(text):
    with pytest.raises(json.JSONDecodeError) as ours:
        fastjson.loads(text)
    with pytest.raises(json.JSONDecodeError) as theirs:
        json.loads(text)
    assert str(ours.value) == str(theirs.value)
