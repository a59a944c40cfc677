"""A report mail for a seat that asked for no pictures (``command: no-pictures``,
issue 38): the rendered report is the one every reader of the turn shares (the
archive keeps it once), so the picture is taken out here, when the seat's mail is
built: no PNG part, the HTML's image paragraph gone, and the text's line about
the attachment replaced by a reminder of how to have the picture again."""
from __future__ import annotations

import re

# what templates/mail/report*.j2 write about the picture (tests/pictures/test_no_pictures.py holds them to it)
_IMAGE = re.compile(r'<p><img src="cid:board-picture"[^>]{0,2000}></p>\n?')
_ATTACHED = re.compile(r"^[^\n]{0,200}\(board\.png\)\.$", re.MULTILINE)

REMINDER = {
    "en": "(No board picture: you asked for reports without it; 'command: pictures' brings it back.)",
    "de": "(Kein Bild des Spielbretts: du wolltest Berichte ohne; 'command: pictures' bringt es zurück.)",
}


def lang_of(ref: dict) -> str:
    """A queued report's language, from its archive name (``ann.en``)."""
    lang = str(ref.get("name", "")).rpartition(".")[2]
    return lang if lang in REMINDER else "en"


def without_picture(text: str, html: str | None, lang: str) -> tuple[str, str | None]:
    """(text, HTML) of a report with the picture taken out."""
    note = REMINDER.get(lang, REMINDER["en"])
    text = _ATTACHED.sub(lambda _m: note, text, count=1)
    if html is not None:
        html = _IMAGE.sub(lambda _m: f"<p>{note}</p>\n", html, count=1)
    return text, html


def seat_of(ref: dict) -> str | None:
    """The seat a queued report goes to; None for the GM's and the observers' (``_gm``, ``_public.en``)."""
    who = str(ref.get("who", ""))
    return None if not who or who.startswith("_") else who
