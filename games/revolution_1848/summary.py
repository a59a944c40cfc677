"""The short summary of the rules a player finds in the welcome mail (en, de);
the whole rules for players are RULES.de.md / RULES.en.md (``referee rules revolution_1848``)."""
from __future__ import annotations

SUMMARY = {
    "en": """\
1848: the German revolution of 1848/49. With person cards (value 1 to 8) of the
four parties (Republicans RR, Democrats DL, Liberals L, Reactionaries R) and
Zusatzkarten (additional cards) you fight, trick by trick, for the
Ablaufkarten (the events A01, A02 ...); the reports keep these German names.
- In turn you play a card, push a hand card under its deck, or pass. A pass
  holds until an army or a storm-bell card brings everyone back; the trick
  ends when all have passed.
- The strongest party on the table (everyone's persons together) wins the
  trick: whoever holds most of it takes the Ablaufkarte and notes the party's
  whole strength. Armies with a commander decide instead, by military points
  counted half. A tie is a stalemate: each player in it notes their own share
  and the card is played for again.
- After each trick everyone draws up to 6 cards (at most 2 persons and 2
  Zusatzkarten).
- By mail you send a plan for the trick: steps tried in order whenever it is
  your turn (play, push, pass, ask me), with conditions if you like. Without
  orders you pass.
- The game ends when someone has won 6 Ablaufkarten (2 players), 5 (3) or 4
  (4). A party with an absolute majority of all votes gives 5 victory points
  to the player holding most of it; otherwise the parties give 4, 3, 2 and 1
  by rank. The most victory points win.""",
    "de": """\
1848: die deutsche Revolution von 1848/49. Mit Personenkarten (Wert 1 bis 8)
der vier Parteien (Republikaner RR, Demokraten DL, Liberale L, Reaktionäre R)
und Zusatzkarten kämpft ihr Stich um Stich um die Ablaufkarten (A01, A02 ...).
- Wer dran ist, spielt eine Karte aus, schiebt eine Handkarte unter ihren
  Stapel oder passt. Wer passt, bleibt draußen, bis eine Armee- oder
  Sturmglocken-Karte alle zurückholt; der Stich endet, wenn alle gepasst haben.
- Die stärkste Partei am Tisch (die Personen aller Spieler zusammen) gewinnt
  den Stich: wer die Mehrheit in ihr hat, nimmt die Ablaufkarte und notiert
  die ganze Stärke der Partei. Liegen Armeen mit Heerführern aus, entscheidet
  statt dessen das Militär, dessen Punkte halb zählen. Gleichstand ist ein
  Patt: jeder Beteiligte notiert seinen Anteil, um die Karte wird neu gespielt.
- Nach jedem Stich zieht jeder auf bis zu 6 Karten nach (höchstens 2
  Personen- und 2 Zusatzkarten).
- Per Post schickst du einen Plan für den Stich: Schritte, die der Reihe nach
  geprüft werden, wann immer du dran bist (ausspielen, schieben, passen, frag
  mich), auf Wunsch mit Bedingungen. Ohne Befehl passt du.
- Das Spiel endet, sobald jemand 6 Ablaufkarten gewonnen hat (2 Spieler),
  5 (3) oder 4 (4). Hat eine Partei die absolute Mehrheit aller Stimmen, bekommt
  der Spieler mit den meisten Stimmen in ihr 5 Siegpunkte; sonst geben die
  Parteien nach Rang 4, 3, 2 und 1. Die meisten Siegpunkte gewinnen.""",
}


def rules_summary(lang: str) -> str:
    return SUMMARY.get(lang) or SUMMARY["en"]
