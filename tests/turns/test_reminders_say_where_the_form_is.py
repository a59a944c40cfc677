"""A reminder carries the whole order mail (issue 10): the envelope on top with a
placeholder for the key, the right turn, the form to fill in."""
from __future__ import annotations

from referee_kit import SPEC, inbound, text_of, to
from referee_kit import doc, keys_of
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


def test_reminders_carry_the_whole_order_mail_for_the_right_turn(ref, outbox, clock):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    clock.advance(hours=37)          # 11h before the first deadline: the 12h reminder
    ref.tick()
    sent = outbox.flush()
    assert "match: toy1\nplayer: ann\nkey: YOUR-KEY\nturn: 1\norders:\n  bid: 0" in text_of(to(sent, "ann@example.org")[0])
    assert "key: DEIN-SCHLUESSEL\nturn: 1\norders:" in text_of(to(sent, "bob@example.org")[0])
    for p in ("ann", "bob", "cyd"):
        ref.handle(inbound(f"{p}@example.org", doc(p, keys[p], "turn: 1\norders:\n  bid: 1\n")))
    ref.tick()                       # everyone in: turn 1 closes early
    outbox.flush()
    clock.advance(hours=37)
    ref.tick()
    [reminder] = to(outbox.flush(), "ann@example.org")
    assert reminder["Subject"] == "[toy1] Reminder: orders for turn 2"
    text = text_of(reminder)
    assert "player: ann\nkey: YOUR-KEY\nturn: 2\norders:" in text
