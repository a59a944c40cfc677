"""A turn whose orders are all in but held from closing early says why: orders with a fault
wait to be corrected (named so, in the acceptance and in the status), and only a player who
sent ``command: wait`` is listed as having asked to wait; in English and German."""
from __future__ import annotations

from referee_kit import clock, game, inbound, outbox, ratsspiel_match, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)


def orders(seat: str, key: str, cards: str) -> str:
    return f"match: rat\nplayer: {seat}\nkey: {key}\nturn: 1\norders:\n  ereigniskarten: [{cards}]\n  auswahl: 1\n"


def status(ref, outbox, seat: str, key: str) -> str:
    assert ref.handle(inbound(f"{seat}@example.org", f"match: rat\nplayer: {seat}\nkey: {key}\ncommand: status\n")).reason \
        == "status"
    return text_of(to(outbox.flush(), f"{seat}@example.org")[0])


def test_orders_with_a_fault_hold_the_close_as_waiting_for_corrected_orders_not_as_asked_to_wait(ref, outbox):
    keys = ratsspiel_match(ref, outbox)
    good = "familienstern, fremdes_revier, kaiserhof"
    assert ref.handle(inbound("alrik@example.org", orders("alrik", keys["alrik"], "familienstern, fremdes_revier, marionete"))).reason == "accepted"
    outbox.flush()
    assert ref.handle(inbound("boronian@example.org", orders("boronian", keys["boronian"], good))).reason == "accepted"
    accepted = text_of(to(outbox.flush(), "boronian@example.org")[0])
    assert "The turn does not close early yet: the orders of Alrik carry a fault and wait to be corrected." in accepted
    assert "closes early, without waiting" not in accepted
    assert ref.tick().closed == []
    en, de = status(ref, outbox, "boronian", keys["boronian"]), status(ref, outbox, "alrik", keys["alrik"])
    assert "Waiting for corrected orders from: Alrik" in en and "Asked to wait" not in en
    assert "Warten auf berichtigte Befehle von: Alrik" in de and "Warten gewünscht" not in de
    # asked to wait: named as such, beside the fault
    assert ref.handle(inbound("boronian@example.org", "match: rat\nplayer: boronian\nkey: "
                              f"{keys['boronian']}\ncommand: wait\n")).reason == "wait"
    outbox.flush()
    de = status(ref, outbox, "alrik", keys["alrik"])
    assert "Warten gewünscht von: Boronian" in de and "Warten auf berichtigte Befehle von: Alrik" in de
    # corrected: the German acceptance names only the one who asked to wait
    assert ref.handle(inbound("alrik@example.org", orders("alrik", keys["alrik"], good))).reason == "accepted"
    accepted = text_of(to(outbox.flush(), "alrik@example.org")[0])
    assert "Der Zug schließt noch nicht früher: Boronian hat um Aufschub gebeten." in accepted
    assert ref.tick().closed == []
    assert ref.handle(inbound("boronian@example.org", "match: rat\nplayer: boronian\nkey: "
                              f"{keys['boronian']}\ncommand: no-wait\n")).reason == "no-wait"
    assert ref.tick().closed == [("rat", 1)]
