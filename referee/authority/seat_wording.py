"""The refusals of issue 18's seat commands (new-key, address, absent), in en + de;
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
}

# refusals where the document is fine and only waiting helps (the reply does not say "correct and resend")
SEAT_NOTHING_TO_FIX = frozenset({"address.too_many", "address.void", "absence.off", "absence.too_many"})
