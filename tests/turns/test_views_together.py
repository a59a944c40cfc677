"""Every reader's view of a close made at once (``contract.views_of``): the Ratsspiel
builds its public part once and hands every reader that very object, so the reports'
shared public part is digested once a close and then found by identity, not digested once
a reader; a game
without ``views`` is asked ``view`` once a reader.  Real close, real store."""
from __future__ import annotations

import json

from referee_kit import Clock

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.game_api.contract import GM, views_of
from referee.pictures import board as pictures
from referee.render import shared as render_shared
from referee.render.renderer import Renderer
from referee.store import open_store
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

SEATS = [f"p{k}" for k in range(5)]


def ratsspiel_due(root, clock: Clock) -> Referee:
    ref = Referee(open_store(root / "referee.sqlite"), root / "turns", Renderer(), clock,
                  Settings(address="referee@league.test"))
    spec = {"id": "r1", "game": "perricumer_ratsspiel", "lang": "de", "gm": "gm@league.test",
            "schedule": {"period": "48h"}, "early_close": False,
            "players": [{"id": p, "name": p.upper(), "email": f"{p}@league.test"} for p in SEATS]}
    ref.create_match(spec, seed="views")
    clock.advance(hours=49)
    return ref


def test_a_close_asks_the_ratsspiel_for_every_readers_view_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(pictures, "WORKERS", 0)
    clock = Clock()
    ref = ratsspiel_due(tmp_path, clock)
    ref.tick()   # the first close: the second reads the standings it kept, not a view of its old state
    clock.advance(hours=49)
    cls = type(registry.get("perricumer_ratsspiel"))
    asked: list[list] = []
    one_by_one: list = []
    views, view = cls.views, cls.view
    monkeypatch.setattr(cls, "views", lambda self, s, vs: asked.append(list(vs)) or views(self, s, vs))
    monkeypatch.setattr(cls, "view", lambda self, s, v: one_by_one.append(v) or view(self, s, v))
    digested: list[set] = []
    digest_of = render_shared.digest_of
    monkeypatch.setattr(render_shared, "digest_of", lambda values: digested.append(set(values)) or digest_of(values))

    assert ref.tick().closed == [("r1", 2)]

    assert asked == [SEATS + [None, GM]]
    assert one_by_one == []
    # the text's and the HTML's public part digested once each (the part cache's key), not once a reader
    assert sorted(sorted(names) for names in digested if "pub" in names) == [["L", "X", "pub"], ["pub"]]


def test_the_ratsspiel_hands_every_reader_one_public_part_equal_to_its_view(tmp_path, monkeypatch):
    monkeypatch.setattr(pictures, "WORKERS", 0)
    ref = ratsspiel_due(tmp_path, Clock())
    ref.tick()
    rules = registry.get("perricumer_ratsspiel")
    state = rules.load(ref.store.current_turn("r1")["state"])
    readers = SEATS + [None, GM]

    together = rules.views(state, readers)

    assert list(together) == readers
    assert all(v["public"] is together[None]["public"] for v in together.values())
    for reader in readers:
        assert json.dumps(together[reader], sort_keys=True) == json.dumps(rules.view(state, reader), sort_keys=True)


def test_a_game_without_views_is_asked_view_once_a_reader(monkeypatch):
    rules = registry.get("founding_fathers")
    assert not hasattr(rules, "views")
    state = object()   # never read: view is counted, not run
    asked: list = []
    monkeypatch.setattr(type(rules), "view", lambda self, s, v: asked.append(v) or {"public": {}, "private": {}})

    got = views_of(rules, state, ["a", "b", None, GM])

    assert asked == ["a", "b", None, GM]
    assert list(got) == ["a", "b", None, GM]
