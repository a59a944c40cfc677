"""The short summary of the rules a player finds in the welcome mail (en, de)."""
from __future__ import annotations

SUMMARY = {
    "en": """\
Nations: The Dice Game. You build a nation over four ages with dice.
- Each age, every player rolls their dice when their first action comes up.
  In turn order each of you takes one action: buy a progress tile from the
  board (buildings, military, advisors, colonies, wonders) paying with dice
  faces and markers, reroll dice (with a reroll marker), build the wonder
  under construction, or pass.
- By mail you send a plan: steps tried in order whenever your action comes
  up; "ask" stops the plan and asks you again.
- At the end of each age books give culture, then famine (food) and war
  (strength) are scored; a new turn order follows.
- After the fourth age the most victory points wins (tiles held count too).""",
    "de": """\
Nations: Das Würfelspiel. Du baust in vier Zeitaltern mit Würfeln eine Nation auf.
- In jedem Zeitalter würfelt jeder, wenn seine erste Aktion an der Reihe ist.
  Reihum macht jeder eine Aktion: ein Fortschrittsplättchen vom Spielplan
  kaufen (Gebäude, Militär, Berater, Kolonien, Weltwunder) und mit Würfel-
  seiten und Markern bezahlen, Würfel neu werfen (mit einem Neuwurf-Marker),
  am Weltwunder im Bau bauen oder passen.
- Per Mail schickst du einen Plan: Schritte, die der Reihe nach versucht
  werden, wann immer deine Aktion an der Reihe ist; "ask" hält den Plan an
  und fragt dich erneut.
- Am Ende jedes Zeitalters bringen Bücher Kultur, dann werden Hungersnot
  (Nahrung) und Krieg (Stärke) gewertet; eine neue Zugreihenfolge folgt.
- Nach dem vierten Zeitalter gewinnen die meisten Siegpunkte (auch die der
  Plättchen).""",
}


def rules_summary(lang: str) -> str:
    return SUMMARY.get(lang) or SUMMARY["en"]
