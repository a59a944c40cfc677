"""A German match: every mail of the referee in German, as far as the match goes."""
from __future__ import annotations

import re

from referee_kit import SPEC, clock, game, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)


def test_german_match_speaks_german_to_players_and_gm(ref, outbox, clock):
    players = [dict(p, lang=None) for p in SPEC["players"]]
    created = ref.create_match(dict(SPEC, id="de1", language="de", players=players))
    sent = outbox.flush()
    assert "Partie angelegt" in to(sent, "gm@example.org")[0]["Subject"]
    key = re.search(r"Dein Schlüssel: (\S+)", text_of(to(sent, "ann@example.org")[0])).group(1)
    assert "Mittwoch, 4. März 2026, 10:00 Uhr MEZ" in text_of(to(sent, "ann@example.org")[0])

    ref.handle(inbound("fremd@example.net", "match: de1\nplayer: ann\nkey: FALSCH\nturn: 1\norders:\n  bid: 1\n"))
    ref.handle(inbound("ann@handy.example", f"match: de1\nplayer: ann\nkey: {key}\nturn: 1\norders:\n  bid: 1\n"))
    ref.handle(inbound("gm@example.org", f"match: de1\nplayer: '@gm'\nkey: {created.gm_key}\ncommand: pause\n"))
    ref.handle(inbound("gm@example.org", f"match: de1\nplayer: '@gm'\nkey: {created.gm_key}\ncommand: resume\n"))
    subjects = [m["Subject"] for m in outbox.flush()]
    for expected in ("falschem Schlüssel", "Kopie", "Befehle für Zug 1 angenommen", "Spielleitung pause: erledigt",
                     "angehalten", "fortgesetzt", "Nicht angenommen"):
        assert any(expected in s for s in subjects), (expected, subjects)
    ref.force("de1")
    reports = outbox.flush()
    assert all("Bericht, Zug 1" in m["Subject"] for m in reports)
    assert "DEIN-SCHLUESSEL" in text_of(to(reports, "ann@example.org")[0])
