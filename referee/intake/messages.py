"""The referee's own problem codes, phrased in English and German.

Each code has a message (what is wrong) and a hint (what to do).  Both are
``str.format`` templates; ``{line}`` and ``{column}`` are always available,
everything else comes from the problem's params.  A game's problem codes are
phrased by the game itself (``contract.phrase``); pydantic's error types are
translated in ``referee.game_api.schema_words``.
"""
from __future__ import annotations

MESSAGES: dict[str, dict[str, tuple[str, str]]] = {
    # -- finding the document -------------------------------------------
    "document.not_found": {
        "en": ("No order document found in this mail.",
               "Put the YAML (starting with 'match:') in the mail text, or attach it as a .yaml file; "
               "lines quoted with '>' and text below a signature '-- ' are ignored. Lost your order form? "
               "A mail with your 'match:', 'player:' and 'key:' lines and 'command: help' brings it."),
        "de": ("In dieser Mail wurde kein Befehlsdokument gefunden.",
               "Schreibe das YAML (beginnend mit 'match:') in den Mailtext oder hänge es als .yaml-Datei an; "
               "mit '>' zitierte Zeilen und Text unter einer Signatur '-- ' werden übergangen. Befehlsformular "
               "verloren? Eine Mail mit deinen Zeilen 'match:', 'player:' und 'key:' und 'command: help' bringt es."),
    },
    "document.several": {
        "en": ("This mail holds {count} order documents (lines {lines}).",
               "Send exactly one document per mail."),
        "de": ("Diese Mail enthält {count} Befehlsdokumente (Zeilen {lines}).",
               "Schicke genau ein Dokument pro Mail."),
    },
    "document.not_mapping": {
        "en": ("The document is not a list of 'name: value' lines.",
               "Start with 'match: ...' at the beginning of a line, without indentation."),
        "de": ("Das Dokument besteht nicht aus Zeilen der Form 'Name: Wert'.",
               "Beginne mit 'match: ...' am Zeilenanfang, ohne Einrückung."),
    },
    "document.too_large": {
        "en": ("The document is {size} bytes long; at most {limit} are accepted.",
               "Send only the order document, without large attachments or quoted mails."),
        "de": ("Das Dokument ist {size} Bytes lang; höchstens {limit} sind erlaubt.",
               "Schicke nur das Befehlsdokument, ohne große Anhänge oder zitierte Mails."),
    },
    "document.other_attachments": {
        "en": ("Only the first YAML attachment ({used}) was read; {ignored} ignored.",
               "Attach one order file per mail."),
        "de": ("Nur der erste YAML-Anhang ({used}) wurde gelesen; {ignored} übergangen.",
               "Hänge pro Mail nur eine Befehlsdatei an."),
    },
    "document.quoted": {
        "en": ("The orders were read from the quoted lines ('>') from line {line} on, where you filled them in.",
               "Next time, write them above the quoted mail, without '>'."),
        "de": ("Die Befehle wurden aus den zitierten Zeilen ('>') ab Zeile {line} gelesen, wo du sie eingetragen hast.",
               "Schreibe sie nächstes Mal über die zitierte Mail, ohne '>'."),
    },
    "document.set_aside": {
        "en": ("The attachment '{name}' ({size}) was not read.",
               "The referee reads the mail text and .yaml files only; no need to send pictures or documents."),
        "de": ("Der Anhang '{name}' ({size}) wurde nicht gelesen.",
               "Der Schiedsrichter liest nur den Mailtext und .yaml-Dateien; Bilder oder Dokumente sind nicht nötig."),
    },
    "document.tabs": {
        "en": ("Tabs at the start of line {line} were read as two spaces each.",
               "Indent with spaces; check that the indentation means what you intended."),
        "de": ("Tabulatoren am Anfang von Zeile {line} wurden als je zwei Leerzeichen gelesen.",
               "Rücke mit Leerzeichen ein; prüfe, ob die Einrückung stimmt."),
    },
    # -- YAML syntax and safety ---------------------------------------------
    "yaml.syntax": {
        "en": ("YAML syntax error: {problem}.",
               "Check line {line} near column {column}: indentation, a missing ':' or an unclosed "
               "bracket or quote."),
        "de": ("YAML-Syntaxfehler: {problem_de}.",
               "Prüfe Zeile {line} bei Spalte {column}: Einrückung, ein fehlender ':' oder eine "
               "nicht geschlossene Klammer oder ein Anführungszeichen."),
    },
    "yaml.reserved": {
        "en": ("A value that starts with '{char}' must be written in quotes.",
               "Write line {line} like this: {fixed}"),
        "de": ("Ein Wert, der mit '{char}' beginnt, muss in Anführungszeichen stehen.",
               "Schreibe Zeile {line} so: {fixed}"),
    },
    "yaml.alias": {
        "en": ("Anchors and aliases ('&name', '*name') are not accepted.",
               "Write every value out in full; check line {line}."),
        "de": ("Anker und Aliase ('&name', '*name') werden nicht angenommen.",
               "Schreibe jeden Wert vollständig aus; prüfe Zeile {line}."),
    },
    "yaml.too_deep": {
        "en": ("The document is nested more than {limit} levels deep.",
               "Orders need only a few levels; check the indentation and brackets near line {line}."),
        "de": ("Das Dokument ist tiefer als {limit} Ebenen verschachtelt.",
               "Befehle brauchen nur wenige Ebenen; prüfe Einrückung und Klammern bei Zeile {line}."),
    },
    "yaml.too_many_nodes": {
        "en": ("The document has more than {limit} values.",
               "Send only your orders for this turn."),
        "de": ("Das Dokument hat mehr als {limit} Werte.",
               "Schicke nur deine Befehle für diesen Zug."),
    },
    "yaml.tag": {
        "en": ("The tag '{tag}' is not accepted.",
               "Remove the '!'-tag in line {line}; plain values are enough."),
        "de": ("Das Tag '{tag}' wird nicht angenommen.",
               "Entferne das '!'-Tag in Zeile {line}; einfache Werte genügen."),
    },
    "yaml.duplicate_key": {
        "en": ("The entry '{key}:' appears twice.",
               "Keep one of them; check line {line}."),
        "de": ("Der Eintrag '{key}:' kommt doppelt vor.",
               "Behalte nur einen davon; prüfe Zeile {line}."),
    },
    # -- the envelope -----------------------------------------------------------
    "envelope.missing": {
        "en": ("The line '{field}:' is missing.",
               "Add '{field}: ...' at the start of a line, like 'match:'."),
        "de": ("Die Zeile '{field}:' fehlt.",
               "Ergänze '{field}: ...' am Zeilenanfang, wie 'match:'."),
    },
    "envelope.unknown_key": {
        "en": ("Unknown entry '{field}'{suggestion_en}.",
               "Allowed here: {allowed}. Put orders under 'orders:' (indented); check line {line}."),
        "de": ("Unbekannter Eintrag '{field}'{suggestion_de}.",
               "Erlaubt sind hier: {allowed_de}. Befehle gehören eingerückt unter 'befehle:' (oder 'orders:'); prüfe Zeile {line}."),
    },
    "envelope.wrong_type": {
        "en": ("'{field}' must be {expected}.",
               "Check line {line}."),
        "de": ("'{field}' muss {expected_de} sein.",
               "Prüfe Zeile {line}."),
    },
    "envelope.both": {
        "en": ("The document has both 'orders:' and 'command:'.",
               "Send orders and commands in separate mails."),
        "de": ("Das Dokument enthält sowohl 'orders:' als auch 'command:'.",
               "Schicke Befehle und Kommandos in getrennten Mails."),
    },
    "envelope.neither": {
        "en": ("The document has neither 'orders:' nor 'command:'.",
               "Add your orders under 'orders:', or a command such as 'command: status'."),
        "de": ("Das Dokument enthält weder 'orders:' noch 'command:'.",
               "Ergänze deine Befehle unter 'orders:' oder ein Kommando wie 'command: status'."),
    },
    # -- mail-level refusals the core reports with the same machinery ---------------
    "mail.rate_limited": {
        "en": ("Too many mails from {sender}: at most {limit} per {window_en}.",
               "Wait until {retry_after} and send your latest orders once."),
        "de": ("Zu viele Mails von {sender}: höchstens {limit} pro {window_de}.",
               "Warte bis {retry_after} und schicke dann deine letzten Befehle einmal."),
    },
}

# How positions are introduced when a problem is shown with its place.
WHERE = {
    "en": {"line_col": "Line {line}, column {column}", "line": "Line {line}"},
    "de": {"line_col": "Zeile {line}, Spalte {column}", "line": "Zeile {line}"},
}
