"""Issue #10: a report resent later carries no order form for a turn that has closed
since; the player's form for the current turn stands in its place (en and de).  The
report of the last closed turn, whose form is the current one, is resent as it was."""
from __future__ import annotations

import re

import pytest
from referee_kit import SPEC, clock, game, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.authority.order_mail import FORM_HEAD, HTML_MARK


@pytest.fixture
def game(ref, outbox):
    """SPEC's match over three rounds; the keys by seat."""
    ref.create_match(dict(SPEC, options={"rounds": 3}))
    return {m["To"].split("@")[0]: re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m)).group(1)
            for m in outbox.flush() if re.search(r"(?:Your key|Dein Schlüssel): ", text_of(m))}


def resend(p: str, key: str, turn: int) -> str:
    return f"match: toy1\nplayer: {p}\nkey: {key}\ncommand: resend\nturn: {turn}\n"


def resent(outbox, address: str, subject: str):
    [m] = [m for m in to(outbox.flush(), address) if subject in m["Subject"]]
    return text_of(m), m.get_body(("html",)).get_content()


def test_an_old_reports_closed_form_is_replaced_by_the_current_one(ref, outbox, game):
    ref.force("toy1")
    ref.force("toy1")   # turn 3 is open now; the report of turn 1 held the form of turn 2
    outbox.flush()
    assert ref.handle(inbound("cyd@example.org", resend("cyd", game["cyd"], 1))).reason == "resend"
    text, html = resent(outbox, "cyd@example.org", "Report, turn 1")
    assert "Bids:" in text
    assert "Your orders for turn 2:" not in text and "turn: 2" not in text
    assert "The order form of turn 2 is left out of this copy: that turn is closed." in text
    assert "Your orders for the current turn 3:" in text
    tail = text[text.index("current turn 3"):]
    assert "match: toy1\nplayer: cyd\nkey: YOUR-KEY\nturn: 3\norders:\n  bid: 0" in tail
    assert "turn: 2" not in html and "left out of this copy" in html and "turn: 3" in html

    assert ref.handle(inbound("bob@example.org", resend("bob", game["bob"], 1))).reason == "resend"
    text, html = resent(outbox, "bob@example.org", "Bericht, Zug 1")
    assert "Das Befehlsformular für Zug 2 fehlt in dieser Kopie: dieser Zug ist abgeschlossen." in text
    assert "Deine Befehle für den laufenden Zug 3:" in text and "key: DEIN-SCHLUESSEL\nturn: 3" in text
    assert "turn: 2" not in text and "fehlt in dieser Kopie" in html


def test_an_ended_matchs_old_report_comes_without_any_form(ref, outbox, game):
    for _ in range(3):
        ref.force("toy1")
    assert ref.store.match("toy1")["status"] == "ended"
    outbox.flush()
    assert ref.handle(inbound("ann@example.org", resend("ann", game["ann"], 1))).reason == "resend"
    text, _ = resent(outbox, "ann@example.org", "Report, turn 1")
    assert "left out of this copy" in text and "orders:" not in text and "current turn" not in text


def test_the_last_report_keeps_its_form_for_the_current_turn(ref, outbox, game):
    ref.force("toy1")
    [original] = [m for m in to(outbox.flush(), "cyd@example.org") if "Report, turn 1" in m["Subject"]]
    assert ref.handle(inbound("cyd@example.org", resend("cyd", game["cyd"], 1))).reason == "resend"
    text, html = resent(outbox, "cyd@example.org", "Report, turn 1")
    assert text == text_of(original) and FORM_HEAD["en"].format(turn=2) in text and HTML_MARK in html
    assert "left out" not in text
