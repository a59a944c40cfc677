"""A shared part's cache key (referee/render/shared.py): its values' pickle bytes themselves,
refused early past the cap, and counted in the part cache's bound."""
from __future__ import annotations

import pickle
import tracemalloc

import jinja2

from referee.render.shared import MAX_DIGEST_BYTES, PartCache, SharedExtension, digest, digest_of, one_report


def test_a_key_is_the_values_pickle_and_gives_them_back_with_their_types():
    v = {"n": [1, 1.0, True, None, "1", (1,), b"1"], "s": {2}, "d": {"x": -0.0}}
    key = digest(v)
    assert isinstance(key, bytes) and pickle.loads(key) == v
    back = pickle.loads(key)["n"]
    assert [type(x) for x in back] == [int, float, bool, type(None), str, tuple, bytes]
    assert digest({"x": 0.0}) != digest({"x": -0.0}) and digest([1]) != digest([True]) != digest([1.0])


def test_a_huge_value_stops_being_pickled_soon_after_the_cap():
    chunk = "c" * 50_000
    huge = [chunk] * 2_000          # ~100 MB of pickle (no memo: each copy written out), a small value
    tracemalloc.start()
    try:
        assert digest(huge) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_DIGEST_BYTES   # stopped within a frame of the cap, not after 100 MB
    assert digest(huge[:10]) is not None


def test_a_parts_key_names_each_value_and_a_changed_name_is_another_key():
    pub = {"n": 1}
    with one_report():
        a = digest_of({"pub": pub, "X": "en"})
        assert digest_of({"pub": pub, "X": "en"}) is not a and digest_of({"pub": pub, "X": "en"}) == a
    assert digest_of({"pub": pub, "Y": "en"}) != a and digest_of({"X": "en", "pub": pub}) != a


def test_the_part_cache_counts_its_keys_bytes_in_its_bound():
    cache = PartCache(entries=100, chars=1_000)
    for i in range(5):
        cache.put(("body", ("pub", bytes(300) + bytes([i]))), "p")
    assert len(cache) == 3 and cache.size <= 1_000    # 5 parts of one character, but keys of 301 bytes
    cache.put(("body", ("pub", bytes(2_000))), "p")    # its key alone is past the bound: not kept
    assert cache.get(("body", ("pub", bytes(2_000)))) is None and len(cache) == 3
    e = jinja2.Environment(loader=jinja2.DictLoader({"t": "{% shared v=v %}{{ v | length }}{% endshared %}"}),
                           undefined=jinja2.StrictUndefined, extensions=[SharedExtension])
    e.shared_parts = PartCache(entries=512, chars=50_000)
    t = e.get_template("t")
    for i in range(40):
        assert t.render(v=[i] * 5_000) == "5000"       # keys of ~10 KB each, parts of 4 characters
    assert e.shared_parts.size <= 50_000 and len(e.shared_parts) < 10
