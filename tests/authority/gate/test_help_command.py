"""A player who lost the welcome mail gets back what it gave: ``command: help`` answers with
the open turn's order form, the commands and the rules (a mail of their own), in the player's
language; a ``resend`` before any report does the same instead of refusing; a mail without a
``key:`` line is told so, and how to get a new key."""
from __future__ import annotations

import re

from referee_kit import clock, game, inbound, outbox, ratsspiel_match, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)

FORM_END = re.compile(r"\n(?:The rules for players|Die Regeln für Spielende|Commands:|Kommandos:)")


def ask(ref, seat: str, key: str, command: str) -> str:
    return ref.handle(inbound(f"{seat}@example.org", f"match: rat\nplayer: {seat}\nkey: {key}\ncommand: {command}\n")).reason


def form_in(text: str) -> str:
    start = text.index("match: rat\n")
    return text[start:FORM_END.search(text, start).start()]


def test_help_sends_the_order_form_the_commands_and_the_rules_in_the_players_language(ref, outbox):
    keys = ratsspiel_match(ref, outbox)
    assert ask(ref, "alrik", keys["alrik"], "help") == "help"
    assert ask(ref, "boronian", keys["boronian"], "help") == "help"
    sent = outbox.flush()
    for seat, placeholder, words in (("alrik", "DEIN-SCHLUESSEL", ("Dein Befehlsformular für Zug 1", "Kommandos:",
                                                                    "command: new-key", "eigenen Mail")),
                                     ("boronian", "YOUR-KEY", ("Your order form for turn 1", "Commands:",
                                                               "command: new-key", "mail of their own"))):
        [reply] = [m for m in to(sent, f"{seat}@example.org") if m["Subject"] == "Re: [rat] help"]
        text = text_of(reply)
        assert all(w in text for w in words), text
        form = form_in(text)
        assert f"player: {seat}\nkey: {placeholder}\nturn: 1\norders:\n" in form
        # the rules come in a mail of their own, in the player's language
        rules = [m for m in to(sent, f"{seat}@example.org") if m is not reply]
        opening = "Hier sind die Regeln" if seat == "alrik" else "Here are the rules"
        assert len(rules) == 1 and text_of(rules[0]).startswith(opening)
        # the form alone, the key put in, is a whole order mail the referee takes
        assert ref.handle(inbound(f"{seat}@example.org", form.replace(placeholder, keys[seat]))).reason == "accepted"


def test_a_resend_before_any_report_sends_the_welcomes_form_instead_of_refusing(ref, outbox):
    keys = ratsspiel_match(ref, outbox)
    assert ask(ref, "boronian", keys["boronian"], "resend") == "resend"
    [reply] = to(outbox.flush(), "boronian@example.org")[:1]
    text = text_of(reply)
    assert "No turn has been resolved yet, so there is no report to resend" in text
    assert ref.handle(inbound("boronian@example.org", form_in(text).replace("YOUR-KEY", keys["boronian"]))).reason \
        == "accepted"


def test_a_resend_of_a_turn_not_yet_reported_points_to_help(ref, outbox):
    keys = ratsspiel_match(ref, outbox)
    body = f"match: rat\nplayer: boronian\nkey: {keys['boronian']}\ncommand: resend\nturn: 1\n"
    assert ref.handle(inbound("boronian@example.org", body)).reason == "resend.none"
    assert "'command: help' sends your order form" in text_of(to(outbox.flush(), "boronian@example.org")[0])


def test_a_mail_without_a_key_line_is_told_the_key_is_missing_and_how_to_get_a_new_one(ref, outbox):
    ratsspiel_match(ref, outbox)
    body = "match: rat\nplayer: {seat}\nturn: 1\norders:\n  auswahl: 1\n"
    assert ref.handle(inbound("alrik@example.org", body.format(seat="alrik"))).reason == "key.missing"
    assert ref.handle(inbound("boronian@example.org", body.format(seat="boronian"))).reason == "key.missing"
    sent = outbox.flush()
    de, en = text_of(to(sent, "alrik@example.org")[0]), text_of(to(sent, "boronian@example.org")[0])
    assert "Es fehlt die Zeile 'key:'" in de and "command: new-key" in de and "passt nicht" not in de
    assert "There is no 'key:' line" in en and "command: new-key" in en and "does not fit" not in en
    assert "Line 1" not in en and "Zeile 1" not in de   # no place is pointed at for a line that is not there


def test_the_new_key_mail_shows_the_help_command_with_the_new_key(ref, outbox):
    keys = ratsspiel_match(ref, outbox)
    assert ask(ref, "boronian", keys["boronian"], "new-key") == "new-key"
    [mail] = [m for m in to(outbox.flush(), "boronian@example.org") if "new key" in m["Subject"]]
    text = text_of(mail)
    new = re.search(r"Your new key: (\S+)", text).group(1)
    assert f"key: {new}\ncommand: help" in text
    assert ask(ref, "boronian", new, "help") == "help"
