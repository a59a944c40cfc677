"""The one SQL implementation, the same answers on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from storefix import backend, location, store, store_at  # noqa: F401 (fixtures)

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _match(store, mid="m1", spec=None):
    store.add_match(id=mid, game="toybid", version="1", spec=spec or {"language": "de"}, seed="7", status="running",
                    gm_email="gm@example.org", gm_key_hash="h", created=NOW)


def test_seat_order_survives_a_replacement(store):
    _match(store)
    for pid in ("cyd", "ann", "bob"):
        store.add_player("m1", pid, pid.title(), f"{pid}@Example.org", None, "k")
    store.replace_player("m1", "ann", "dee@example.org", "k2", None, NOW)
    assert [p["id"] for p in store.players("m1")] == ["cyd", "ann", "bob"]
    assert list(store.player_names("m1")) == ["cyd", "ann", "bob"]
    assert store.player("m1", "ann")["email"] == "dee@example.org"
    assert [h["old_email"] for h in store.player_history("m1")] == ["ann@example.org"]
    assert store.plays_in("m1", "CYD@example.org") and not store.plays_in("m1", "ann@example.org")


def test_language_of_an_address_from_its_seat_or_the_match(store):
    _match(store)
    store.add_player("m1", "ann", "Ann", "ann@example.org", None, "k")
    store.add_player("m1", "bob", "Bob", "bob@example.org", "en", "k")
    assert store.language_of_address("ann@example.org") == "de"
    assert store.language_of_address("bob@example.org") == "en"
    assert store.language_of_address("gm@example.org") == "de"
    assert store.language_of_address("nobody@example.org") is None


def test_upserts_keep_one_row_and_the_last_value(store):
    _match(store)
    store.put_submission("m1", 1, "ann", {"bid": 1}, "<a@x>", "h1", NOW)
    store.put_submission("m1", 1, "ann", {"bid": 2}, "<b@x>", "h2", NOW)
    assert store.submissions("m1", 1)["ann"]["orders"] == {"bid": 2} and store.submitted("m1", 1) == {"ann"}
    store.mark_processed("<a@x>", "h", "refused", None, NOW)
    store.mark_processed("<a@x>", "h", "accepted", "m1", NOW)
    assert store.processed("<a@x>", "h") == "accepted"
    store.put_rate_bucket("x@example.org", {"n": 1})
    store.put_rate_bucket("x@example.org", {"n": 2})
    assert store.rate_bucket("x@example.org") == {"n": 2}
    assert store.add_observer("m1", "o@example.org", None) and not store.add_observer("m1", "o@example.org", "de")
    store.set_wait("m1", 1, "ann", True)
    store.set_wait("m1", 1, "ann", True)
    assert store.waits("m1", 1) == {"ann"}
    assert store.note_fault("tick", "m1", "m1", "boom", NOW) and not store.note_fault("tick", "m1", "m1", "again", NOW)
    assert [(f["count"], f["error"]) for f in store.faults()] == [(2, "again")]


@pytest.mark.parametrize("hostile", ["50% of ? and ?? %s %(x)s", "'; DROP TABLE matches; --", "\u00fc\u00df\u2603 \x01"])
def test_values_with_placeholder_and_quote_characters_pass_untouched(store, hostile):
    """Only the SQL text is translated (?, %), never a value."""
    _match(store, spec={"language": "en", "title": hostile})
    store.add_player("m1", "ann", hostile, "ann@example.org", None, "k")
    store.enqueue(hostile, "m1", "ann@example.org", hostile.encode(), NOW)
    assert store.match("m1")["spec"]["title"] == hostile
    assert store.player_names("m1") == {"ann": hostile}
    assert store.outbox_entry(hostile)["message"] == hostile.encode()
    assert len(store.matches()) == 1


def test_turn_seeds_beyond_64_bit_signed_and_json_columns(store):
    _match(store)
    seed = 2**64 - 1
    store.add_turn(match="m1", number=1, state={"a": [1, 2]}, awaiting={"ann": "bid"}, deadline=NOW, seed=seed,
                   opened=NOW)
    t = store.current_turn("m1")
    assert t["seed"] == seed and t["state"] == {"a": [1, 2]} and t["awaiting"] == {"ann": "bid"}
    store.resolve_turn("m1", 1, {"hash": "x", "mails": {}}, NOW)
    assert store.take_unarchived() == [{"match": "m1", "number": 1}]
    store.set_archived("m1", 1, {"hash": "x"})
    assert store.turn("m1", 1)["result"] == {"hash": "x"} and store.take_unarchived() == []
    store.reopen_turn("m1", 1, None)
    assert store.turn("m1", 1)["rev"] == 1 and store.turn("m1", 1)["status"] == "open"


def test_outbox_once_per_key_answers_first_and_scrubbed_once_sent(store):
    for key in ("report:m1:1.0:ann", "reply:<a>", "welcome:m1:ann"):
        assert store.enqueue(key, "m1", "ann@example.org", b"body " + key.encode(), NOW)
    assert not store.enqueue("reply:<a>", "m1", "ann@example.org", b"again", NOW)
    claimed = store.claim_due(NOW, 10, "me", lambda *a: False)
    assert [r["dedupe"] for r in claimed] == ["reply:<a>", "welcome:m1:ann", "report:m1:1.0:ann"]
    assert store.claim_due(NOW, 10, "other", lambda *a: False) == []   # all claimed
    welcome = store.outbox_entry("welcome:m1:ann")
    store.record_attempt(welcome["id"], "sent", None, NOW, NOW, scrub=True)
    assert store.outbox_entry("welcome:m1:ann")["message"] == b""
    # a lost claim is taken over
    again = store.claim_due(NOW + timedelta(minutes=1), 10, "other", lambda owner, at: owner == "me")
    assert sorted(r["dedupe"] for r in again) == ["reply:<a>", "report:m1:1.0:ann"]
    assert {r["claimed_by"] for r in store.outbox(status="sending")} == {"other"}


def test_requeue_puts_sent_and_failed_rows_back_as_never_tried(store):
    for key in ("report:m1:1.0:ann", "report:m1:1.0:bob", "report:m1:1.0:cyd"):
        store.enqueue(key, "m1", "x@example.org", b"body", NOW)
    ann, bob, cyd = store.claim_due(NOW, 10, "me", lambda *a: False)
    store.record_attempt(ann["id"], "sent", None, NOW, NOW)
    store.record_attempt(bob["id"], "failed", "550 no", NOW, None)
    with store.transaction():
        assert store.requeue([ann["id"], bob["id"]]) == 2
    rows = {r["dedupe"]: r for r in store.outbox("m1")}
    for key in ("report:m1:1.0:ann", "report:m1:1.0:bob"):
        assert (rows[key]["status"], rows[key]["attempts"], rows[key]["sent_at"], rows[key]["claimed_by"],
                rows[key]["last_error"]) == ("queued", 0, None, None, None)
    assert rows["report:m1:1.0:cyd"]["status"] == "sending"   # not named: left alone
    assert [r["id"] for r in store.claim_due(NOW, 10, "other", lambda *a: False)] == [ann["id"], bob["id"]]


def test_a_failed_transaction_leaves_nothing_and_nested_ones_join(store):
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.add_observer("m", "a@example.org", None)
            with store.transaction():
                store.add_observer("m", "b@example.org", None)
            raise RuntimeError("boom")
    assert store.observers("m") == []
