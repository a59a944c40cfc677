"""What the intake noticed while reading (tabs read as spaces, further attachments
left aside) reaches the player as warnings with the accepted orders."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from referee_kit import REFEREE, SPEC, clock, doc, game, inbound, keys_of, outbox, ref, text_of, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.mail.inbound import parse_inbound


def test_tab_indented_orders_are_taken_with_a_warning(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    assert ref.handle(inbound("ann@example.org", doc("ann", keys["ann"], "turn: 1\norders:\n\tbid: 2\n"))).reason == "accepted"
    text = text_of(outbox.flush()[0])
    assert "Warnings (the orders stand" in text
    assert "Tabs at the start of line 6 were read as two spaces each." in text


def test_a_second_attachment_left_aside_is_mentioned(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = ("ann@example.org", REFEREE, "orders",
                                                                 make_msgid(domain="players.example"))
    msg.set_content("Attached.\n")
    for name, bid in (("new.yaml", 3), ("old.yaml", 1)):
        msg.add_attachment(doc("ann", keys["ann"], f"turn: 1\norders:\n  bid: {bid}\n").encode(),
                           maintype="application", subtype="x-yaml", filename=name)
    assert ref.handle(parse_inbound(msg.as_bytes(), own_addresses=[REFEREE])).reason == "accepted"
    text = text_of(outbox.flush()[0])
    assert "bid: 3" in text and "old.yaml" in text, text
