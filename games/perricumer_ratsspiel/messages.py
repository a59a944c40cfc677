"""Problem codes phrased in German (the game's own language) and English.
Every order problem is a warning: the part falls back to its Standardaktion; a
``fault.`` code (referee.game_api.contract.FAULT) says first what is faulty and what happens instead."""

MESSAGES = {
    "options.campaign": {"de": "Die Kampagne ist fehlerhaft: {error}", "en": "The campaign is invalid: {error}"},
    "options.members": {"de": "Spielerfiguren: {error}", "en": "Player characters: {error}"},
    "options.agendas": {"de": "Agenden: {error}", "en": "Agendas: {error}"},
    "options.cards": {"de": "Ereigniskarten für {player}: drei verschiedene aus den acht wählen.",
                      "en": "Event cards for {player}: choose three different ones of the eight."},
    "options.players": {"de": "Zu viele oder zu wenige Spieler für diese Kampagne ({count}).",
                        "en": "Too many or too few players for this campaign ({count})."},
    "options.deck": {"de": "Die Kampagne hat {have} Vorschläge; für alle Runden bräuchte sie {need}. "
                            "Ist der Stapel leer, schrumpfen Auswahl und Sitzungen (die Spielleitung kann Vorschläge ergänzen).",
                     "en": "The campaign has {have} proposals; all rounds would need {need}. "
                           "Once the deck is empty, selection and sessions shrink (the GM can add proposals)."},
    "phase.skipped": {"de": "{part} entfällt in der ersten Runde und wird ignoriert.",
                      "en": "{part} is skipped in round one and ignored."},
    "picks.missing": {"de": "Keine Ereigniskarten gewählt: drei werden ausgelost.",
                      "en": "No event cards chosen: three are drawn by lot."},
    "fault.picks.unknown": {"de": "Deine Wahl der Ereigniskarten gilt nicht: „{card}“ ist keine Ereigniskarte.{hint} "
                                  "Stattdessen werden dir alle drei Karten ausgelost.",
                            "en": "Your choice of event cards does not count: '{card}' is no event card.{hint} "
                                  "Instead all three of your cards are drawn by lot."},
    "fault.picks.twice": {"de": "Deine Wahl der Ereigniskarten gilt nicht: „{card}“ steht zweimal darin. "
                                "Stattdessen werden dir alle drei Karten ausgelost.",
                          "en": "Your choice of event cards does not count: '{card}' is in it twice. "
                                "Instead all three of your cards are drawn by lot."},
    "fault.picks.count": {"de": "Deine Wahl der Ereigniskarten gilt nicht: du hast {n} gewählt, es müssen drei verschiedene sein. "
                                "Stattdessen werden dir alle drei Karten ausgelost.",
                          "en": "Your choice of event cards does not count: you chose {n}, it must be three different ones. "
                                "Instead all three of your cards are drawn by lot."},
    "picks.late": {"de": "Die Ereigniskarten sind schon gewählt; die Angabe wird ignoriert.",
                   "en": "Your event cards are already chosen; this is ignored."},
    "fault.card.unknown": {"de": "Deine Ereigniskarte wird nicht gespielt: „{card}“ ist keine Ereigniskarte.{hint}",
                           "en": "Your event card is not played: '{card}' is no event card.{hint}"},
    "fault.card.used": {"de": "Deine Ereigniskarte wird nicht gespielt: „{card}“ hast du nicht (mehr). Deine Karten: {left}.",
                        "en": "Your event card is not played: you do not hold '{card}' (any more). Your cards: {left}."},
    "fault.card.param": {"de": "Deine Ereigniskarte „{card}“ wird nicht gespielt: „{value}“ ist als {field} nicht möglich.{hint} "
                               "Die Karte bleibt dir für eine spätere Runde.",
                         "en": "Your event card '{card}' is not played: '{value}' is not possible as {field}.{hint} "
                               "You keep the card for a later round."},
    "fault.card.target": {"de": "Deine Ereigniskarte „{card}“ wird nicht gespielt: „{target}“ ist keine Nichtspielerfigur.{hint} "
                                "Die Karte bleibt dir für eine spätere Runde.",
                          "en": "Your event card '{card}' is not played: '{target}' is not a non-player councillor.{hint} "
                                "You keep the card for a later round."},
    "actions.missing": {"de": "Keine Aktionen: Standardaktion Verwaltungsarbeit (12).",
                        "en": "No actions: standard action: administration (verwaltungsarbeit) 12."},
    "fault.actions.negative": {"de": "Deine Aktionen werden nicht ausgeführt: Punkte dürfen nicht negativ sein. "
                                     "Stattdessen gilt die Standardaktion Verwaltungsarbeit (12).",
                               "en": "Your actions are not carried out: points cannot be negative. "
                                     "Instead the standard action applies: administration (verwaltungsarbeit) 12."},
    "fault.actions.target": {"de": "Deine Aktionen werden nicht ausgeführt: Einflussnahme {n} zielt auf „{target}“, "
                                   "das ist keine Nichtspielerfigur.{hint} Stattdessen gilt für alle Aktionen die "
                                   "Standardaktion Verwaltungsarbeit (12).",
                             "en": "Your actions are not carried out: influence no. {n} aims at '{target}', which is not a "
                                   "non-player councillor.{hint} Instead the standard action applies to all your actions: "
                                   "administration (verwaltungsarbeit) 12."},
    "fault.actions.proposal": {"de": "Deine Aktionen werden nicht ausgeführt: Einflussnahme {n} nennt Vorschlag {nr}, "
                                     "zur Abstimmung stehen {session}. Stattdessen gilt für alle Aktionen die "
                                     "Standardaktion Verwaltungsarbeit (12).",
                               "en": "Your actions are not carried out: influence no. {n} names proposal {nr}; up for the "
                                     "vote are {session}. Instead the standard action applies to all your actions: "
                                     "administration (verwaltungsarbeit) 12."},
    "fault.actions.direction": {"de": "Deine Aktionen werden nicht ausgeführt: Einflussnahme {n} hat die Richtung „{choice}“, "
                                      "möglich sind {allowed}. Stattdessen gilt für alle Aktionen die Standardaktion "
                                      "Verwaltungsarbeit (12).",
                                "en": "Your actions are not carried out: influence no. {n} has the direction '{choice}'; "
                                      "possible are {allowed}. Instead the standard action applies to all your actions: "
                                      "administration (verwaltungsarbeit) 12."},
    "fault.actions.ap": {"de": "Deine Aktionen werden nicht ausgeführt: sie kosten {spent} Aktionspunkte, du hast {ap}. "
                               "Stattdessen gilt die Standardaktion Verwaltungsarbeit (12).",
                         "en": "Your actions are not carried out: they cost {spent} action points, you have {ap}. "
                               "Instead the standard action applies: administration (verwaltungsarbeit) 12."},
    "fault.vote.proposal": {"de": "Deine Stimme zu Vorschlag {nr} zählt nicht: er steht nicht zur Abstimmung "
                                  "(zur Abstimmung stehen {session}).",
                            "en": "Your vote on proposal {nr} does not count: it is not up for the vote "
                                  "(up for the vote are {session})."},
    "fault.vote.choice": {"de": "Deine Stimme zu Vorschlag {nr} zählt nicht: „{choice}“ ist keine der Möglichkeiten "
                                "({allowed}). Stattdessen stimmt deine Figur, wie eine Nichtspielerfigur stimmen würde.",
                          "en": "Your vote on proposal {nr} does not count: '{choice}' is none of the choices "
                                "({allowed}). Instead your councillor votes as a non-player councillor would."},
    "vote.missing": {"de": "Keine Stimme zu Vorschlag {nr}: Abstimmung wie Nichtspielerfiguren.",
                     "en": "No vote on proposal {nr}: voting as a non-player councillor would."},
    "select.missing": {"de": "Keine Auswahl: ein zufälliger Vorschlag wird gewählt.",
                       "en": "No selection: a random proposal is picked."},
    "fault.select.unknown": {"de": "Deine Auswahl zählt nicht: Vorschlag {nr} liegt nicht in der Auswahl ({selection}). "
                                   "Stattdessen wird ein Vorschlag zufällig gewählt.",
                             "en": "Your selection does not count: proposal {nr} is not in the selection ({selection}). "
                                   "Instead a proposal is picked at random."},
    "select.last_round": {"de": "In der letzten Runde gibt es keine Auswahl mehr; ignoriert.",
                          "en": "There is no selection in the last round; ignored."},
    "orders.misplaced": {"de": "„{key}“ gehört nicht an den Anfang der Befehle, sondern eine Ebene tiefer, so: {example}",
                         "en": "'{key}' does not belong at the top of the orders but one level down, like this: {example}"},
    "gm.proposal": {"de": "Vorschlag {nr} liegt weder in der Auswahl noch im Stapel; ignoriert.",
                    "en": "Proposal {nr} is neither in the selection nor in the deck; ignored."},
    "gm.new_proposal": {"de": "Neuer Vorschlag ungültig (Stadtwert, Richtung, Symbole, Amt oder Kandidaten); ignoriert.",
                        "en": "New proposal invalid (city value, direction, symbols, office or candidates); ignored."},
    "gm.player": {"de": "Unbekannter Spieler „{player}“; ignoriert.", "en": "Unknown player '{player}'; ignored."},
}
