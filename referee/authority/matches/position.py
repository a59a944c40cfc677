"""The position as one reader may see it, outside a report: in a welcome mail
(the starting position, or the seat a replacement takes over), an observer's
welcome and the final standings of a match the GM ends.  It is the game's own
report template rendered on the current state with nothing happened, so it
shows exactly the report's allow-listed view (the Ratsspiel's agenda, council
and city values; Founding Fathers' hand; Nations' dice)."""
from __future__ import annotations

import logging

log = logging.getLogger("referee.position")


def position_text(renderer, rules, match_ctx: dict, state, viewer, lang: str, turn: int,
                  players: dict, outcome: dict | None = None) -> str:
    """The game's report body for ``viewer`` on ``state`` with an empty log; ""
    when the game has no report template or it cannot render a position without
    a turn (a mail is never lost for want of it)."""
    ctx = {"match": match_ctx, "turn": turn, "viewer": viewer, "view": rules.view(state, viewer), "log": [],
           "missing": [], "players": players, "outcome": outcome, "order_form": "", "next": None}
    try:
        text, _ = renderer.game_report(rules.name, rules.languages, lang, ctx)
    except Exception as e:  # a game template that needs a resolved turn: the mail goes without the position
        log.info("no position for %s (%s): %s", rules.name, viewer, e.__class__.__name__)
        return ""
    return text.strip("\n")


def summary_text(rules, lang: str) -> str:
    """The game's ``rules_summary(lang)`` hook, "" for a game without one."""
    hook = getattr(rules, "rules_summary", None)
    if not callable(hook):
        return ""
    try:
        text = hook(lang)
    except Exception:  # an optional hook never stops a welcome mail
        return ""
    return text.strip() if isinstance(text, str) else ""
