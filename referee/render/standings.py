"""The standings a report shows: the game's ``standings(view)`` after the turn,
each number with its change since the turn before, labels phrased by the game
(``standings.<label>`` in its messages)."""
from __future__ import annotations

import logging

from referee.game_api.contract import PUBLIC

log = logging.getLogger("referee.render.standings")


def read(rules, state) -> dict:
    """``{label: {who: number}}`` of a state's public view, {} without the hook (or if it fails)."""
    if state is None:
        return {}
    return of_view(rules, lambda: rules.view(state, PUBLIC))


def of_view(rules, public) -> dict:
    """``read`` from the public view ``public()`` gives (a close has made it already for its reports)."""
    hook = getattr(rules, "standings", None)
    if hook is None:
        return {}
    try:
        found = hook(public())
    except Exception:       # the standings are an extra: a failing hook costs no report
        log.exception("%s: reading the standings failed", getattr(rules, "name", "?"))
        return {}
    return found if isinstance(found, dict) else {}


def word(rules, key: str, lang: str) -> str:
    texts = rules.messages.get(f"standings.{key}") or {}
    return texts.get(lang) or texts.get("en") or key


def table(rules, before: dict, after: dict, lang: str, players: dict) -> list[dict]:
    """[{label, rows: [{name, value, change}]}] best first; ``change`` None for a newcomer."""
    out = []
    for label, values in after.items():
        old = before.get(label) or {}
        rows = [{"name": players[k]["name"] if k in players else word(rules, k, lang), "value": v,
                 "change": (v - old[k]) if isinstance(old.get(k), (int, float)) else None}
                for k, v in values.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        rows.sort(key=lambda r: -r["value"])
        out.append({"label": word(rules, label, lang), "rows": rows})
    return out
