"""The order page's words for the fields and kinds of Nations' orders (issue 36: ``messages``
``field.<path>`` and ``kind.<path>.<title>``)."""
FIELDS = {
    "field.steps": ("Plan: steps tried in order", "Plan: Schritte in ihrer Reihenfolge"),
    "field.steps.*": ("Step", "Schritt"),
    "kind.steps.*.Step": ("an action with details (buy, reroll, build, pass)",
                          "eine Aktion mit Angaben (buy, reroll, build, pass)"),
    "field.steps.*.buy": ("buy a tile", "ein Plättchen kaufen"), "field.steps.*.build": ("build with details", "bauen mit Angaben"),
    "field.steps.*.reroll": ("reroll dice", "Würfel neu würfeln"), "field.steps.*.pass": ("pass with a food trade", "passen mit Nahrungstausch"),
    "field.steps.*.buy.tile": ("Tile", "Plättchen"), "field.steps.*.buy.column": ("Column", "Spalte"),
    "field.steps.*.buy.row": ("Row", "Reihe"), "field.steps.*.buy.pay": ("Pay with", "Bezahlen mit"),
    "field.steps.*.buy.trade": ("Trade dice", "Würfel tauschen"), "field.steps.*.buy.replace": ("Development replaced", "Ersetzte Entwicklung"),
    "field.steps.*.buy.give_back": ("Dice given back", "Zurückgegebene Würfel"),
    "field.steps.*.build.pay": ("Pay with", "Bezahlen mit"), "field.steps.*.build.trade": ("Trade dice", "Würfel tauschen"),
    "field.steps.*.pass.food_trade": ("Food trade", "Nahrungstausch"),
    "field.hold": ("Book dice held for the famine", "Für die Hungersnot behaltene Bücherwürfel"),
    "field.hold.*": ("Die", "Würfel"), "field.trade": ("Trade pairs of dice into food", "Würfelpaare in Nahrung tauschen"),
    "field.trade.*": ("Pair", "Paar"), "field.trade.*.*": ("Die", "Würfel"),
}
FIELD_MESSAGES = {code: {"en": en, "de": de} for code, (en, de) in FIELDS.items()}
