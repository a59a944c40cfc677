"""A close counts its seats' turns in one statement (issue 8: one insert per seat before),
with what one insert a seat gave: every seat's row, a repeated close counted once, a
rollback's later rows replaced, odd player ids kept as given.  Runs on SQLite and PostgreSQL."""
from __future__ import annotations

from storefix import backend, location, statements, store, store_at  # noqa: F401 (fixtures)

from referee.store import seats


def _rows(store, match: str) -> list[tuple]:
    return [(r["player"], r["turn"], r["missed"]) for r in
            store._all("SELECT player, turn, missed FROM seat_turns WHERE match=? ORDER BY turn, player", (match,))]


def test_a_tables_seats_are_counted_in_one_statement(store):
    with statements(store) as ran, store.transaction():
        seats.record_turn(store, "m1", 1, {f"p{i:02d}": i % 3 == 0 for i in range(12)})
    assert len([s for s in ran if s.startswith("INSERT INTO seat_turns")]) == 1
    assert _rows(store, "m1") == [(f"p{i:02d}", 1, int(i % 3 == 0)) for i in range(12)]


def test_many_seats_odd_ids_and_a_repeated_close_count_once(store):
    odd = ["o'neil", "ä\"\\", "😀", "x" * 300, "Robert'); DROP TABLE seat_turns;--", "a b"]
    many = {f"s{i:04d}": bool(i % 2) for i in range(450)} | {p: True for p in odd}   # more than one statement's rows
    with store.transaction():
        seats.record_turn(store, "m2", 3, many)
        seats.record_turn(store, "m2", 3, many)   # the close repeated: counted once
        seats.record_turn(store, "other", 3, {"s0000": True})
    want = sorted((p, 3, int(m)) for p, m in many.items())
    assert sorted(_rows(store, "m2")) == want
    assert _rows(store, "other") == [("s0000", 3, 1)]
    assert seats.streak(store, "m2", "😀", 5) == 1 and seats.streak(store, "m2", "s0000", 5) == 0


def test_a_rolled_back_turns_later_rows_are_written_anew_and_no_seat_writes_nothing(store):
    with store.transaction():
        seats.record_turn(store, "m3", 1, {"ann": True, "bob": False})
        seats.record_turn(store, "m3", 2, {"ann": True, "bob": True})
        seats.record_turn(store, "m3", 1, {"ann": False})   # turn 1 again after a rollback: turn 2's rows go
        seats.record_turn(store, "m4", 1, {})
    assert _rows(store, "m3") == [("ann", 1, 0)]
    assert _rows(store, "m4") == []
