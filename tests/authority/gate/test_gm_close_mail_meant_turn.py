"""A GM's mailed close means the turn that was open when the mail arrived.  When
that turn was closed before the mail was read (by the deadline, or by another
worker while the mail waited for the match), the GM is told so and the next turn
is left alone: before, it was closed at once with nobody's orders in it."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

from referee_kit import clock, game, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)


def close_mail(key: str, received):
    mail = inbound("gm@example.org", f"match: toy1\nplayer: \"@gm\"\nkey: {key}\ncommand: close\n")
    return dataclasses.replace(mail, received=received)


def test_a_close_mailed_before_the_deadline_closed_the_turn_leaves_the_next_turn_open(ref, outbox, game, clock):
    arrived = clock.advance(hours=1)
    clock.advance(hours=49)
    ref.tick()   # the deadline closes turn 1 before the GM's mail is read
    assert ref.store.current_turn("toy1")["number"] == 2
    outbox.flush()
    ref.handle(close_mail(game["@gm"], arrived))
    assert ref.store.current_turn("toy1")["number"] == 2 and ref.store.current_turn("toy1")["status"] == "open"
    (answer,) = to(outbox.flush(), "gm@example.org")
    assert "Turn 1 was just closed" in text_of(answer)


def test_a_close_mailed_while_the_turn_is_open_closes_it(ref, outbox, game, clock):
    ref.tick()
    arrived = clock.advance(minutes=5)
    ref.handle(close_mail(game["@gm"], arrived))
    assert ref.store.current_turn("toy1")["number"] == 2


def test_a_close_with_a_received_time_from_the_future_is_taken_for_the_open_turn(ref, outbox, game, clock):
    ref.handle(close_mail(game["@gm"], clock() + timedelta(days=400)))   # a skewed server clock proves nothing
    assert ref.store.current_turn("toy1")["number"] == 2
