"""Reading the values a player writes as the report prints them: any letter case,
umlauts or their transcription, spaces for underscores (``Efferdgrund``,
``aufstände``, ``Fremdes Revier``); a name is read as its id where no other
choice folds to the same word.  What matches nothing comes back as written,
with the near choice to suggest."""
from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Mapping

from referee.game_api.contract import did_you_mean

_SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", " ": "_", "-": "_"})


def fold(value: object) -> str:
    """The word a value is compared by: case-blind, umlauts spelled out, other marks dropped."""
    return _folded(str(value))


@functools.lru_cache(maxsize=4096)   # the same few ids and names are read in every resolve (a bot's search resolves thousands)
def _folded(text: str) -> str:
    text = text.strip().casefold().translate(_SPELLED)
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def choices(ids: Iterable[str], names: Mapping[str, str] | None = None) -> dict[str, str]:
    """folded word -> id, for the ids and (where given) their names; a word two ids
    share is left out, so nothing ambiguous is read."""
    seen: dict[str, set[str]] = {}
    for i in ids:
        for word in (i, (names or {}).get(i)):
            if word:
                seen.setdefault(fold(word), set()).add(i)
    return {w: next(iter(ids_)) for w, ids_ in seen.items() if len(ids_) == 1}


def canon(value: object, table: Mapping[str, str]) -> object:
    """The id ``value`` names in ``table`` (from ``choices``), else ``value`` unchanged."""
    if value is None or isinstance(value, bool):
        return value
    return table.get(fold(value), value)


def hint(value: object, table: Mapping[str, str]) -> dict[str, str]:
    """`` Meintest du „x“?`` for a value that names nothing but is near one choice ("" else)."""
    return did_you_mean(None if value is None else fold(value), table)


def allowed(values) -> dict[str, str]:
    """`` Possible: a | b.`` for a field no near choice can be named for: what it takes."""
    shown = " | ".join(str(v) for v in values) or "—"
    return {"de": f" Möglich: {shown}.", "en": f" Possible: {shown}."}


# keys a player puts at the top of the orders that belong one level down, with the shape
# they belong in: the reply says where (the schema alone would only say "not allowed here")
_CARD = "ereigniskarte: {karte: kaiserhof, vorschlag: <nr>, seite: pro}"
_INFLUENCE = "aktionen: {einflussnahme: [{ziel: <id>, vorschlag: <nr>, richtung: pro, punkte: 2}]}"
MISPLACED = {
    "karte": _CARD, "vorschlag": _CARD, "seite": _CARD,
    "viertel": "ereigniskarte: {karte: aufstaende, viertel: <viertel>}",
    "schicht": "ereigniskarte: {karte: klassenkampf, schicht: <schicht>}",
    "ziel": "ereigniskarte: {karte: entfuehrung, ziel: <id>}",
    "verwaltungsarbeit": "aktionen: {verwaltungsarbeit: 12, wahlkampf: 0}",
    "wahlkampf": "aktionen: {verwaltungsarbeit: 8, wahlkampf: 2}",
    "einflussnahme": _INFLUENCE, "richtung": _INFLUENCE, "punkte": _INFLUENCE,
}
