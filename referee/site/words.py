"""The site's own words in English and German (the game's report brings its own)."""
from __future__ import annotations

WORDS = {
    "en": {"turns": "Turns", "turn": "Turn", "closed": "Closed", "missing": "Defaulted (no valid orders)",
           "nobody": "—", "standings": "Standings over the turns", "no_standings": "This game declares no standings.",
           "picture": "The board after turn {n}", "index": "All turns", "previous": "Previous turn",
           "next": "Next turn", "winners": "Winners", "game": "Game", "players": "Players",
           "schemas": "Order schemas (JSON Schema, for editors)", "stage": "Stage", "report": "Public report",
           "ongoing": "The match goes on.", "generated": "Built from the archive turns/{match}/.",
           "chronicle": "The chronicle", "letter_from": "A letter from", "table_talk": "Table talk to everyone",
           "unsigned": "(unsigned)", "rules": "The rules for players",
           "bot": "bot", "bots": "Played by a bot"},
    "de": {"turns": "Züge", "turn": "Zug", "closed": "Geschlossen", "missing": "Standardbefehle (keine gültigen Befehle)",
           "nobody": "—", "standings": "Stand über die Züge", "no_standings": "Dieses Spiel nennt keinen Stand.",
           "picture": "Das Spielbrett nach Zug {n}", "index": "Alle Züge", "previous": "Voriger Zug",
           "next": "Nächster Zug", "winners": "Sieger", "game": "Spiel", "players": "Spieler",
           "schemas": "Befehls-Schemata (JSON Schema, für Editoren)", "stage": "Phase", "report": "Öffentlicher Bericht",
           "ongoing": "Die Partie läuft noch.", "generated": "Erstellt aus dem Archiv turns/{match}/.",
           "chronicle": "Die Chronik", "letter_from": "Ein Brief von", "table_talk": "Tischgespräche an alle",
           "unsigned": "(unsigniert)", "rules": "Die Regeln für Spieler",
           "bot": "Bot", "bots": "Vom Bot gespielt"},
}


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])
