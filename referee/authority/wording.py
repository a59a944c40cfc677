"""Problems the authority itself finds (who, which match, which turn), in en + de,
and one way to phrase any problem (these or intake's ``Located``) for a reply."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.intake import checks

TEXTS: dict[str, dict[str, str]] = {
    "match.unknown": {
        "en": "There is no match called '{match}'. Check the 'match:' line against your welcome mail.",
        "de": "Es gibt keine Partie '{match}'. Vergleiche die Zeile 'match:' mit deiner Willkommensmail."},
    "player.unknown": {
        "en": "Match '{match}' has no player '{player}'. Use the player id from your welcome mail.",
        "de": "Die Partie '{match}' hat keinen Spieler '{player}'. Nimm die Spieler-ID aus deiner Willkommensmail."},
    "key.wrong": {
        "en": "The key does not fit player '{player}'. Copy it exactly from your welcome mail, or from the mail "
              "with your newest key if you asked for one. Lost it? Send 'command: new-key' without 'key:' from "
              "the address you are registered with.",
        "de": "Der Schlüssel passt nicht zu '{player}'. Übernimm ihn genau aus deiner Willkommensmail oder, wenn "
              "du einen neuen verlangt hast, aus der Mail mit dem neuesten. Verloren? Schicke 'command: new-key' "
              "ohne 'key:' von der Adresse, mit der du eingetragen bist."},
    "key.missing": {
        "en": "There is no 'key:' line: every mail with orders or commands needs your key, as your welcome mail "
              "gives it. Lost it? Send 'command: new-key' without 'key:' from the address you are registered with.",
        "de": "Es fehlt die Zeile 'key:': jede Mail mit Befehlen oder Kommandos braucht deinen Schlüssel, wie ihn "
              "deine Willkommensmail nennt. Verloren? Schicke 'command: new-key' ohne 'key:' von der Adresse, mit "
              "der du eingetragen bist."},
    "key.lost_elsewhere": {
        "en": "A new key without the old one goes only to the address '{player}' is registered with: send "
              "'command: new-key' from there, without 'key:'. (Playing from another address is 'command: address', "
              "which needs the key.)",
        "de": "Einen neuen Schlüssel ohne den alten gibt es nur für die Adresse, mit der '{player}' eingetragen ist: "
              "schicke 'command: new-key' von dort, ohne 'key:'. (Von einer anderen Adresse aus spielen geht mit "
              "'command: address', und dafür braucht es den Schlüssel.)"},
    "key.lost_cap": {
        "en": "A new key without the old one goes out at most {limit} times a day; the last one is in your mailbox. "
              "Try again tomorrow, or ask your game master.",
        "de": "Ein neuer Schlüssel ohne den alten geht höchstens {limit}-mal am Tag hinaus; der letzte liegt in "
              "deinem Postfach. Versuch es morgen wieder oder frag deine Spielleitung."},
    "key.placeholder": {
        "en": "'{key}' only holds the place of your key: put your own key there, as your welcome mail gives it.",
        "de": "'{key}' hält nur den Platz für deinen Schlüssel frei: setze deinen eigenen ein, wie ihn deine Willkommensmail nennt."},
    "turn.wrong": {
        "en": "These orders are for turn {sent}, but the current turn is {current}. Set 'turn: {current}'.",
        "de": "Diese Befehle sind für Zug {sent}, aktuell ist aber Zug {current}. Setze 'turn: {current}'."},
    "turn.not_awaited": {
        "en": "You owe no orders in turn {current}; wait for the next report.",
        "de": "Du schuldest in Zug {current} keine Befehle; warte auf den nächsten Bericht."},
    "turn.late": {
        "en": "Turn {current} closed for orders at {deadline}; the report follows shortly.",
        "de": "Zug {current} nimmt seit {deadline} keine Befehle mehr an; der Bericht folgt in Kürze."},
    "match.ended": {
        "en": "Match '{match}' has ended; it takes no more orders.",
        "de": "Die Partie '{match}' ist beendet und nimmt keine Befehle mehr an."},
    "mail.too_large": {
        "en": "This mail is too large to be read. Send only the order document, as plain text.",
        "de": "Diese Mail ist zu groß. Schicke nur das Befehlsdokument als einfachen Text."},
    "mail.over_limit": {   # mail.too_large, naming the limit (parse_inbound says which)
        "en": "This mail is too large to be read: {part_en} is over the limit of {limit}. "
              "Send only the order document, as plain text.",
        "de": "Diese Mail ist zu groß: {part_de} ist größer als erlaubt ({limit}). "
              "Schicke nur das Befehlsdokument als einfachen Text."},
    "mail.head_cut": {   # mail.too_large: header lines the referee would have to cut (parse_inbound)
        "en": "This mail cannot be read: its header lines, or those of one of its parts, are longer or more "
              "numerous than the referee reads, and what they say about the text would be lost. "
              "Send only the order document, as plain text, in a new mail.",
        "de": "Diese Mail lässt sich nicht lesen: ihre Kopfzeilen oder die eines ihrer Teile sind länger oder "
              "zahlreicher, als der Schiedsrichter liest, und was sie über den Text sagen, ginge verloren. "
              "Schicke nur das Befehlsdokument als einfachen Text in einer neuen Mail."},
    "command.unknown": {
        "en": "Unknown command '{command}'. Known: {known}.",
        "de": "Unbekannter Befehl '{command}'. Bekannt: {known}."},
    "command.failed": {
        "en": "The command '{command}' could not be carried out: {reason}",
        "de": "Der Befehl '{command}' konnte nicht ausgeführt werden: {reason}"},
    "gm.denied": {
        "en": "Only the game master of '{match}', with the GM key, may do this.",
        "de": "Nur die Spielleitung von '{match}' mit dem Spielleitungs-Schlüssel darf das."},
    "orders.missing": {
        "en": "The document has no 'orders:'. Fill in the order form from your last report.",
        "de": "Das Dokument enthält keine 'orders:'. Fülle das Befehlsformular aus deinem letzten Bericht aus."},
    "internal.error": {
        "en": "The referee could not process this mail because of an internal fault. It was kept; "
              "please tell your game master, and send your orders again later.",
        "de": "Der Schiedsrichter konnte diese Mail wegen eines internen Fehlers nicht verarbeiten. Sie wurde "
              "aufbewahrt; bitte sag deiner Spielleitung Bescheid und schicke deine Befehle später noch einmal."},
    "gm.pause": {
        "en": "Only a running match can be paused; this one is {status}.",
        "de": "Nur eine laufende Partie lässt sich anhalten (Stand: {status_de})."},
    "gm.start": {
        "en": "Only a match waiting for its start can be started; this one is {status}.",
        "de": "Starten lässt sich nur eine Partie, die auf ihren Start wartet (Stand: {status_de})."},
    "gm.resume": {
        "en": "Only a paused match can be resumed; this one is {status}.",
        "de": "Nur eine angehaltene Partie lässt sich fortsetzen (Stand: {status_de})."},
    "gm.extend_none": {
        "en": "There is no running deadline to extend.",
        "de": "Es läuft kein Abgabeschluss, der sich verschieben ließe."},
    "gm.extend_how": {
        "en": "'extend' needs 'by: 24h' or 'until: \"YYYY-MM-DD HH:MM\"'.",
        "de": "'extend' braucht 'by: 24h' oder 'until: \"JJJJ-MM-TT HH:MM\"'."},
    "gm.extend_earlier": {
        "en": "The new deadline must be later than the current one.",
        "de": "Der neue Abgabeschluss muss später liegen als der jetzige."},
    "gm.bad_duration": {
        "en": "'{value}' is not a duration such as 24h, 7d or 1d12h.",
        "de": "'{value}' ist keine Dauer wie 24h, 7d oder 1d12h."},
    "gm.bad_time": {
        "en": "'{value}' is not a date and time such as \"2026-03-07 20:00\" (in the match's time zone).",
        "de": "'{value}' ist kein Zeitpunkt wie \"2026-03-07 20:00\" (in der Zeitzone der Partie)."},
    "gm.too_far": {
        "en": "A deadline can be moved at most {days} days ahead.",
        "de": "Ein Abgabeschluss lässt sich höchstens {days} Tage in die Zukunft verschieben."},
    "gm.bad_address": {
        "en": "'{value}' is not a plain mail address (user@domain, ASCII only).",
        "de": "'{value}' ist keine einfache Mailadresse (name@domain, nur ASCII)."},
    "gm.bad_lang": {
        "en": "'{value}' is not a language the referee writes; known: {known}.",
        "de": "'{value}' ist keine Sprache, in der der Schiedsrichter schreibt; bekannt: {known}."},
    "gm.bad_name": {
        "en": "A name is one line of at most 80 characters, without control characters and without '=?' "
              "(mail programs would read what follows as encoded text).",
        "de": "Ein Name ist eine Zeile von höchstens 80 Zeichen, ohne Steuerzeichen und ohne '=?' "
              "(Mailprogramme würden das Folgende als kodierten Text lesen)."},
    "gm.bot_seat_needs_name": {
        "en": "A bot plays seat '{seat}' as '{bot}', and the person who takes it over needs a name of their own: "
              "give it with 'name:' beside 'seat:' and 'email:'.",
        "de": "Den Platz '{seat}' spielt ein Bot als '{bot}'; wer ihn übernimmt, braucht einen eigenen Namen: "
              "gib ihn mit 'name:' neben 'seat:' und 'email:' an."},
    "gm.bot_and_name": {
        "en": "A bot plays under the seat's present name, so 'name:' goes only with 'email:', when a person "
              "takes the seat; leave 'name:' out.",
        "de": "Ein Bot spielt unter dem bisherigen Namen des Platzes; 'name:' gehört darum nur zu 'email:', wenn "
              "eine Person den Platz übernimmt. Lass 'name:' weg."},
    "gm.needs": {
        "en": "The command '{command}' needs '{arg}:' as well.",
        "de": "Das Kommando '{command}' braucht auch '{arg}:'."},
    "gm.no_seat": {
        "en": "This match has no player '{seat}'; 'seat:' takes a player id.",
        "de": "Diese Partie hat keinen Spieler '{seat}'; 'seat:' nimmt eine Spieler-ID."},
    "gm.no_open_turn": {
        "en": "There is no open turn to {what}.",
        "de": "Es gibt keinen offenen Zug zum {what_de}."},
    "gm.no_resolved_turn": {
        "en": "No turn has been resolved yet, so there is none to roll back.",
        "de": "Noch ist kein Zug ausgewertet, also lässt sich keiner zurücknehmen."},
    "resend.none": {
        "en": "There is no report for turn {turn} yet. 'command: help' sends your order form for the open turn.",
        "de": "Für Zug {turn} gibt es noch keinen Bericht. 'command: help' schickt dir dein Befehlsformular für den "
              "laufenden Zug."},
}

# -- #18 table talk and the chronicle: their refusals live in their own module
from referee.authority.talk_words import NOTHING_TO_FIX as _TALK_NOTHING_TO_FIX  # noqa: E402
from referee.authority.talk_words import TEXTS as _TALK_TEXTS  # noqa: E402

TEXTS.update(_TALK_TEXTS)

STATUS_DE = {"running": "läuft", "paused": "angehalten", "waiting": "wartet auf den Start", "ended": "beendet"}


class Refusal(ValueError):
    """A GM command that cannot be carried out, phrased in the match's language for a
    mail (at the line of ``arg``, if given); ``str()`` is the English text the CLI prints."""

    def __init__(self, code: str, arg: str | None = None, **params) -> None:
        if "status" in params:
            params["status_de"] = STATUS_DE.get(params["status"], params["status"])
        self.code, self.arg, self.params = code, arg, params
        super().__init__(TEXTS[code]["en"].format(**params))

    def said(self, lang: str) -> str:
        """The refusal in ``lang`` (the command line speaks the match's language too)."""
        return Own(self.code, self.params).describe(lang)


# issue 13, sender authentication: a match that requires a proven From
TEXTS["sender.unproven"] = {
    "en": "This match takes orders only from a sender its mail servers can prove (DKIM or DMARC), "
          "and this mail's sender is not proven: {why_en}. Nothing was changed, and the registered "
          "address of the seat has been told. Send the mail again, straight from your own mailbox "
          "(not forwarded, not through a list).",
    "de": "Diese Partie nimmt Befehle nur von einem Absender an, den die Mailserver belegen können "
          "(DKIM oder DMARC), und der Absender dieser Mail ist nicht belegt: {why_de}. Nichts wurde "
          "geändert, und die eingetragene Adresse des Platzes ist benachrichtigt. Schicke die Mail "
          "noch einmal, direkt aus deinem eigenen Postfach (nicht weitergeleitet, nicht über eine Liste)."}


# Refusals where the document is fine and only waiting (or the GM) helps: the reply
# must not tell the player to correct and resend it.
NOTHING_TO_FIX = frozenset({
    "turn.not_awaited", "turn.late", "match.ended", "resend.none", "internal.error",
    "mail.rate_limited", "gm.pause", "gm.start", "gm.resume", "gm.extend_none", "gm.no_open_turn",
    "gm.no_resolved_turn"}) | _TALK_NOTHING_TO_FIX

# -- issue 18, seats (life-seats): the seat commands' refusals -----------------
from referee.authority.seat_wording import SEAT_NOTHING_TO_FIX, SEAT_TEXTS  # noqa: E402

TEXTS.update(SEAT_TEXTS)
NOTHING_TO_FIX = NOTHING_TO_FIX | SEAT_NOTHING_TO_FIX

MAX_PROBLEM = 600   # one problem's text in a reply, whatever the document held
_PLACE = {"en": ("Line {line}, column {column}: ", "Line {line}: "),
          "de": ("Zeile {line}, Spalte {column}: ", "Zeile {line}: ")}
_IN_FILE = {"en": "In the attached file {source}, ", "de": "In der angehängten Datei {source}, "}


@dataclass(frozen=True)
class Own:
    """One of the authority's problems; mirrors the fields of intake's ``Located``."""
    code: str
    params: dict = field(default_factory=dict)
    line: int | None = None
    column: int | None = None
    severity: str = "error"

    def describe(self, lang: str) -> str:
        texts = TEXTS[self.code]
        # a value the sender chose is shown back short and on one line, never as a paragraph of theirs
        params = {k: checks.echo(v, _LONGER.get(k, checks.MAX_ECHO)) if isinstance(v, str) else v
                  for k, v in self.params.items()}
        body = (texts.get(lang) or texts["en"]).format(**params)
        return _place(lang, self.line, self.column) + body


_LONGER = {"reason": 400, "known": 200}   # the referee's own lists and explanations


def _place(lang: str, line: int | None, column: int | None) -> str:
    with_col, only_line = _PLACE.get(lang, _PLACE["en"])
    if line is None:
        return ""
    return with_col.format(line=line, column=column) if column is not None else only_line.format(line=line)


def describe(problem, lang: str, source: str | None = None) -> str:
    """``source``: the attachment the document came from ("body" or None: the mail
    text); a line number in an attachment is no use unless the reply says so."""
    if hasattr(problem, "describe"):
        said = problem.describe(lang)
    else:
        text = getattr(problem, "text", {}) or {}
        body = text.get(lang) or text.get("en") or problem.code
        said = _place(lang, problem.line, problem.column) + body[:MAX_PROBLEM]
    if source and source != "body" and problem.line is not None:
        if said.startswith("Line "):
            said = "l" + said[1:]
        said = _IN_FILE.get(lang, _IN_FILE["en"]).format(source=source) + said
    return said

# -- issue 12, several workers: a GM's close that met another worker's (close_words.py)
from referee.authority.close_words import CLOSE_NOTHING_TO_FIX, CLOSE_TEXTS  # noqa: E402

TEXTS.update(CLOSE_TEXTS)
NOTHING_TO_FIX = NOTHING_TO_FIX | CLOSE_NOTHING_TO_FIX

# -- issue 38: a seat's board pictures (matches/picture_setting.py)
from referee.authority.picture_words import PICTURE_TEXTS  # noqa: E402

TEXTS.update(PICTURE_TEXTS)

# -- issue 35: bot seats (bot_words.py)
from referee.authority.bot_words import BOT_TEXTS  # noqa: E402

TEXTS.update(BOT_TEXTS)
