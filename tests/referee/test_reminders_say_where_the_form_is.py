"""A reminder tells the player where their order form is, so they know what to send."""
from __future__ import annotations

from conftest import SPEC, inbound, text_of, to
from test_player_view_of_replies import doc, keys_of


def test_reminders_point_at_the_welcome_mail_then_at_the_last_report(ref, outbox, clock):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    clock.advance(hours=37)          # 11h before the first deadline: the 12h reminder
    ref.tick()
    sent = outbox.flush()
    assert "Your order form is in your welcome mail." in text_of(to(sent, "ann@example.org")[0])
    assert "Dein Befehlsformular steht in deiner Willkommensmail." in text_of(to(sent, "bob@example.org")[0])
    for p in ("ann", "bob", "cyd"):
        ref.handle(inbound(f"{p}@example.org", doc(p, keys[p], "turn: 1\norders:\n  bid: 1\n")))
    ref.tick()                       # everyone in: turn 1 closes early
    outbox.flush()
    clock.advance(hours=37)
    ref.tick()
    [reminder] = to(outbox.flush(), "ann@example.org")
    assert reminder["Subject"] == "[toy1] Reminder: orders for turn 2"
    text = text_of(reminder)
    assert "at the end of the report of turn 1" in text
    assert "mail 'command: resend' with 'turn: 1'" in text
