"""Every installed game played to its end through the authority, by mail documents
with random legal orders: nothing refused, every report rendered, replay exact."""
from __future__ import annotations

import re
from importlib.metadata import entry_points

import pytest
import yaml
from referee_kit import SPEC, Outbox, clock, game, inbound, make_referee, outbox, ref, text_of, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive.record import replay
from referee.game_api import registry
from referee.game_api.contract import Rng
from referee.game_api.scripted import random_player

INSTALLED = sorted(ep.name for ep in entry_points(group=registry.GROUP))
SEATS = ["madison", "paterson", "sherman", "pinckney", "hamilton"]


@pytest.mark.parametrize("game", INSTALLED)
def test_installed_game_by_mail_to_the_end(game, tmp_path, clock):
    rules = registry.get(game)
    ref = make_referee(tmp_path, clock)
    ref.settings.rate_limit_per_hour = 0
    outbox = Outbox(ref, tmp_path / "out")
    count = max(rules.min_players, 3)
    players = [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in SEATS[:count]]
    ref.create_match(dict(SPEC, id="real", game=game, players=players, options={}, language=rules.languages[0]))
    keys = {}
    for m in outbox.flush():
        hit = re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m))
        if hit:
            keys[m["To"].split("@")[0]] = hit.group(1)
    play, rng, turns = random_player(rules), Rng(11), 0
    while ref.store.match("real")["status"] == "running":
        turn = ref.store.current_turn("real")
        state = rules.load(turn["state"])
        for p in turn["awaiting"]:
            doc = {"match": "real", "player": p, "key": keys[p], "turn": turn["number"], "orders": play(state, p, rng)}
            handled = ref.handle(inbound(f"{p}@example.org", yaml.safe_dump(doc, allow_unicode=True)))
            assert handled.reason == "accepted", (turn["number"], p, [text_of(m) for m in outbox.flush()])
        clock.advance(minutes=10)
        assert ref.tick().closed == [("real", turn["number"])]
        reports = [m for m in outbox.flush() if "eport" in m["Subject"] or "ericht" in m["Subject"]]
        assert len(reports) == count + 2   # players, observer, GM
        turns += 1
        assert turns < 1000
    assert ref.store.turn("real", turns)["result"]["outcome"] is not None
    rep = replay(tmp_path / "turns" / "real")
    assert rep.ok and rep.turns == turns, rep.summary()
