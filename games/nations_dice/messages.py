"""Every problem a player can read, in English and German."""
from referee.game_api.contract import PLAN_MESSAGES

MESSAGES = {
    **PLAN_MESSAGES,
    "options.players": {"en": "Nations: The Dice Game needs 1 to 4 players, not {n}.",
                        "de": "Nations: Das Würfelspiel braucht 1 bis 4 Spieler, nicht {n}."},
    "options.players_unique": {"en": "Player ids must be unique.", "de": "Spieler-Kennungen müssen eindeutig sein."},
    "options.unknown": {"en": "Unknown option {key} is ignored.", "de": "Unbekannte Option {key} wird ignoriert."},
    "options.variant": {"en": "variant must be original or accelerated.",
                        "de": "variant muss original (Original) oder accelerated (Beschleunigt) sein."},
    "options.hard": {"en": "hard (the solo game's hard mode) must be true or false.",
                     "de": "hard (schweres Solospiel) muss true oder false sein."},
    "options.edition": {"en": "The edition is not valid: {error}", "de": "Die Edition ist ungültig: {error}"},
    "stage.none": {"en": "You owe no orders now.", "de": "Du schuldest jetzt keine Befehle."},
    "step.empty": {"en": "This step names no action: use buy, reroll, build, pass or ask.",
                   "de": "Dieser Schritt nennt keine Aktion: buy, reroll, build, pass oder ask."},
    "step.two_actions": {"en": "One step is one action, this one names {actions}: write them as separate steps.",
                         "de": "Ein Schritt ist eine Aktion, dieser nennt {actions}: schreibe sie als eigene Schritte."},
    "die.not_available": {"en": "You have no available die {die}.",
                          "de": "Du hast keinen verfügbaren Würfel {die}."},
    "reroll.no_marker": {"en": "A reroll needs an available reroll marker; you have none.",
                         "de": "Eine Wurfwiederholung braucht einen verfügbaren Wurfwiederholungsmarker; du hast keinen."},
    "reroll.no_dice": {"en": "You have no available die to reroll.",
                       "de": "Du hast keinen verfügbaren Würfel zum Neuwerfen."},
    "reroll.empty": {"en": "Name at least one die to reroll (or: reroll: all).",
                     "de": "Nenne mindestens einen Würfel zum Neuwerfen (oder: reroll: all)."},
    "build.no_wonder": {"en": "You have no wonder under construction to build.",
                        "de": "Du hast kein Wunder im Bau, das du bauen könntest."},
    "buy.which": {"en": "Name the tile to buy: tile, or column and row.",
                  "de": "Nenne das Plättchen: tile, oder column (Spalte) und row (Reihe)."},
    "buy.no_slot": {"en": "There is no column {column} row {row} (columns 1 to {columns}, rows 1 to 3).",
                    "de": "Spalte {column} Reihe {row} gibt es nicht (Spalten 1 bis {columns}, Reihen 1 bis 3)."},
    "buy.empty_slot": {"en": "Column {column} row {row} is empty.",
                       "de": "Spalte {column} Reihe {row} ist leer."},
    "buy.mismatch": {"en": "{tile} is not in column {column} row {row}.",
                     "de": "{tile} liegt nicht in Spalte {column} Reihe {row}."},
    "buy.not_on_board": {"en": "{tile} is not on the progress board (now).",
                         "de": "{tile} liegt (jetzt) nicht auf dem Fortschrittsplan."},
    "buy.replace_slot": {"en": "Development slot {slot} does not exist (1 to {slots}).",
                         "de": "Entwicklungsfeld {slot} gibt es nicht (1 bis {slots})."},
    "pay.short": {"en": "That pays {have} of the {need} {what} it costs.",
                  "de": "Damit sind {have} von {need} {what} bezahlt."},
    "give_back.unknown": {"en": "give_back: you have no die {die}.", "de": "give_back: du hast keinen Würfel {die}."},
    "give_back.colour": {"en": "give_back: die {die} is {colour}, but the replaced development shows {shown}: "
                               "give back dice of its colour.",
                         "de": "give_back: Würfel {die} ist {colour}, die ersetzte Entwicklung zeigt aber {shown}: "
                               "gib Würfel ihrer Farbe zurück."},
    "give_back.extra": {"en": "give_back: {die} is one die too many; the replaced development shows {shown}.",
                        "de": "give_back: {die} ist ein Würfel zu viel; die ersetzte Entwicklung zeigt {shown}."},
    "give_back.not_development": {"en": "give_back is only for a development (building or military), which replaces one of yours.",
                                  "de": "give_back gibt es nur bei einer Entwicklung (Gebäude oder Militär), die eine deiner ersetzt."},
    "plan.nothing": {"en": "No step is chosen. Remove the # in front of each step you want (pass too), in the "
                           "order to try them, and send it again.",
                     "de": "Kein Schritt ist gewählt. Entferne das # vor jedem Schritt, den du willst (auch vor pass), "
                           "in der Reihenfolge, in der sie versucht werden sollen, und schicke es noch einmal."},
    "pay.surplus": {"en": "That pays {have} {what} for a cost of {need}: leave out a die, marker or trade that is not needed.",
                    "de": "Das zahlt {have} {what} bei Kosten von {need}: lass einen nicht nötigen Würfel, Marker oder Tausch weg."},
    "pay.useless": {"en": "Die {die} shows no {what}.", "de": "Würfel {die} zeigt kein {what}-Symbol."},
    "pay.twice": {"en": "Die {die} is named twice.", "de": "Würfel {die} ist doppelt genannt."},
    "pay.wrong_marker": {"en": "A {item} marker cannot pay {what}.",
                         "de": "Mit einem {item}-Marker lässt sich {what} nicht bezahlen."},
    "pay.no_marker": {"en": "You have no (further) available {item} marker.",
                      "de": "Du hast keinen (weiteren) verfügbaren {item}-Marker."},
    "trade.marker": {"en": "Only dice can be traded, never markers ({item}).",
                     "de": "Getauscht werden nur Würfel, nie Marker ({item})."},
    "trade.strength": {"en": "Strength cannot be gained by trading dice (a colony is paid in strength).",
                       "de": "Stärke kann man nicht durch Würfeltausch erhalten (Kolonien kosten Stärke)."},
    "trade.books": {"en": "Books cannot be gained by trading dice.",
                    "de": "Bücher kann man nicht durch Würfeltausch erhalten."},
    "trade.pair": {"en": "A trade is two different dice.", "de": "Ein Tausch sind zwei verschiedene Würfel."},
    "trade.twice": {"en": "Die {die} is used twice.", "de": "Würfel {die} wird doppelt verwendet."},
    "famine.short": {"en": "These trades bring {have} food, the famine needs {need}: they would be wasted.",
                     "de": "Dieser Tausch bringt {have} Nahrung, die Hungersnot verlangt {need}: er wäre verschenkt."},
    "famine.surplus": {"en": "These trades bring {have} food where {need} is enough: trade fewer dice.",
                       "de": "Dieser Tausch bringt {have} Nahrung, {need} genügt: tausche weniger Würfel."},
    "food_trade.ignored": {"en": "food_trade is only for the accelerated variant; here the famine is decided after all have passed.",
                           "de": "food_trade gibt es nur in der beschleunigten Variante; hier wird die Hungersnot nach dem Passen entschieden."},
    "books.hold": {"en": "Die {die} is not an available die showing books.",
                   "de": "Würfel {die} ist kein verfügbarer Würfel mit Büchern."},
}


def say(problem, lang: str) -> str:
    """A problem in ``lang`` for the game's own log (the referee phrases replies itself)."""
    params = {k: (v.get(lang) or v.get("en")) if isinstance(v, dict) else v for k, v in problem.params.items()}
    try:
        return MESSAGES[problem.code][lang].format(**params)
    except (KeyError, IndexError, ValueError):
        return problem.code
