"""The words of issue 38's ``pictures`` / ``no-pictures`` commands (matches/picture_setting.py),
in en + de; ``wording.TEXTS`` takes the refusal in (see the block at its end)."""
from __future__ import annotations

PICTURE_TEXTS: dict[str, dict[str, str]] = {
    "pictures.args": {
        "en": "'command: {command}' takes no other lines ('{arg}' is one too many). Send 'command: no-pictures' "
              "for reports without the board picture, 'command: pictures' to have it again.",
        "de": "'command: {command}' braucht keine weiteren Zeilen ('{arg}' ist eine zu viel). Schick "
              "'command: no-pictures' für Berichte ohne das Bild des Spielbretts, 'command: pictures', um es "
              "wieder zu bekommen."},
}

NOTED = {
    ("no-pictures", "en"): "Noted: your reports come without the board picture from now on "
                           "('command: pictures' brings it back).",
    ("no-pictures", "de"): "Notiert: deine Berichte kommen ab jetzt ohne das Bild des Spielbretts "
                           "('command: pictures' bringt es zurück).",
    ("pictures", "en"): "Noted: your reports carry the board picture again.",
    ("pictures", "de"): "Notiert: deine Berichte bringen wieder das Bild des Spielbretts mit.",
}
