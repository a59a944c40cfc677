"""Part of the contract (``contract.py`` re-exports it): what is wrong or doubtful in orders."""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class Problem:
    """Something wrong (error) or doubtful (warning) in an order document.

    ``where`` is a dotted path into the ``orders:`` mapping (``"delegates.1"``)
    so the referee can point at the YAML line; ``code`` + ``params`` let each
    language phrase it (see ``GameRules.messages``); ``text`` is an English
    fallback for codes without a translation.
    """

    code: str
    where: str = ""
    severity: Literal["error", "warning"] = "error"
    params: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


# A warning whose code starts with FAULT ("fault.actions.target") says that a part of the
# orders is faulty and will be replaced by the game's default (the Ratsspiel's
# Standardaktion): the acceptance says such faults first, and the turn does not close
# early while a player's accepted orders carry one (authority/gate/orders.py sets the
# player's wait flag until orders without a fault come).
FAULT = "fault."


NEAR_MAX = 64   # a near choice is a slip of a few letters: a longer value is near nothing


def did_you_mean(value: object, table: Mapping[str, str]) -> dict[str, str]:
    """A problem's parameter (worded per language) naming the choice ``value`` is most likely
    a slip for: `` Did you mean 'x'?`` where ``value`` is near one key of ``table`` (the word a
    choice is compared by -> the choice to name); empty texts where it is near none."""
    if value is None or len(str(value)) > NEAR_MAX:
        return {"en": "", "de": ""}
    near = difflib.get_close_matches(str(value), list(table), n=1, cutoff=0.7)
    if not near:
        return {"en": "", "de": ""}
    return {"en": f" Did you mean '{table[near[0]]}'?", "de": f" Meintest du „{table[near[0]]}“?"}
