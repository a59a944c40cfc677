"""Replies read from the player's and the GM's side: each says which match it is
about, what was understood (no empty fields the player never wrote), and where
the deadline stands, in the match's language."""
from __future__ import annotations

import re

import pytest
from referee_kit import (  # noqa: F401  (the authority's fixtures)
    SPEC,
    Outbox,
    clock,
    doc,
    game,
    inbound,
    keys_of,
    make_referee,
    outbox,
    ref,
    text_of,
    to,
    toy_registered,
)

from referee.authority.gate.intake import orders_text


def test_refusal_of_a_broken_envelope_names_the_known_match(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    handled = ref.handle(inbound("ann@example.org", doc("ann", keys["ann"], "turn: 1\noders:\n  bid: 2\n")))
    assert handled.outcome == "refused" and handled.match is None   # nothing proven, nothing attributed
    [reply] = outbox.flush()
    assert reply["Subject"] == "Re: [toy1] Not accepted"
    text = text_of(reply)
    assert "not accepted in match toy1" in text
    assert "Line 5, column 1: Unknown entry 'oders' (did you mean 'orders'?)" in text
    assert keys["ann"] not in text


def test_refusal_of_a_broken_envelope_from_a_stranger_names_no_match(ref, outbox):
    players = [dict(p, lang=None) for p in SPEC["players"]]
    ref.create_match(dict(SPEC, id="de1", language="de", players=players))
    outbox.flush()
    ref.handle(inbound("neu@example.net", doc("ann", "X", "turn: 1\nordres:\n  bid: 2\n", match="de1")))
    [reply] = outbox.flush()
    assert reply["Subject"] == "Not accepted / Nicht angenommen"
    assert "de1" not in text_of(reply) and "ordres" not in text_of(reply)
    assert "Willkommensmail" in text_of(reply) and "welcome mail" in text_of(reply)


def test_orders_text_leaves_out_empty_fields_the_player_never_wrote():
    orders = {"wahl": None, "karten": [], "stimmen": {}, "auswahl": 2, "leer": []}
    assert orders_text(orders, {"auswahl", "leer"}) == "auswahl: 2\nleer: []"
    assert orders_text(orders) == "auswahl: 2"          # stored orders: who set what is unknown
    assert orders_text({"bid": 0}, {"bid"}) == "bid: 0"  # a zero or false is an order, not an empty field


@pytest.fixture
def ratsspiel(tmp_path, clock):
    ref = make_referee(tmp_path, clock)
    outbox = Outbox(ref, tmp_path / "out")
    players = [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in ("anna", "bert", "cora")]
    ref.create_match(dict(SPEC, id="rat", game="perricumer_ratsspiel", players=players, options={}, language="de"))
    yield ref, outbox, keys_of(outbox)
    ref.store.close()


def test_accepted_and_status_echo_only_what_the_player_set(ratsspiel):
    ref, outbox, keys = ratsspiel
    assert ref.handle(inbound("anna@example.org", doc("anna", keys["anna"], "turn: 1\norders:\n  auswahl: 2\n",
                                                      match="rat"))).reason == "accepted"
    ref.handle(inbound("anna@example.org", doc("anna", keys["anna"], "command: status\n", match="rat")))
    accepted, status = outbox.flush()
    for text in (text_of(accepted), text_of(status)):
        assert "auswahl: 2" in text
        assert "null" not in text and "{}" not in text, text


def pause(ref, keys):
    return ref.handle(inbound("gm@example.org", doc("@gm", keys["gm"], "command: pause\n")))


def paused_match(ref, outbox) -> dict:
    """The match created and paused by its GM, the mails so far sent; the keys."""
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    assert pause(ref, keys).reason == "pause"
    outbox.flush()
    return keys


def test_orders_accepted_while_paused_say_the_deadline_is_stopped(ref, outbox):
    keys = paused_match(ref, outbox)
    ref.handle(inbound("ann@example.org", doc("ann", keys["ann"], "turn: 1\norders:\n  bid: 2\n")))
    ref.handle(inbound("bob@example.org", doc("bob", keys["bob"], "turn: 1\norders:\n  bid: 1\n")))
    sent = outbox.flush()
    ann, bob = text_of(to(sent, "ann@example.org")[0]), text_of(to(sent, "bob@example.org")[0])
    assert "UTC) as it stands; stopped while the match is paused" in ann   # the deadline as it stands (issue 33)
    assert "nach jetzigem Stand; angehalten, solange die Partie ruht" in bob


def test_an_extend_while_paused_states_the_new_deadline(ref, outbox):
    # issue 33: the "Deadline moved" notice of a paused match named no deadline at all
    keys = paused_match(ref, outbox)
    ref.handle(inbound("gm@example.org", doc("@gm", keys["gm"], "command: extend\nby: 24h\n")))
    sent = outbox.flush()
    [ann] = [m for m in to(sent, "ann@example.org") if "Deadline moved" in m["Subject"]]
    deadline = ref.store.current_turn("toy1")["deadline"]
    assert deadline[11:16] in text_of(ann) and "as it stands" in text_of(ann)
    [bob] = [m for m in to(sent, "bob@example.org") if "Abgabeschluss verschoben" in m["Subject"]]   # a whole subject in German
    assert "nach jetzigem Stand" in text_of(bob)


def test_english_notices_have_readable_subjects(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    pause(ref, keys)
    ref.handle(inbound("gm@example.org", doc("@gm", keys["gm"], "command: resume\n")))
    ref.handle(inbound("gm@example.org", doc("@gm", keys["gm"], "command: extend\nby: 24h\n")))
    subjects = {m["Subject"] for m in to(outbox.flush(), "ann@example.org")}
    assert subjects == {"[toy1] Match paused", "[toy1] Match resumed", "[toy1] Deadline moved"}


def test_german_gm_welcome_says_the_match_runs_in_german(ref, outbox):
    ref.create_match(dict(SPEC, id="de2", language="de"))
    text = text_of(to(outbox.flush(), "gm@example.org")[0])
    assert "Die Partie de2 (Toy One) läuft." in text
    assert "running" not in text


def test_resend_before_any_report_says_no_turn_is_resolved_yet(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    ref.handle(inbound("ann@example.org", doc("ann", keys["ann"], "command: resend\n")))
    text = text_of(outbox.flush()[0])
    assert "No turn has been resolved yet" in text and "turn 0" not in text


def test_the_reports_key_placeholder_is_named_as_such(ref, outbox):
    ref.create_match(SPEC)
    keys_of(outbox)
    handled = ref.handle(inbound("ann@example.org", doc("ann", "YOUR-KEY", "turn: 1\norders:\n  bid: 2\n")))
    assert handled.outcome == "refused" and handled.reason == "key.placeholder"
    [reply] = outbox.flush()
    assert "Line 3, column 6: 'YOUR-KEY' only holds the place of your key" in text_of(reply)
    ref.handle(inbound("bob@example.org", doc("bob", "dein-schluessel", "turn: 1\norders:\n  bid: 2\n")))
    [reply] = outbox.flush()
    assert "'dein-schluessel' hält nur den Platz für deinen Schlüssel frei" in text_of(reply)


def test_a_placeholder_key_from_a_stranger_sends_the_owner_nothing(ref, outbox):
    ref.create_match(SPEC)
    keys_of(outbox)
    ref.handle(inbound("stranger@example.net", doc("ann", "YOUR-KEY", "turn: 1\norders:\n  bid: 2\n")))
    assert [m["To"] for m in outbox.flush()] == ["stranger@example.net"]


def test_a_refusal_asks_for_a_corrected_document_only_when_there_is_something_to_correct(ref, outbox, clock):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    ref.handle(inbound("ann@example.org", doc("ann", keys["ann"], "turn: 2\norders:\n  bid: 2\n")))
    assert "Correct the document and send it again." in text_of(outbox.flush()[0])
    ref.handle(inbound("ann@example.org", doc("ann", keys["ann"], "command: resend\n")))
    text = text_of(outbox.flush()[0])
    assert "No turn has been resolved yet" in text and "Correct the document" not in text
    clock.advance(days=3)   # past the deadline and its grace, not yet ticked
    ref.handle(inbound("bob@example.org", doc("bob", keys["bob"], "turn: 1\norders:\n  bid: 2\n")))
    text = text_of(outbox.flush()[0])
    assert "nimmt seit" in text and "Korrigiere" not in text


def attached(sender: str, yaml_text: str):
    from email.message import EmailMessage
    from email.utils import make_msgid

    from referee_kit import REFEREE

    from referee.mail.inbound import parse_inbound
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, REFEREE, "orders", make_msgid(domain="players.example")
    msg.set_content("My orders are attached.\n")
    msg.add_attachment(yaml_text.encode(), maintype="application", subtype="x-yaml", filename="meine.yaml")
    return parse_inbound(msg.as_bytes(), own_addresses=[REFEREE])


def test_problems_in_an_attachment_name_the_file(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox)
    ref.handle(attached("ann@example.org", doc("ann", keys["ann"], "turn: 1\norders:\n  bid: 9\n")))
    text = text_of(outbox.flush()[0])
    assert "In the attached file meine.yaml, line 6, column 8: 'bid' must be at most 5." in text, text
    ref.handle(attached("bob@example.org", doc("bob", keys["bob"], "turn: 1\norders:\n  bid: 9\n")))
    assert "In der angehängten Datei meine.yaml, Zeile 6, Spalte 8:" in text_of(outbox.flush()[0])


@pytest.mark.parametrize("body", [
    "match: toy1\nplayer: ann\nkey: K\nturn: 1\norders:\n  bid: [2\n",                  # a YAML error
    "match: toy1\nplayer: ann\norders: {bid: 1}\n---\nmatch: toy1\nplayer: ann\norders: {bid: 2}\n",  # two documents
])
def test_an_unreadable_document_is_still_answered_in_its_matchs_name(ref, outbox, body):
    ref.create_match(SPEC)
    keys_of(outbox)
    assert ref.handle(inbound("ann@example.org", body)).match is None
    [reply] = outbox.flush()
    assert reply["Subject"] == "Re: [toy1] Not accepted"


def test_a_mail_naming_two_matches_is_answered_without_one(ref, outbox):
    ref.create_match(SPEC)
    keys_of(outbox)
    ref.handle(inbound("ann@example.org", "match: toy1\norders: {bid: 1}\n---\nmatch: toy2\norders: {bid: 2}\n"))
    assert outbox.flush()[0]["Subject"] == "Re: Not accepted"
