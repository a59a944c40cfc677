"""A fault in a game (or in the referee) costs one mail or one turn, never the service."""
from __future__ import annotations

import re

import toygame
from referee_kit import SPEC, clock, game, inbound, outbox, ref, text_of, toy_registered  # noqa: F401  (the authority's fixtures)


def test_a_game_fault_while_checking_orders_refuses_that_mail_once(ref, outbox, monkeypatch):
    ref.create_match(SPEC)
    key = [re.search(r"Your key: (\S+)", text_of(m)).group(1) for m in outbox.flush() if m["To"] == "ann@example.org"][0]

    def broken(state, player, orders):
        raise RuntimeError("bug in validate")
    monkeypatch.setattr(toygame.RULES, "validate", broken)
    mail = inbound("ann@example.org", f"match: toy1\nplayer: ann\nkey: {key}\nturn: 1\norders:\n  bid: 1\n")
    assert ref.handle(mail).reason == "internal.error"
    assert ref.handle(mail).duplicate
    [reply] = outbox.flush()
    assert "internal fault" in text_of(reply)
    assert ref.store.submissions("toy1", 1) == {}


def test_a_game_fault_while_resolving_keeps_the_turn_open_and_other_matches_going(ref, outbox, clock, monkeypatch):
    ref.create_match(SPEC)
    ref.create_match(dict(SPEC, id="toy2"))
    outbox.flush()
    real = toygame.RULES.resolve

    def flaky(state, orders, rng):
        if state["secret"] and flaky.broken:
            raise ValueError("bug in resolve")
        return real(state, orders, rng)
    flaky.broken = True
    monkeypatch.setattr(toygame.RULES, "resolve", flaky)
    clock.advance(hours=49)
    first = ref.tick()
    assert sorted(first.failed) == [("toy1", 1), ("toy2", 1)] and first.closed == []
    ref.tick()
    faults = [m for m in outbox.flush() if "could not be resolved" in m["Subject"]]
    assert len(faults) == 2 and all(m["To"] == "gm@example.org" for m in faults)
    assert ref.store.current_turn("toy1")["status"] == "open"
    flaky.broken = False
    assert sorted(ref.tick().closed) == [("toy1", 1), ("toy2", 1)]
