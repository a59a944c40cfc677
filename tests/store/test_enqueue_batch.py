"""``enqueue_batch``: a close's reports queued in one statement (issue 8), with what
``enqueue`` promises one at a time: once per dedupe key, the bytes as given, nothing
if the block fails.  Runs on SQLite and (REFEREE_TEST_STORE=postgresql) PostgreSQL."""
from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from storefix import backend, location, statements, store, store_at  # noqa: F401 (fixtures)

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def rows(store) -> list[tuple]:
    return [(r["dedupe"], r["recipient"], bytes(r["message"]), r["status"]) for r in store.outbox()]


def test_a_batch_queues_every_row_once_with_its_bytes_in_one_statement(store):
    store.enqueue("report:old", None, "old@example.org", b"sent before", NOW)
    with statements(store) as ran:
        with store.transaction(), store.enqueue_batch():
            for i in range(250):   # more than one statement's worth (100 rows)
                assert store.enqueue(f"report:{i:03d}", None, f"p{i}@example.org", b"\x00\xffbody %d" % i, NOW)
            store.enqueue("report:old", None, "old@example.org", b"again", NOW)   # a key queued already
            store.enqueue("report:007", None, "p7@example.org", b"twice in the batch", NOW)
            assert [s for s in ran if "outbox" in s] == []   # nothing written before the batch ends
    assert len([s for s in ran if "INSERT INTO outbox" in s]) == 3
    got = {d: (to, body) for d, to, body, _ in rows(store)}
    assert len(got) == 251
    assert got["report:old"] == ("old@example.org", b"sent before")
    assert got["report:007"] == ("p7@example.org", b"\x00\xffbody 7")   # the first of a key stands
    assert got["report:249"] == ("p249@example.org", b"\x00\xffbody 249")


def test_a_batch_whose_block_fails_queues_nothing(store):
    with pytest.raises(RuntimeError), store.transaction(), store.enqueue_batch():
        store.enqueue("report:a", None, "a@example.org", b"a", NOW)
        raise RuntimeError("the close failed")
    assert rows(store) == []
    assert store.enqueue("report:a", None, "a@example.org", b"a", NOW)   # unbatched again, and answers
    assert not store.enqueue("report:a", None, "a@example.org", b"a", NOW)


def test_another_threads_enqueue_is_not_taken_into_a_batch(store):
    answered = []
    with store.enqueue_batch():
        store.enqueue("report:mine", None, "a@example.org", b"a", NOW)
        other = threading.Thread(target=lambda: answered.append(
            store.enqueue("confirm:theirs", None, "b@example.org", b"b", NOW)))
        other.start()
        other.join()
        assert [r[0] for r in rows(store)] == ["confirm:theirs"]   # written at once, the batch's not yet
    assert answered == [True]
    assert sorted(r[0] for r in rows(store)) == ["confirm:theirs", "report:mine"]
