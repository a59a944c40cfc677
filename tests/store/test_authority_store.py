"""The store and the archive on their own: transactions, schema version, replay checks."""
from __future__ import annotations

import json

import pytest
import yaml
from referee_kit import SPEC, clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive.record import replay
from referee.store import SchemaMismatch, open_store


def test_a_failed_transaction_leaves_nothing(tmp_path):
    store = open_store(tmp_path / "s.sqlite")
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.add_observer("m", "a@example.org", None)
            raise RuntimeError("boom")
    assert store.observers("m") == []


def test_schema_version_is_checked(tmp_path):
    store = open_store(tmp_path / "s.sqlite")
    store._exec("UPDATE meta SET value='99' WHERE key='schema_version'")
    store.close()
    with pytest.raises(SchemaMismatch):
        open_store(tmp_path / "s.sqlite")


@pytest.mark.sqlite_file
def test_keys_are_stored_hashed_and_welcome_texts_dropped_once_sent(ref, outbox):
    ref.create_match(SPEC)
    assert any(b"Your key" in e["message"] for e in ref.store.outbox("toy1"))
    sent = outbox.flush()
    raw = (ref.store.path and open(ref.store.path, "rb").read()) + b"".join(
        open(p, "rb").read() for p in __import__("glob").glob(ref.store.path + "-wal"))
    import re

    from referee_kit import text_of
    keys = [re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m)) for m in sent]
    for k in (k.group(1) for k in keys if k):
        assert k.encode() not in raw
    assert all(p["key_hash"].startswith("hmac$") for p in ref.store.players("toy1"))


def test_replay_names_the_first_turn_that_differs(ref, tmp_path):
    ref.create_match(dict(SPEC, options={"rounds": 3}))
    for _ in range(3):
        ref.force("toy1")
    match_dir = tmp_path / "turns" / "toy1"
    assert replay(match_dir).ok and replay(match_dir).turns == 3
    meta = yaml.safe_load((match_dir / "match.yaml").read_text())
    assert "key" not in json.dumps(meta).lower().replace("setup_hash", "")
    orders = match_dir / "t002" / "orders.yaml"
    data = yaml.safe_load(orders.read_text())
    data["ann"]["orders"]["bid"] = 0 if data["ann"]["orders"]["bid"] else 1
    orders.write_text(yaml.safe_dump(data))
    bad = replay(match_dir)
    assert not bad.ok and bad.first_mismatch == 2 and "turn 2" in bad.summary()
