"""The short summary of the rules a player finds in the welcome mail (en, de)."""
from __future__ import annotations

SUMMARY = {
    "en": """\
Founding Fathers: Philadelphia, 1787. Each of you leads delegates of the
Constitutional Convention; the articles of the constitution come up one by one.
- First, everyone keeps 2 of the 4 delegate cards dealt.
- Then one player acts per turn: "vote" (play cards of one state to declare
  its delegation yea or nay on the article in the Assembly), "debate" (play
  cards to move a faction ahead on its debate track), "event" (play a card's
  event) or "snub" (discard); then take cards from the draw pool to refill.
- At the end of each round the Assembly's article passes or fails, the
  Committee Room and the debates are scored, and the next article comes up.
- After the last round each faction on the resolved articles gives an end
  bonus (5, 4, 3, 2 by its place) to the players holding its tokens.
  The most points wins.""",
    "de": """\
Founding Fathers: Philadelphia, 1787. Ihr führt Delegierte des Verfassungs-
konvents; die Artikel der Verfassung kommen einer nach dem anderen zur Abstimmung.
- Zuerst behält jeder 2 der 4 ausgeteilten Delegiertenkarten.
- Danach handelt in jedem Zug ein Spieler: "vote" (Karten eines Staates spielen
  und dessen Delegation mit Ja oder Nein zum Artikel der Versammlung erklären),
  "debate" (Karten spielen, um eine Faktion auf ihrer Debattenleiste vorzu-
  rücken), "event" (das Ereignis einer Karte spielen) oder "snub" (abwerfen);
  dann aus der Auslage Karten nachziehen.
- Am Ende jeder Runde wird der Artikel der Versammlung angenommen oder
  abgelehnt, Ausschuss und Debatten werden gewertet, der nächste Artikel folgt.
- Nach der letzten Runde gibt jede Faktion auf den entschiedenen Artikeln
  einen Schlussbonus (5, 4, 3, 2 nach ihrem Platz) an die Spieler mit ihren
  Markern. Die meisten Punkte gewinnen.""",
}


def rules_summary(lang: str) -> str:
    return SUMMARY.get(lang) or SUMMARY["en"]
