"""The GM's replies read from the GM's side: a command that cannot be carried out
says why in the match's language, at the line of the argument at fault, and a
German GM's confirmations are German through and through."""
from __future__ import annotations

import pytest
from referee_kit import SPEC, clock, game, inbound, keys_of, outbox, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.authority.wording import Refusal


def gm(key, body, match):
    return f"match: {match}\nplayer: \"@gm\"\nkey: {key}\n{body}"


@pytest.fixture
def german(ref, outbox):
    ref.create_match(dict(SPEC, id="de1", language="de"))
    return keys_of(outbox)["gm"]


def refusal(ref, outbox, key, body, match="de1") -> str:
    assert ref.handle(inbound("gm@example.org", gm(key, body, match))).outcome == "refused"
    [reply] = to(outbox.flush(), "gm@example.org")
    return text_of(reply)


def test_gm_command_failures_are_german_and_located(ref, outbox, german):
    text = refusal(ref, outbox, german, "command: extend\nby: bald\n")
    assert "Zeile 5, Spalte 5: 'bald' ist keine Dauer wie 24h, 7d oder 1d12h." in text
    text = refusal(ref, outbox, german, "command: extend\nuntil: morgen\n")
    assert "Zeile 5, Spalte 8: 'morgen' ist kein Zeitpunkt" in text
    text = refusal(ref, outbox, german, "command: resume\n")
    assert "Nur eine angehaltene Partie lässt sich fortsetzen (Stand: läuft)." in text and "running" not in text
    text = refusal(ref, outbox, german, "command: replace\nseat: ann\n")
    assert "Das Kommando 'replace' braucht auch 'email:'." in text
    text = refusal(ref, outbox, german, "command: replace\nseat: zed\nemail: z@example.org\n")
    assert "Zeile 5, Spalte 7: Diese Partie hat keinen Spieler 'zed'" in text
    text = refusal(ref, outbox, german, "command: rollback\n")
    assert "Noch ist kein Zug ausgewertet" in text


def test_gm_command_failures_in_english_point_at_the_argument(ref, outbox):
    ref.create_match(SPEC)
    key = keys_of(outbox)["gm"]
    text = refusal(ref, outbox, key, "command: extend\nuntil: tomorrow\n", match="toy1")
    assert "Line 5, column 8: 'tomorrow' is not a date and time such as \"2026-03-07 20:00\"" in text
    text = refusal(ref, outbox, key, "command: extend\n", match="toy1")
    assert "Line 4, column 10: 'extend' needs 'by: 24h' or 'until:" in text


def test_the_command_line_still_reads_an_english_reason(ref, outbox):
    ref.create_match(SPEC)
    with pytest.raises(ValueError, match="Only a paused match can be resumed; this one is running"):
        ref.gm_command("toy1", "resume", {})
    assert isinstance(Refusal("gm.extend_none"), ValueError)


def test_german_gm_confirmations_are_german(ref, outbox, german):
    for body in ("command: pause\n", "command: resume\n", "command: extend\nby: 24h\n", "command: status\n"):
        assert ref.handle(inbound("gm@example.org", gm(german, body, "de1"))).outcome == "processed"
    texts = [text_of(m) for m in to(outbox.flush(), "gm@example.org") if "erledigt" in m["Subject"]]
    assert len(texts) == 4
    said = "\n".join(t.splitlines()[0] for t in texts)
    for expected in ("Die Partie ist angehalten", "Die Partie läuft wieder.", "Der Abgabeschluss ist verschoben",
                     "Der Stand der Partie:"):
        assert expected in said
    assert not any(word in said for word in ("paused", "resumed", "deadline", "Erledigt: status"))
