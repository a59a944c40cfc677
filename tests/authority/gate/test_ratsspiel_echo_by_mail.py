"""Issue #10, through the referee: a Ratsspiel player's acceptance echoes the orders
as the session will use them (10 + 10 AP sent: Verwaltungsarbeit 12 echoed, the
warning beside it), with no null fields, in German and English."""
from __future__ import annotations

import re

from referee_kit import clock, game, inbound, outbox, ratsspiel_match, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)


def test_the_acceptance_echoes_the_standardaktion_not_the_refused_actions(ref, outbox):
    keys = ratsspiel_match(ref, outbox)
    ref.force("rat")             # round one: cards drawn by lot
    outbox.flush()
    state = ref.rules(ref.store.match("rat")).load(ref.store.current_turn("rat")["state"])
    votes = "\n".join(f"    {nr}: pro" for nr in state["session"]) or "    {}"
    for seat in ("alrik", "boronian"):
        body = (f"match: rat\nplayer: {seat}\nkey: {keys[seat]}\nturn: 2\norders:\n  ereigniskarte: keine\n"
                f"  aktionen:\n    verwaltungsarbeit: 10\n    wahlkampf: 10\n  abstimmung:\n{votes}\n"
                f"  auswahl: {state['selection'][0]}\n")
        assert ref.handle(inbound(f"{seat}@example.org", body)).reason == "accepted"
    sent = outbox.flush()
    de, en = text_of(to(sent, "alrik@example.org")[0]), text_of(to(sent, "boronian@example.org")[0])
    for text in (de, en):
        echo = text.split("So verstanden:" if text is de else "As understood:")[1].split("\n\n")[1]
        assert "verwaltungsarbeit: 12" in echo and "wahlkampf: 0" in echo and "10" not in echo, echo
        assert "null" not in text and "ereigniskarte: keine" in echo
    # the fault comes first, before the echo (issue 33: no silent defaults)
    assert de.index("Standardaktion Verwaltungsarbeit (12)") < de.index("So verstanden:")
    assert en.index("administration (verwaltungsarbeit) 12") < en.index("As understood:")


def test_orders_whose_every_part_takes_its_default_echo_that_in_words_not_as_an_empty_mapping(ref, outbox):
    keys = ratsspiel_match(ref, outbox)
    for seat in ("alrik", "boronian"):   # round one: a misspelt card and a proposal not on offer
        body = (f"match: rat\nplayer: {seat}\nkey: {keys[seat]}\nturn: 1\norders:\n"
                "  ereigniskarten: [familienstern, fremdes_revier, marionete]\n  auswahl: 99\n")
        assert ref.handle(inbound(f"{seat}@example.org", body)).reason == "accepted"
    sent = outbox.flush()
    de, en = text_of(to(sent, "alrik@example.org")[0]), text_of(to(sent, "boronian@example.org")[0])
    assert "So verstanden:\n\n  (nichts Eigenes: für jeden Teil gilt die Standardaktion)\n" in de, de
    assert "As understood:\n\n  (nothing of your own: every part takes its default)\n" in en, en
    assert "{}" not in de and "{}" not in en
