"""A close writes its turn's record (orders.yaml, turn.json) from what it just committed,
not from the store read back (issue 8: that read decoded the whole result again): the
files are byte for byte the ones the store's copy gives, hostile values included."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from types import SimpleNamespace

from referee_kit import clock, game, inbound, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.game_api import fastjson
from referee.turns import commit as closing_mod
from referee.turns.commit import committed_record


def _record(ref, number: int) -> dict[str, bytes]:
    d = ref.archive.turn_dir("toy1", number)
    return {name: (d / name).read_bytes() for name in ("orders.yaml", "turn.json")}


def test_the_record_from_the_close_is_byte_for_byte_the_one_from_the_stored_turn(ref, outbox, game, clock, monkeypatch):
    read = []
    real_turn = ref.store.turn
    monkeypatch.setattr(ref.store, "turn", lambda m, n: read.append((m, n)) or real_turn(m, n))
    ref.handle(inbound("ann@example.org", f"match: toy1\nplayer: ann\nkey: {game['ann']}\nturn: 1\norders:\n  bid: 3\n"))
    assert ref.force("toy1") == "turn 1 closed"
    assert ("toy1", 1) not in read   # the record came from the close, not read back
    from_close = _record(ref, 1)
    assert b"source: player" in from_close["orders.yaml"] and b"source: default" in from_close["orders.yaml"]
    ref.closing.archive_turn("toy1", 1)   # the repair's path: from the store
    assert _record(ref, 1) == from_close
    assert ref.store.turn("toy1", 1)["archived"]


def _plan(result: dict, now: datetime) -> SimpleNamespace:
    return SimpleNamespace(result=result, now=now, turn={"number": 4, "rev": 2, "seed": 2 ** 63 + 5})


def test_hostile_values_are_recorded_as_the_store_gives_them_back():
    """Tuples, int keys, key order, unicode, huge ints and floats: what the store's JSON makes of them."""
    result = {"orders": {"zed": {"source": "player", "orders": {"b": (1, 2), "a": "Köln 😀\u2028\x00"}},
                         "amy": {"source": "default", "orders": {}}},
              "hash": "ab" * 32, "log": [{"kind": "x", "data": {"n": [1.5, 1e-05, 1e16, 2 ** 70], "deep": [[[[[{}]]]]]},
                      "by_seat": {3: "c", 1: "a"}}],
              "outcome": {"winner": ("amy",)}, "missing": ["amy"], "mails": {"amy": {"lang": "de", "subject": "Zug"}},
              "state": {"not": "recorded"}, "pictures": {"k": "<svg/>"}}
    now = datetime(2026, 3, 2, 10, 0, tzinfo=timezone(timedelta(hours=2)))
    turn, got = committed_record(_plan(result, now))
    stored = fastjson.loads(fastjson.dumps_sorted(result))
    for key in closing_mod._RECORDED:
        assert got[key] == stored[key] and list(got[key]) == list(stored[key])   # value and key order
    assert "state" not in got and "pictures" not in got
    assert turn == {"rev": 2, "seed": 2 ** 63 + 5, "closed": now.astimezone(UTC).isoformat()}


def test_a_result_holding_report_bodies_is_read_back_from_the_store():
    """The disk refused the staged reports: the store holds the bodies, and the store's copy is what gets rewritten."""
    result = {"orders": {}, "hash": "", "log": [], "outcome": None, "missing": [],
              "mails": {"amy": {"lang": "en", "subject": "s", "text": "body", "html": "<p>body</p>"}}}
    assert committed_record(_plan(result, datetime(2026, 1, 1, tzinfo=UTC))) is None


def test_standings_from_a_view_made_already_are_the_standings_read_from_the_state():
    from referee.game_api import registry
    from referee.game_api.contract import PUBLIC, Rng
    from referee.render import standings
    rules = registry.get("founding_fathers")
    state = rules.setup(["ann", "bob", "cyd"], {}, Rng(7))
    made = []

    def public():
        made.append(1)
        return rules.view(state, PUBLIC)
    assert standings.of_view(rules, public) == standings.read(rules, state) != {}
    assert made == [1]

    class Failing:
        def standings(self, view):
            raise KeyError("public")
    assert standings.of_view(Failing(), lambda: {}) == {}   # an extra: a failing hook costs no report
