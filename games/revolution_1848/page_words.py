"""The order page's words for 1848's fields (issue 36), in the order form's words: the
page reads the game's messages ``field.<path>`` and ``kind.<path>.<kind>``."""
from __future__ import annotations

_FIELDS = {
    "steps": ("Plan für diesen Stich: Schritte von oben nach unten; jedes Mal, wenn du dran bist, "
              "wird der erste ausführbare ausgeführt",
              "Plan for this trick: steps from top to bottom; each time your play comes up the first "
              "one that can run is carried out"),
    "steps.*": ("Schritt", "Step"),
    "steps.*.play": ("Ausspielen (play)", "Play"),
    "steps.*.push": ("Schieben (push): die Karte verdeckt unter ihren Stapel, du bleibst im Spiel",
                     "Push: the card face down under its stack, you stay in"),
    "steps.*.on": ("Auf die Person (on)", "On the person"),
    "steps.*.player": ("Spieler, dessen Personen die Karte trifft (player)", "Player whose persons the card hits"),
    "steps.*.party": ("Partei (party)", "Party"),
    "steps.*.to": ("Armee an (to), wenn zwei Heerführer gleichauf liegen", "Army to, when two commanders tie"),
    "steps.*.if": ("Bedingung (if): der Schritt wartet, bis sie eintritt",
                   "Condition (if): the step waits until it holds"),
    "steps.*.if.answered": ("nur, wenn seit deinem letzten Zug jemand damit geantwortet hat (answered)",
                            "only if someone answered with this since your last play (answered)"),
    "steps.*.if.winning": ("Stand des Stichs (winning)", "How the trick stands (winning)"),
    "draw": ("Nachziehen: eine Karte nach Wahl", "Drawing: one card of your choice"),
}
_KINDS = {
    "steps.*.Step": ("eine Karte ausspielen oder schieben", "play or push a card"),
}

PAGE_WORDS: dict[str, dict[str, str]] = {
    **{f"field.{k}": {"de": de, "en": en} for k, (de, en) in _FIELDS.items()},
    **{f"kind.{k}": {"de": de, "en": en} for k, (de, en) in _KINDS.items()},
}
