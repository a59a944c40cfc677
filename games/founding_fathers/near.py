"""A "did you mean" for a misspelt card or state in a refusal, worded per language."""
from __future__ import annotations

import difflib

from .edition import STATES

# what players write for a state instead of its code
STATE_NAMES = {"NEW HAMPSHIRE": "NH", "MASSACHUSETTS": "MA", "CONNECTICUT": "CT", "NEW YORK": "NY",
               "NEW JERSEY": "NJ", "PENNSYLVANIA": "PA", "DELAWARE": "DE", "MARYLAND": "MD", "VIRGINIA": "VA",
               "NORTH CAROLINA": "NC", "SOUTH CAROLINA": "SC", "GEORGIA": "GA"}


def did_you_mean(value, choices) -> dict | str:
    """`` Did you mean 'x'?`` where ``value`` is near exactly one of ``choices``, else ""."""
    near = difflib.get_close_matches(str(value)[:64], list(choices), n=1, cutoff=0.7)
    return _said(near[0]) if near else ""


def state_meant(value) -> dict | str:
    """The state code a misspelt code or a state's name most likely means, as ``did_you_mean``."""
    text = str(value or "")[:64].upper().strip()
    table = {**{code: code for code in STATES}, **STATE_NAMES}
    near = difflib.get_close_matches(text, list(table), n=1, cutoff=0.7)
    return _said(table[near[0]]) if near else ""


def _said(choice: str) -> dict:
    return {"en": f" Did you mean '{choice}'?", "de": f" Meintest du „{choice}“?"}
