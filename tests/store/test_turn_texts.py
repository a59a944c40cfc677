"""A turn's state and result given as texts encoded once by the close (issue 8), and the
standings a turn keeps (migration 7): stored and read back as values, on both backends."""
from __future__ import annotations

from datetime import UTC, datetime

from storefix import backend, location, store, store_at  # noqa: F401 (fixtures)

from referee.game_api import fastjson
from referee.game_api.contract import encoded_with_hash, hash_of_dump
from referee.store.rows import encoded_parts, joined

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
HOSTILE = "Köln 😀 \u2028 ' \" \\ ? %s \x00 -- ;"


def _match(store):
    store.add_match(id="m1", game="toybid", version="1", spec={"language": "en"}, seed="7", status="running",
                    gm_email="gm@example.org", gm_key_hash="h", created=NOW)


def test_a_state_given_as_its_encoded_text_reads_back_as_the_state_and_keeps_its_hash(store):
    _match(store)
    state = {"b": [1, {"z": HOSTILE, "a": None}], "a": 2**63 - 1, "t": True}
    encoded, digest = encoded_with_hash(state)
    assert digest == hash_of_dump(state) and encoded is not None
    store.add_turn(match="m1", number=1, state=state, awaiting={"ann": "bid"}, deadline=None, seed=7, opened=NOW,
                   state_text=encoded.decode(), standings={"score": {"ann": 3, "bob": -1.5}})
    t = store.current_turn("m1")
    assert t.raw("state") == encoded.decode()   # stored as given, no second encoding
    assert t["state"] == state and hash_of_dump(t["state"]) == digest
    assert t["standings"] == {"score": {"ann": 3, "bob": -1.5}}


def test_a_turn_added_without_standings_keeps_none(store):
    _match(store)
    store.add_turn(match="m1", number=1, state={"a": 1}, awaiting={}, deadline=None, seed=1, opened=NOW)
    assert store.current_turn("m1")["standings"] is None


def test_a_result_stored_from_its_entries_texts_reads_back_as_the_result(store):
    _match(store)
    store.add_turn(match="m1", number=1, state={"a": 1}, awaiting={}, deadline=None, seed=1, opened=NOW)
    result = {"hash": "ab" * 32, "log": [{"kind": HOSTILE, "data": {"n": [1.5, 1e-05, 1e16, 2 ** 70], "k": (1, 2)}}],
              "outcome": None, "missing": [], "mails": {"ann": {"lang": "de"}}, "pictures": {"k": "<svg/>"},
              "orders": {"zed": {"b": 1}, "amy": {}}}
    store.resolve_turn("m1", 1, joined(encoded_parts(result)), NOW)
    got = store.turn("m1", 1)["result"]
    assert got == fastjson.loads(fastjson.dumps_sorted(result))
    assert list(got) == sorted(result) and list(got["orders"]) == ["amy", "zed"]
