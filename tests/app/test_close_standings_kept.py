"""A close keeps the standings of the state it makes on the next turn's row (issue 8), and
the next close reads them there instead of a fresh public view of its old state: the same
values, and the same reports byte for byte, on both games of the close bench."""
from __future__ import annotations

from pathlib import Path

from referee_kit import Clock, clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)
from test_close_pool_parts import real_league

from referee.render import standings


def _reports(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
            and ("reports" in p.parts or p.name == "turn.json")}


def _close(ref, clock, turns: int, forget: bool) -> None:
    for _ in range(turns):
        if forget:   # as a store migrated from before: no turn knows its standings
            with ref.store.transaction():
                ref.store._exec("UPDATE turns SET standings=NULL")
        assert len(ref.tick().closed) == 2
        clock.advance(hours=49)


def test_each_turn_keeps_the_standings_read_from_its_state(tmp_path, clock):
    ref = real_league(tmp_path, clock)
    _close(ref, clock, 3, forget=False)
    kept = 0
    for match in ("m0", "m1"):
        rules = ref.lookups.rules(ref.store.match(match))
        for turn in ref.store.turns(match)[1:]:   # the first turn was made by the start, not a close
            assert turn["standings"] is not None
            assert turn["standings"] == standings.read(rules, rules.load(turn["state"]))
            kept += any(turn["standings"].values())
    assert kept >= 4   # real numbers, not empty tables


def test_reports_from_kept_standings_are_byte_for_byte_those_from_the_state(tmp_path, monkeypatch):
    a, b = Clock(), Clock()
    kept = real_league(tmp_path / "kept", a)
    fresh = real_league(tmp_path / "fresh", b)
    _close(kept, a, 1, forget=False)
    _close(fresh, b, 1, forget=True)
    reads = []
    real_read = standings.read
    monkeypatch.setattr(standings, "read", lambda rules, state: reads.append(1) or real_read(rules, state))
    _close(kept, a, 2, forget=False)
    assert reads == []   # the kept standings were read, no public view of the old state made
    _close(fresh, b, 2, forget=True)
    assert len(reads) == 4
    got, want = _reports(tmp_path / "kept" / "turns"), _reports(tmp_path / "fresh" / "turns")
    assert got == want and any("standings" in k or "reports" in k for k in got)
