"""The refusals of issue 18's seat commands (new-key, address, absent, join), in en + de;
``wording.TEXTS`` takes them in (see the block at its end)."""
from __future__ import annotations

SEAT_TEXTS: dict[str, dict[str, str]] = {
    "address.needs": {
        "en": "'command: address' needs 'email:' with the new address (or 'code:' from the mail sent there).",
        "de": "'command: address' braucht 'email:' mit der neuen Adresse (oder 'code:' aus der Mail dorthin)."},
    "address.bad": {
        "en": "'{value}' is not a plain mail address (user@domain, ASCII only).",
        "de": "'{value}' ist keine einfache Mailadresse (name@domain, nur ASCII)."},
    "address.ours": {
        "en": "'{value}' is the referee's own address; give the address you read your mail at.",
        "de": "'{value}' ist die Adresse des Schiedsrichters selbst; gib die Adresse an, unter der du Mail liest."},
    "address.taken": {
        "en": "'{value}' already plays another seat of this match or leads it; one address, one seat.",
        "de": "'{value}' spielt schon einen anderen Platz dieser Partie oder leitet sie; eine Adresse, ein Platz."},
    "address.same": {
        "en": "'{value}' is your registered address already; nothing to change.",
        "de": "'{value}' ist schon deine eingetragene Adresse; es gibt nichts zu ändern."},
    "address.too_many": {
        "en": "At most {count} confirmation codes a day go out for one seat; ask again after {when}.",
        "de": "Für einen Platz gehen höchstens {count} Bestätigungscodes am Tag hinaus; frag nach {when} wieder."},
    "address.no_request": {
        "en": "No address change for '{player}' waits for a code from this address. Ask for one with "
              "'command: address' and 'email:' (with your key), then send the code from the new address.",
        "de": "Für '{player}' wartet keine Adressänderung auf einen Code von dieser Adresse. Beantrage sie mit "
              "'command: address' und 'email:' (mit deinem Schlüssel) und schick den Code dann von der neuen Adresse."},
    "address.expired": {
        "en": "This code has expired (a code holds for {hours} hours); ask again with 'command: address'.",
        "de": "Dieser Code ist abgelaufen (ein Code gilt {hours} Stunden); beantrage die Änderung neu mit 'command: address'."},
    "address.wrong_code": {
        "en": "The code does not fit. Copy it exactly from the mail; {left} more tries, then the request is void.",
        "de": "Der Code passt nicht. Übernimm ihn genau aus der Mail; noch {left} Versuche, dann verfällt der Antrag."},
    "address.void": {
        "en": "Too many wrong codes: the address change is void and nothing changed. Ask again with 'command: address'.",
        "de": "Zu viele falsche Codes: der Antrag ist verfallen, nichts wurde geändert. Beantrage ihn neu mit 'command: address'."},
    "absence.off": {
        "en": "This match takes no absences; ask your game master.",
        "de": "Diese Partie kennt keine Abwesenheiten; frag deine Spielleitung."},
    "absence.needs": {
        "en": "'command: absent' needs 'from:' and 'until:', dates such as 2026-03-07.",
        "de": "'command: absent' braucht 'from:' und 'until:', Daten wie 2026-03-07."},
    "absence.bad_date": {
        "en": "'{value}' is not a date such as 2026-03-07.",
        "de": "'{value}' ist kein Datum wie 2026-03-07."},
    "absence.order": {
        "en": "'until:' ({until}) must not be before 'from:' ({start}).",
        "de": "'until:' ({until}) darf nicht vor 'from:' ({start}) liegen."},
    "absence.past": {
        "en": "An absence cannot start in the past ({start}); the earliest is today.",
        "de": "Eine Abwesenheit kann nicht in der Vergangenheit beginnen ({start}); frühestens heute."},
    "absence.too_long": {
        "en": "An absence in this match lasts at most {days} days; this one has {asked}.",
        "de": "Eine Abwesenheit dauert in dieser Partie höchstens {days} Tage; diese hat {asked}."},
    "absence.too_far": {
        "en": "An absence can be declared at most {days} days ahead.",
        "de": "Eine Abwesenheit lässt sich höchstens {days} Tage im Voraus ankündigen."},
    "absence.too_many": {
        "en": "You have declared {count} absences in this match already, the most it allows.",
        "de": "Du hast in dieser Partie schon {count} Abwesenheiten angekündigt, so viele wie erlaubt."},
    "join.ours": {
        "en": "The referee's own address cannot join a match.",
        "de": "Die Adresse des Schiedsrichters selbst kann keiner Partie beitreten."},
    "join.too_many": {
        "en": "At most {count} codes a day go to one address for joining a match; ask again after {when}.",
        "de": "An eine Adresse gehen für den Beitritt zu einer Partie höchstens {count} Codes am Tag; frag nach {when} wieder."},
    "join.no_request": {
        "en": "No join to match '{match}' waits for a code from this address. Ask to join with 'command: join' "
              "and 'name:'; the code comes to the address you write from, and goes back from there.",
        "de": "Kein Beitritt zur Partie '{match}' wartet auf einen Code von dieser Adresse. Bitte mit "
              "'command: join' und 'name:' um den Beitritt; der Code kommt an die Adresse, von der du schreibst, "
              "und geht von dort zurück."},
    "join.wrong_code": {
        "en": "The code does not fit. Copy it exactly from the mail; {left} more tries, then the request is void.",
        "de": "Der Code passt nicht. Übernimm ihn genau aus der Mail; noch {left} Versuche, dann verfällt die Anfrage."},
    "join.void_code": {
        "en": "Too many wrong codes: the request to join is void and you hold no seat. Ask again with 'command: join'.",
        "de": "Zu viele falsche Codes: die Beitrittsanfrage ist verfallen, du hast keinen Platz. "
              "Bitte neu mit 'command: join' darum."},
    "join.expired_code": {
        "en": "This code has expired (a code holds for {hours} hours); ask again with 'command: join'.",
        "de": "Dieser Code ist abgelaufen (ein Code gilt {hours} Stunden); bitte neu mit 'command: join' um den Beitritt."},
    "join.remove_started": {
        "en": "A seat can be removed only while the match is open for joining; once it has started, "
              "'command: replace' gives a seat to someone else.",
        "de": "Einen Platz entfernen kann man nur, solange die Partie offen für Beitritte ist; nach dem Start gibt "
              "'command: replace' einen Platz an jemand anderen."},
    "gm.ours": {
        "en": "'{value}' is the referee's own address: mail to it would come back here. "
              "Give the address the player or observer reads mail at.",
        "de": "'{value}' ist die Adresse des Schiedsrichters selbst: Mail dorthin käme hierher zurück. "
              "Gib die Adresse an, unter der die Person ihre Mail liest."},
    "join.not_open": {
        "en": "Match '{match}' takes no players by mail; ask its game master.",
        "de": "Die Partie '{match}' nimmt keine Spieler per Mail auf; frag ihre Spielleitung."},
    "join.closed": {
        "en": "Match '{match}' takes no more players: joining is closed.",
        "de": "Die Partie '{match}' nimmt keine Spieler mehr auf: der Beitritt ist geschlossen."},
    "join.already": {
        "en": "This address plays in this match already (or leads it); one address, one seat.",
        "de": "Diese Adresse spielt schon in dieser Partie (oder leitet sie); eine Adresse, ein Platz."},
    "join.already_waiting": {
        "en": "This address is on the wait list already; you will hear when a seat is free.",
        "de": "Diese Adresse steht schon auf der Warteliste; du hörst von uns, sobald ein Platz frei wird."},
    "join.name": {
        "en": "'command: join' needs 'name:' with the name the others will read (one line, at most 80 characters).",
        "de": "'command: join' braucht 'name:' mit dem Namen, den die anderen lesen (eine Zeile, höchstens 80 Zeichen)."},
    "join.no_seat": {
        "en": "There is no free seat '{seat}'. Free: {free}; 'player: any' takes the next one.",
        "de": "Es gibt keinen freien Platz '{seat}'. Frei: {free}; 'player: any' nimmt den nächsten."},
    "join.full": {
        "en": "Every seat of '{match}' is taken and the wait list is full.",
        "de": "Alle Plätze von '{match}' sind besetzt, und die Warteliste ist voll."},
    "join.not_started": {
        "en": "Match '{match}' has not started yet: it waits for its seats to fill (or the GM's start).",
        "de": "Die Partie '{match}' hat noch nicht begonnen: sie wartet, bis alle Plätze besetzt sind (oder auf den Start der Spielleitung)."},
    "join.too_few": {
        "en": "{seated} seats are taken; the game needs at least {least} players to start.",
        "de": "{seated} Plätze sind besetzt; das Spiel braucht mindestens {least} Spieler zum Start."},
}

# refusals where the document is fine and only waiting helps (the reply does not say "correct and resend")
SEAT_NOTHING_TO_FIX = frozenset({"address.too_many", "address.void", "absence.off", "absence.too_many",
                                 "join.ours", "join.not_open", "join.closed", "join.already", "join.already_waiting",
                                 "join.full", "join.not_started", "join.too_few", "join.too_many", "join.void_code",
                                 "join.expired_code", "join.remove_started"})
