"""Refusals of table talk, the chronicle and letters (issue 18), in English and
German; ``wording.TEXTS`` takes them in, so ``Own`` and ``Refusal`` know them."""
from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "press.none": {
        "en": "This match has no table talk: its match file says 'press: none'.",
        "de": "In dieser Partie gibt es keine Tischgespräche: ihre Partiedatei sagt 'press: none'."},
    "press.ended": {
        "en": "Match '{match}' has ended; its table talk is closed.",
        "de": "Die Partie '{match}' ist beendet; ihre Tischgespräche sind geschlossen."},
    "press.closed": {
        "en": "Table talk is closed while this turn's {stages} is under way; write again after the next report.",
        "de": "Während der laufenden Phase {stages} ruhen die Tischgespräche; schreibe nach dem nächsten Bericht wieder."},
    "press.no_to": {
        "en": "Say whom the message is for: 'to: all', or seat ids such as 'to: [bob, carol]'.",
        "de": "Sag, an wen die Nachricht geht: 'to: all' oder Spieler-IDs wie 'to: [bob, carol]'."},
    "press.bad_seats": {
        "en": "This match has no seat {seats}; its seats are: {known}.",
        "de": "Diese Partie hat keinen Platz {seats}; ihre Plätze sind: {known}."},
    "talk.unknown_key": {
        "en": "'{key}:' means nothing here (a misspelling?); '{command}' takes: {known}. Nothing was sent.",
        "de": "'{key}:' bedeutet hier nichts (vertippt?); '{command}' nimmt: {known}. Es wurde nichts verschickt."},
    "press.bot_seat": {
        "en": "Seat {seats} is played by a computer player (bot), which reads no table talk; nothing was sent.",
        "de": "Platz {seats} wird von einem Computerspieler (Bot) gespielt, der keine Tischgespräche liest; es wurde nichts verschickt."},
    "press.only_self": {
        "en": "The message is addressed to nobody but you.",
        "de": "Die Nachricht geht an niemanden außer dir."},
    "press.public_only": {
        "en": "This match allows only public table talk: write 'to: all'.",
        "de": "In dieser Partie gibt es nur öffentliche Tischgespräche: schreibe 'to: all'."},
    "press.public_reply": {
        "en": "This match allows only public table talk, so an answer cannot go to one player alone; "
              "write a message with 'press:' and 'to: all' instead.",
        "de": "In dieser Partie gibt es nur öffentliche Tischgespräche; eine Antwort an einen Spieler allein geht "
              "daher nicht. Schreibe stattdessen eine Nachricht mit 'press:' und 'to: all'."},
    "press.no_anonymous": {
        "en": "This match does not allow unsigned table talk; leave out 'anonymous:'.",
        "de": "In dieser Partie gibt es keine unsignierten Tischgespräche; lass 'anonymous:' weg."},
    "press.no_text": {
        "en": "The message needs a 'text:' of plain text.",
        "de": "Die Nachricht braucht einen 'text:' aus einfachem Text."},
    "press.too_long": {
        "en": "The text has {length} characters; this match allows at most {limit} in one message.",
        "de": "Der Text hat {length} Zeichen; diese Partie erlaubt höchstens {limit} je Nachricht."},
    "press.rate": {
        "en": "You have sent {limit} messages in a day, the most this match allows; the next can go after {retry}.",
        "de": "Du hast {limit} Nachrichten an einem Tag geschickt, mehr erlaubt diese Partie nicht; "
              "die nächste geht ab {retry}."},
    "press.bad_token": {
        "en": "This answer cannot be delivered: the mail it answers ({token}) is no table-talk mail of this "
              "referee. Write a new message with 'press:' instead.",
        "de": "Diese Antwort lässt sich nicht zustellen: die beantwortete Mail ({token}) ist keine Mail eines "
              "Tischgesprächs dieses Schiedsrichters. Schreibe stattdessen eine neue Nachricht mit 'press:'."},
    "press.not_yours": {
        "en": "Only the player the answered message went to can answer it, from their registered address.",
        "de": "Nur der Spieler, an den die beantwortete Nachricht ging, kann sie beantworten, und nur von "
              "seiner eingetragenen Adresse."},
    "press.empty_reply": {
        "en": "Your answer holds no text of your own (quoted lines and signatures are left out).",
        "de": "Deine Antwort enthält keinen eigenen Text (zitierte Zeilen und Signaturen werden weggelassen)."},
    "press.holds_key": {
        "en": "Nothing was relayed: the message holds your own key. Your key belongs in your mails to the referee "
              "and nowhere else; the referee never asks for it in table talk, so a message that does is a trick. "
              "If someone may have seen it, 'command: new-key' gets you a new one.",
        "de": "Nichts wurde weitergegeben: die Nachricht enthält deinen eigenen Schlüssel. Er gehört nur in deine "
              "Mails an den Schiedsrichter; der Schiedsrichter fragt in Tischgesprächen nie danach, eine Nachricht, "
              "die das tut, will dich also hereinlegen. Könnte ihn jemand gesehen haben, bekommst du mit "
              "'command: new-key' einen neuen."},
    "chronicle.no_text": {
        "en": "'{command}' needs a 'text:' (or, for the chronicle, an attached .md or .txt file).",
        "de": "'{command}' braucht einen 'text:' (oder, für die Chronik, eine angehängte .md- oder .txt-Datei)."},
    "chronicle.too_long": {
        "en": "The text has {length} characters; at most {limit} are taken.",
        "de": "Der Text hat {length} Zeichen; höchstens {limit} werden angenommen."},
    "chronicle.bad_file": {
        "en": "The attached file '{name}' is not plain text or Markdown, or is larger than {limit} bytes.",
        "de": "Die angehängte Datei '{name}' ist kein einfacher Text und kein Markdown, oder größer als {limit} Bytes."},
    "chronicle.ended": {
        "en": "The match has ended: there is no next report for this to head.",
        "de": "Die Partie ist beendet: es gibt keinen nächsten Bericht mehr, über dem das stehen könnte."},
    "chronicle.bad_title": {
        "en": "A title is one line of at most 80 characters, without control characters and without '=?' "
              "(mail programs would read what follows as encoded text).",
        "de": "Ein Titel ist eine Zeile von höchstens 80 Zeichen, ohne Steuerzeichen und ohne '=?' "
              "(Mailprogramme würden das Folgende als kodierten Text lesen)."},
    "chronicle.turn_full": {
        "en": "The reports of turn {turn} are headed by {count} entries of {chars} characters already; one turn "
              "takes at most {max_entries} entries of {max_chars} characters in all. This one ({length} characters) "
              "was not added: publish it after the next report, or shorten it.",
        "de": "Über den Berichten von Zug {turn} stehen schon {count} Einträge mit zusammen {chars} Zeichen; ein Zug "
              "nimmt höchstens {max_entries} Einträge mit zusammen {max_chars} Zeichen auf. Dieser ({length} Zeichen) "
              "wurde nicht aufgenommen: veröffentliche ihn nach dem nächsten Bericht oder kürze ihn."},
    "letter.turn_full": {
        "en": "The reports of turn {turn} are headed by {count} entries of {chars} characters already; one turn "
              "takes at most {max_entries} entries of {max_chars} characters in all. Letter {number} ({length} "
              "characters) stays held: approve it after the next report.",
        "de": "Über den Berichten von Zug {turn} stehen schon {count} Einträge mit zusammen {chars} Zeichen; ein Zug "
              "nimmt höchstens {max_entries} Einträge mit zusammen {max_chars} Zeichen auf. Brief {number} ({length} "
              "Zeichen) bleibt zurückgehalten: gib ihn nach dem nächsten Bericht frei."},
    "letter.bad_number": {
        "en": "'number:' takes the number of a held letter, such as 3.",
        "de": "'number:' nimmt die Nummer eines zurückgehaltenen Briefs, etwa 3."},
    "letter.none": {
        "en": "There is no letter {number} waiting for your decision.",
        "de": "Es wartet kein Brief {number} auf deine Entscheidung."},
    "letter.too_many": {
        "en": "{count} letters of yours are waiting for the game master already; wait for a decision first.",
        "de": "Schon {count} Briefe von dir warten auf die Spielleitung; warte erst eine Entscheidung ab."},
}

# refusals where correcting the document does not help: only waiting (or the GM) does
NOTHING_TO_FIX = frozenset({"press.none", "press.ended", "press.closed", "press.rate", "press.not_yours",
                            "chronicle.ended", "letter.too_many", "letter.none", "letter.turn_full"})
