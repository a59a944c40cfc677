"""The order page's own words in English and German, and the words it borrows from a game:
a game labels a field by the message ``field.<path>`` (``path`` as in ``order_choices``,
``*`` for any list item) and a kind of a union by ``kind.<path>.<value or title>``."""
from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Orders for turn {turn}",
        "intro": "Choose your orders; this page writes the order mail for you. It works offline and sends "
                 "nothing by itself: you send the mail.",
        "orders": "Your orders", "key": "Your key",
        "key_help": "As in your welcome mail. This page never stores it: a forwarded copy carries no key.",
        "doc": "The order mail as it will be sent", "copy": "Copy", "mail": "Open mail",
        "copied": "Copied: paste it into a mail to {to}.",
        "copy_fail": "Copying was refused: select the text above and copy it yourself.",
        "need_key": "Type your key first: without it the referee refuses the orders.",
        "opened": "Your mail program should now show the mail to {to}. Send it from there.",
        "add": "Add", "up": "Move up", "down": "Move down", "remove": "Remove",
        "kind": "Kind", "opt": "give this", "choose": "(choose)", "item": "{label} {n}",
        "required": "Still to fill in.", "enum": "Not one of the choices.", "int": "A whole number, please.",
        "num": "A number, please.", "lo": "At least {n}.", "hi": "At most {n}.", "long": "At most {n} characters.",
        "many": "At most {n} entries.", "few": "At least {n} entries.", "offer": "Not among the choices offered.",
        "bad": "Problems to fix: {n}.", "ok": "The orders are complete.", "yes": "yes",
        "to": "To", "subject": "Subject", "k_arr": "a list", "k_str": "a text", "k_int": "a number",
        "k_num": "a number", "k_bool": "yes or no",
    },
    "de": {
        "title": "Befehle für Zug {turn}",
        "intro": "Wähle deine Befehle; diese Seite schreibt die Befehlsmail für dich. Sie arbeitet ohne Netz "
                 "und schickt nichts von selbst ab: Die Mail schickst du.",
        "orders": "Deine Befehle", "key": "Dein Schlüssel",
        "key_help": "Wie in deiner Willkommensmail. Diese Seite speichert ihn nie: Eine weitergeleitete Kopie "
                    "enthält keinen Schlüssel.",
        "doc": "Die Befehlsmail, wie sie verschickt wird", "copy": "Kopieren", "mail": "Mail öffnen",
        "copied": "Kopiert: füge sie in eine Mail an {to} ein.",
        "copy_fail": "Kopieren wurde verweigert: markiere den Text oben und kopiere ihn selbst.",
        "need_key": "Gib zuerst deinen Schlüssel ein: Ohne ihn lehnt der Schiedsrichter die Befehle ab.",
        "opened": "Dein Mailprogramm sollte jetzt die Mail an {to} zeigen. Schicke sie dort ab.",
        "add": "Hinzufügen", "up": "Nach oben", "down": "Nach unten", "remove": "Entfernen",
        "kind": "Art", "opt": "angeben", "choose": "(wählen)", "item": "{label} {n}",
        "required": "Noch auszufüllen.", "enum": "Keine der Möglichkeiten.", "int": "Bitte eine ganze Zahl.",
        "num": "Bitte eine Zahl.", "lo": "Mindestens {n}.", "hi": "Höchstens {n}.", "long": "Höchstens {n} Zeichen.",
        "many": "Höchstens {n} Einträge.", "few": "Mindestens {n} Einträge.", "offer": "Nicht unter den angebotenen Möglichkeiten.",
        "bad": "Noch zu beheben: {n}.", "ok": "Die Befehle sind vollständig.", "yes": "ja",
        "to": "An", "subject": "Betreff", "k_arr": "eine Liste", "k_str": "ein Text", "k_int": "eine Zahl",
        "k_num": "eine Zahl", "k_bool": "ja oder nein",
    },
}
SUBJECT = {"en": "Orders {match} turn {turn}", "de": "Befehle {match} Zug {turn}"}


def subject_of(lang: str, match_id: str, turn: int) -> str:
    return SUBJECT.get(lang, SUBJECT["en"]).format(match=match_id, turn=turn)


def field_labels(rules, lang: str) -> dict[str, str]:
    """The game's words for fields and kinds (``field.…``, ``kind.…`` messages) in ``lang``."""
    out = {}
    for code, texts in (getattr(rules, "messages", None) or {}).items():
        if code.startswith(("field.", "kind.")) and isinstance(texts, dict):
            text = texts.get(lang) or texts.get("en")
            if isinstance(text, str):
                out[code] = text[:200]
    return out
