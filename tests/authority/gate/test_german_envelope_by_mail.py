"""Issue #10: a German player's mail with the envelope in German (``partie:``,
``spieler:``, ``schlüssel:``, ``zug:``, ``befehle:``) is taken like an English one,
through the whole door; before, it got only "no order document found"."""
from __future__ import annotations

from referee_kit import clock, game, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)


def test_german_envelope_orders_are_accepted(ref, outbox, game):
    body = (f"Hallo,\n\nPartie: toy1\nSpieler: bob\nSchlüssel: {game['bob']}\nZug: 1\nBefehle:\n  bid: 2\n\n"
            "Gruß, Bob\n")
    handled = ref.handle(inbound("bob@example.org", body))
    assert (handled.outcome, handled.reason) == ("processed", "accepted")
    [reply] = to(outbox.flush(), "bob@example.org")
    assert "angenommen" in reply["Subject"] and "bid: 2" in text_of(reply)
    assert ref.store.submissions("toy1", 1)["bob"]["orders"] == {"bid": 2}


def test_german_envelope_command_and_a_wrong_key_are_answered_in_german(ref, outbox, game):
    handled = ref.handle(inbound("bob@example.org", f"partie: toy1\nspieler: bob\nschluessel: {game['bob']}\n"
                                                    "kommando: status\n"))
    assert handled.reason == "status"
    handled = ref.handle(inbound("bob@example.org", "partie: toy1\nspieler: bob\nschluessel: FALSCH-1234\n"
                                                    "befehle:\n  bid: 1\n"))
    assert (handled.outcome, handled.reason) == ("refused", "key.wrong")
    replies = to(outbox.flush(), "bob@example.org")
    assert all("FALSCH-1234" not in text_of(m) for m in replies)
    assert any("Der Schlüssel passt nicht" in text_of(m) for m in replies)
