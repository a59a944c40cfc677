"""The order page's words for the fields of Founding Fathers' orders (issue 36: ``messages`` field.<path>)."""
FIELDS = {  # field words for the page (``messages``: field.<path>)
    "keep": ("Cards to keep", "Karten, die du behältst"), "keep.*": ("Card", "Karte"),
    "action": ("Action", "Aktion"), "state": ("State", "Staat"), "side": ("Side", "Seite"),
    "delegates": ("Delegates", "Delegierte"), "delegates.*": ("Delegate", "Delegierter"),
    "card": ("Event card", "Ereigniskarte"), "targets": ("Assembly delegates to discard", "Abzuwerfende Delegierte im Versammlungszimmer"),
    "targets.*": ("Delegate", "Delegierter"), "player": ("Other player", "Anderer Spieler"),
    "position": ("Position in that player's hand", "Position in dessen Hand"), "pick": ("Card from the discard pile", "Karte vom Ablagestapel"),
    "faction": ("Debate track", "Debattierleiste"), "article": ("Resolved article", "Abgehandelter Artikel"),
    "take": ("Draw-pool positions by preference", "Positionen im Nachziehbereich nach Vorliebe"),
    "take.*": ("Position", "Position"), "reclaim": ("Marker to reuse if none is free", "Wiederzuverwendender Marker, falls keiner frei ist"),
    "committee_flip": ("Committee article, if you win it", "Komitee-Artikel, falls du es gewinnst"),
    "reclaim_planner": ("Take your planner back", "Deinen Planer zurücknehmen"), "flip": ("Committee article", "Komitee-Artikel"),
}
FIELD_MESSAGES = {f"field.{path}": {"en": en, "de": de} for path, (en, de) in FIELDS.items()}
