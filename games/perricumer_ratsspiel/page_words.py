"""The order page's words for the Ratsspiel's fields (issue 36): the session's phases
as the rules number them, and each field in the report's words.  The page reads the
game's messages ``field.<path>`` and ``kind.<path>.<kind>``."""
from __future__ import annotations

_FIELDS = {
    "spielername": ("Spielername", "Player name"),
    "spielerfigur": ("Spielerfigur", "Your councillor"),
    "ereigniskarten": ("Wahl der Ereigniskarten: drei verschiedene, für das ganze Spiel",
                       "Choice of event cards: three different ones, for the whole game"),
    "ereigniskarten.*": ("Karte", "Card"),
    "ereigniskarte": ("Phase 1 — Ereigniskarte (höchstens eine pro Runde)", "Phase 1 — Event card (at most one a round)"),
    "ereigniskarte.karte": ("Karte", "Card"),
    "ereigniskarte.viertel": ("Viertel", "Quarter"),
    "ereigniskarte.schicht": ("Schicht", "Estate"),
    "ereigniskarte.ziel": ("Ziel (Nichtspielerfigur)", "Target (non-player councillor)"),
    "ereigniskarte.vorschlag": ("Vorschlag", "Proposal"),
    "ereigniskarte.seite": ("Seite", "Side"),
    "ereigniskarte.abstimmung": ("Stimmen der Marionette (sonst stimmt sie wie du)",
                                 "The puppet's votes (else it votes as you do)"),
    "aktionen": ("Phase 2 — Aktionen: 12 Aktionspunkte (AP)", "Phase 2 — Actions: 12 action points (AP)"),
    "aktionen.verwaltungsarbeit": ("Verwaltungsarbeit", "Administration (verwaltungsarbeit)"),
    "aktionen.wahlkampf": ("Wahlkampf", "Campaigning (wahlkampf)"),
    "aktionen.einflussnahme": ("Einflussnahme auf Nichtspielerfiguren", "Influence on non-player councillors (einflussnahme)"),
    "aktionen.einflussnahme.*": ("Einflussnahme", "Influence"),
    "aktionen.einflussnahme.*.ziel": ("Nichtspielerfigur", "Non-player councillor"),
    "aktionen.einflussnahme.*.vorschlag": ("Vorschlag", "Proposal"),
    "aktionen.einflussnahme.*.richtung": ("Richtung (pro, contra oder bei Wahlen ein Kandidat)",
                                          "Direction (pro, contra or in elections a candidate)"),
    "aktionen.einflussnahme.*.punkte": ("Punkte (AP)", "Points (AP)"),
    "abstimmung": ("Phase 3 — Abstimmung (ohne Stimme: wie eine Nichtspielerfigur)",
                   "Phase 3 — Vote (without a vote: as a non-player councillor)"),
    "auswahl": ("Phase 5 — Auswahl: ein Vorschlag für die nächste Sitzung",
                "Phase 5 — Selection: one proposal for the next session"),
    # the game master's stage
    "nachziehen": ("Nachziehen: Vorschläge für Lücken und das Auffüllen, in dieser Reihenfolge",
                   "Refill: proposals to fill gaps and refill with, in this order"),
    "neue_vorschlaege": ("Neue Vorschläge, als Nächste ausgelegt", "New proposals, laid out next"),
    "nachziehen.*": ("Vorschlag", "Proposal"),
    "neue_vorschlaege.*": ("Neuer Vorschlag", "New proposal"),
    "neue_vorschlaege.*.pro.*": ("Symbol", "Symbol"),
    "neue_vorschlaege.*.contra.*": ("Symbol", "Symbol"),
    "neue_vorschlaege.*.candidates.*": ("Kandidat", "Candidate"),
    "agenda_veroeffentlichen.*": ("Spieler", "Player"),
    "neue_vorschlaege.*.title_de": ("Titel (deutsch)", "Title (German)"),
    "neue_vorschlaege.*.title_en": ("Titel (englisch)", "Title (English)"),
    "neue_vorschlaege.*.kind": ("Art", "Kind"),
    "neue_vorschlaege.*.value": ("Stadtwert", "City value"),
    "neue_vorschlaege.*.direction": ("Richtung", "Direction"),
    "neue_vorschlaege.*.pro": ("Symbole der Pro-Seite", "Symbols of the pro side"),
    "neue_vorschlaege.*.contra": ("Symbole der Contra-Seite", "Symbols of the contra side"),
    "neue_vorschlaege.*.office": ("Amt", "Office"),
    "neue_vorschlaege.*.candidates": ("Kandidaten", "Candidates"),
    "agenda_veroeffentlichen": ("Geheime Agenden veröffentlichen", "Publish secret agendas"),
}
_KINDS = {
    "ereigniskarte.str": ("nur ein Kartenname ohne Angaben, oder „keine“", "just a card's name without details, or 'keine'"),
    "ereigniskarte.Ereigniskarte": ("Karte mit ihren Angaben", "a card with its details"),
    "aktionen.verwaltungsarbeit.int": ("eine Zahl von AP", "a number of AP"),
}

PAGE_WORDS: dict[str, dict[str, str]] = {
    **{f"field.{k}": {"de": de, "en": en} for k, (de, en) in _FIELDS.items()},
    **{f"kind.{k}": {"de": de, "en": en} for k, (de, en) in _KINDS.items()},
}
