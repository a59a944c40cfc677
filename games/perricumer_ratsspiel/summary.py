"""The short summary of the rules a player finds in the welcome mail (de, en)."""
from __future__ import annotations

SUMMARY = {
    "de": """\
Das Perricumer Ratsspiel: Ihr sitzt im Rat der Reichsstadt Perricum. Jeder Zug
ist eine Ratssitzung; alle schicken ihre Befehle zugleich.
- Deine geheime Agenda (im Bericht) nennt Stadtwerte, die dir am Ende Bonus-
  punkte bringen. Die Stadtwerte, die Ämter und der Rat stehen in jedem Bericht.
- In der ersten Runde wählst du drei Ereigniskarten ("ereigniskarten:") und
  einen Vorschlag für die nächste Sitzung ("auswahl:").
- Danach in jeder Sitzung: höchstens eine Ereigniskarte; Aktionspunkte für
  Verwaltungsarbeit (senkt die Korruption), Wahlkampf (mehr Einfluss) und
  Einflussnahme (stimmt Ratsmitglieder der Spielleitung für oder gegen einen
  Vorschlag); deine Stimmen zu jedem Vorschlag ("abstimmung:") und dein
  Vorschlag für die nächste Sitzung.
- Wer mit dem Ergebnis stimmt, gewinnt Einfluss nach Viertel und Schicht.
- Das Spiel endet mit Korruption 13, einer Machtübernahme oder nach der
  letzten Runde: der meiste Einfluss mit dem Bonus der Agenda gewinnt.
Fehlt eine Angabe oder ist sie fehlerhaft, gilt die Standardaktion.""",
    "en": """\
The Perricum council game: you sit in the council of the imperial city of
Perricum. Each turn is one council session; everyone sends orders at once.
- Your secret agenda (in the report) names city values that give you bonus
  points at the end. The city values, the offices and the council are in
  every report.
- In the first round you choose three event cards ("ereigniskarten:") and a
  proposal for the next session ("auswahl:").
- Then in every session: at most one event card; action points for
  administration (lowers corruption), campaigning (more influence) and
  persuasion (turns the GM's councillors for or against a proposal); your
  votes on each proposal ("abstimmung:") and your pick for the next session.
- Voting with the result gains influence by your quarter and your estate.
- The game ends when corruption reaches 13, when someone seizes power, or
  after the last round: the most influence, with your agenda's bonus, wins.
A missing or faulty part of your orders is replaced by its default action.""",
}


def rules_summary(lang: str) -> str:
    return SUMMARY.get(lang) or SUMMARY["de"]
