"""A "did you mean" for a misspelt card or state in a refusal (the contract's ``did_you_mean``)."""
from __future__ import annotations

from referee.game_api.contract import did_you_mean

from .edition import STATES

# what players write for a state instead of its code, and the codes themselves
STATE_WORDS = {**{code: code for code in STATES},
               "NEW HAMPSHIRE": "NH", "MASSACHUSETTS": "MA", "CONNECTICUT": "CT", "NEW YORK": "NY",
               "NEW JERSEY": "NJ", "PENNSYLVANIA": "PA", "DELAWARE": "DE", "MARYLAND": "MD", "VIRGINIA": "VA",
               "NORTH CAROLINA": "NC", "SOUTH CAROLINA": "SC", "GEORGIA": "GA"}


def card_meant(card: object, dealt: list[str]) -> dict[str, str]:
    """The dealt card a misspelt one most likely means, as a refusal's parameter."""
    return did_you_mean(card, {c: c for c in dealt})


def state_meant(value: object) -> dict[str, str]:
    """The state code a misspelt code or a state's name most likely means."""
    return did_you_mean(None if value is None else str(value).upper().strip(), STATE_WORDS)
