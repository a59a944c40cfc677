"""``referee store copy``: a running campaign moves from SQLite to PostgreSQL;
every row is compared and every match replayed from the copy, and the
campaign carries on there."""
from __future__ import annotations

import re
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
import toygame

from referee.app.cli import main
from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.render.renderer import Renderer
from referee.store import open_store
from referee.store.copy import differences

V1 = Path(__file__).parent / "data" / "v1"


@pytest.fixture
def campaign(tmp_path):
    """The v1 campaign brought to this schema, plus a second match two turns on."""
    shutil.copytree(V1, tmp_path / "c")
    registry.register(toygame.RULES)
    store = open_store(tmp_path / "c" / "referee.sqlite", migrate=True)
    clock = [store.match("toy1") and __import__("datetime").datetime.fromisoformat(store.current_turn("toy1")["opened"])]
    ref = Referee(store, tmp_path / "c" / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]), lambda: clock[0],
                  Settings(address="referee@example.org", rate_limit_per_hour=20))
    spec = {"id": "toy2", "game": "toybid", "title": "Toy Two", "gm": "gm@example.org", "language": "de",
            "timezone": "UTC", "options": {"rounds": 4}, "schedule": {"period": "24h", "grace": "0m"},
            "players": [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("zed", "amy")]}
    ref.create_match(spec)
    for _ in range(2):
        clock[0] += timedelta(hours=25)
        ref.tick()
    store.close()
    yield tmp_path / "c" / "referee.sqlite"
    registry.unregister(toygame.RULES.name)


def test_a_campaign_moves_to_postgresql_and_plays_on(campaign, postgres, capsys, tmp_path):
    url = postgres.new_database()
    assert main(["store", "copy", str(campaign), url]) == 0
    out = capsys.readouterr().out
    assert re.search(r"toy1: 2 turns replayed from the copy, every state hash matches", out), out
    assert re.search(r"toy2: 2 turns replayed from the copy, every state hash matches", out), out
    source, target = open_store(campaign), open_store(url)
    try:
        assert differences(source, target) == []
        assert [p["id"] for p in target.players("toy1")] == ["cyd", "ann", "bob"]
        # the copy goes on: a new outbox row gets an id after the copied ones
        top = max(r["id"] for r in target.outbox())
        assert target.enqueue("test:after-copy", None, "x@example.org", b"x", __import__("datetime").datetime.now())
        assert target.outbox_entry("test:after-copy")["id"] > top
    finally:
        source.close()
        target.close()
    # copying twice into the same database is refused: nothing is mixed
    assert main(["store", "copy", str(campaign), url]) == 1
    assert "not empty" in capsys.readouterr().err


@pytest.mark.parametrize("url, says", [
    ("sqlite:///x", "no PostgreSQL address"),
    ("postgresql://referee:secret@127.0.0.1:1/x", "must not hold a password"),
    ("postgresql://referee@127.0.0.1:1/x", "cannot open the store"),
])
def test_a_bad_target_is_refused_in_a_line(campaign, url, says, capsys):
    assert main(["store", "copy", str(campaign), url]) in (1, 2)
    err = capsys.readouterr().err
    assert says in err and "secret" not in err and "Traceback" not in err
