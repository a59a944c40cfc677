"""The GM's refusals about closing that several workers make possible (issue 12), in
en + de; ``wording.TEXTS`` takes them in (see the block at its end)."""
from __future__ import annotations

CLOSE_TEXTS: dict[str, dict[str, str]] = {
    # the GM's close met another worker closing the same turn: it waited for that close
    "gm.just_closed": {
        "en": "Turn {turn} was just closed by the referee itself, while your command waited for it; "
              "its reports are on their way. Nothing else was closed.",
        "de": "Zug {turn} wurde eben vom Schiedsrichter selbst geschlossen, während dein Kommando darauf "
              "wartete; die Berichte sind unterwegs. Sonst wurde nichts geschlossen."},
}
CLOSE_NOTHING_TO_FIX = frozenset(CLOSE_TEXTS)
