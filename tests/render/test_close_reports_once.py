"""What every report of a close shares is worked out once for the close (close_compute.Shared):
a defaulted player's orders are the ones the close used (not made again from a second load of
the state), the log entries are made once, and each distinct board picture is hashed once."""
from __future__ import annotations

import sys

from referee_kit import SPEC, clock, game, inbound, outbox, ref, toy_registered  # noqa: F401 (fixtures)

from referee.authority.gate.orders import orders_text
from referee.game_api import registry
from referee.turns.compute import pictures_once


def orders(player: str, key: str, bid: int) -> str:
    return f"match: toy1\nplayer: {player}\nkey: {key}\nturn: 1\norders:\n  bid: {bid}\n"


def test_a_defaulted_players_report_shows_the_default_orders_the_close_used(ref, outbox, game, monkeypatch):
    rules = registry.get(SPEC["game"])
    opened = ref.store.turn("toy1", 1)["state"]
    expected = {p: orders_text(rules.default_orders(rules.load(opened), p).model_dump(mode="json"))
                for p in ("bob", "cyd")}
    loads = []   # the referee's loads of a state (the toy game's resolve loads a copy itself)
    real_load = type(rules).load

    def load(self, data):
        if sys._getframe(1).f_code.co_filename.endswith("compute.py"):
            loads.append(data)
        return real_load(self, data)
    monkeypatch.setattr(type(rules), "load", load)
    ref.handle(inbound("ann@example.org", orders("ann", game["ann"], 2)))
    loads.clear()
    assert ref.force("toy1") == "turn 1 closed"
    result = ref.store.turn("toy1", 1)["result"]
    assert result["missing"] == ["bob", "cyd"]
    folder = ref.archive.turn_dir("toy1", 1) / "reports"
    for p, lang in (("bob", "de"), ("cyd", "en")):
        assert result["orders"][p]["source"] == "default"
        for kind in ("txt", "html"):
            report = (folder / f"{p}.{lang}.{kind}").read_text(encoding="utf-8")
            assert expected[p] in report
    ann = (folder / "ann.en.txt").read_text(encoding="utf-8")
    assert "default orders were used for you" not in ann
    assert len(loads) == 1   # the close loaded the turn's state once: its defaults were not made again


def test_each_distinct_picture_is_keyed_once_and_every_reader_gets_its_key():
    board_en, board_de = "<svg>" + "x" * 5000 + "</svg>", "<svg>" + "y" * 5000 + "</svg>"
    copy_en = "".join(["<svg>", "x" * 5000, "</svg>"])   # an equal SVG, another object
    mails = {"ann": {"picture": board_en}, "bob": {"picture": board_de}, "cyd": {"picture": copy_en},
             "_gm": {"picture": None}, "_public.en": {}}
    found = pictures_once(mails)
    assert len(found) == 2 and set(found.values()) == {board_en, board_de}
    assert mails["ann"]["picture"] == mails["cyd"]["picture"] != mails["bob"]["picture"]
    assert found[mails["bob"]["picture"]] == board_de
    assert mails["_gm"]["picture"] is None and "picture" not in mails["_public.en"]
