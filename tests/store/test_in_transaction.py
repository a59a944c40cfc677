"""``store.in_transaction()``: whether THIS thread is inside one of the store's write
transactions (a GM's force by mail closes under the mail's transaction), on both backends."""
from __future__ import annotations

import threading

from storefix import backend, location, store, store_at  # noqa: F401 (fixtures)


def test_in_transaction_only_inside_one_and_only_for_its_own_thread(store):
    assert store.in_transaction() is False
    seen_elsewhere: list[bool] = []
    with store.transaction():
        assert store.in_transaction() is True
        with store.transaction():   # a nested call joins the outer one
            assert store.in_transaction() is True
        assert store.in_transaction() is True
        other = threading.Thread(target=lambda: seen_elsewhere.append(store.in_transaction()))
        other.start()
        other.join()
    assert seen_elsewhere == [False]   # another thread's question while this one holds it
    assert store.in_transaction() is False


def test_in_transaction_is_false_after_a_rolled_back_one(store):
    try:
        with store.transaction():
            raise KeyError("refused")
    except KeyError:
        pass
    assert store.in_transaction() is False
