"""A tick's close is one write transaction (issue 8), its fault cleared in it; the record
written after it is flagged archived in one more."""
from __future__ import annotations

from referee_kit import toy_league
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


def _writes(ref, monkeypatch) -> dict:
    """Outermost write transactions, and writing statements run outside any."""
    seen = {"transactions": 0, "alone": []}
    db, store = ref.store._db, ref.store
    real_tx, real_exec = db.transaction, db.execute

    def transaction():
        if not store.in_transaction():
            seen["transactions"] += 1
        return real_tx()

    def execute(sql, args=()):
        if sql.lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE") and not store.in_transaction():
            seen["alone"].append(sql)
        return real_exec(sql, args)
    monkeypatch.setattr(db, "transaction", transaction)
    monkeypatch.setattr(db, "execute", execute)
    return seen


def _archived(ref, match: str, number: int) -> bool:
    return bool(ref.store.turn(match, number)["archived"])


def test_a_tick_writes_one_transaction_a_close_and_one_for_its_record(tmp_path, clock, monkeypatch):
    ref = toy_league(tmp_path, clock, 3)
    ref.tick()   # the first pass's own chores (the close guard's beat, the archive repair) out of the count
    clock.advance(hours=49)
    seen = _writes(ref, monkeypatch)
    assert sorted(ref.tick().closed) == [("toy0", 2), ("toy1", 2), ("toy2", 2)]
    assert seen["alone"] == []   # no fault cleared, no flag set outside a transaction
    assert seen["transactions"] <= 3 * 2 + 1, seen   # three closes and their records; one for the guard's beat at most
    for m in ("toy0", "toy1", "toy2"):
        assert _archived(ref, m, 2) and (ref.archive.turn_dir(m, 2) / "turn.json").exists()
    assert ref.store.take_unarchived() == []


def test_a_close_that_succeeds_clears_its_fault_in_its_own_transaction(tmp_path, clock, monkeypatch):
    ref = toy_league(tmp_path, clock, 1)
    game = type(ref.lookups.rules(ref.store.match("toy0")))
    real_resolve = game.resolve

    def resolve(self, *a, **k):
        raise RuntimeError("a bug in the game")
    monkeypatch.setattr(game, "resolve", resolve)   # the first close fails: a fault is noted
    assert ref.tick().failed == [("toy0", 1)]
    assert [f["item"] for f in ref.store.faults()] == ["toy0:1.0"]
    monkeypatch.setattr(game, "resolve", real_resolve)
    seen = _writes(ref, monkeypatch)
    assert ref.tick().closed == [("toy0", 1)]
    assert ref.store.faults() == [] and seen["alone"] == []
