"""The player's legal choices for the clickable order page (contract: ``order_choices``):
a trick plan's steps (play, push, their targets, an ``if:`` condition, pass, ask) and
the draw choice, labelled with the order form's and the report's words (``form.py``).

An entry may carry ``when``: {sibling field: [values]}: it is legal only while that field
of the same step holds one of them (a target for the cards that take one); a page may
hide it otherwise."""
from __future__ import annotations

from typing import Any

from .actions import step_problems
from .edition import PARTIES
from .form import PARTY, T, label, targets
from .rules import static_problems

W = {
    "de": {"person": "Personenkarte", "zusatz": "Zusatzkarte", "army": "eine Armee",
           "winning": "nur, wenn du den Stich gerade gewinnst", "to": "bei Gleichstand zweier Heerführer an {p}"},
    "en": {"person": "person card", "zusatz": "Zusatzkarte", "army": "an army",
           "winning": "only if you are winning the trick now", "to": "to {p} when two commanders tie"},
}

Choices = dict[str, list[dict[str, Any]]]


def _one(value: Any, text: str, when: dict | None = None) -> dict[str, Any]:
    return {"value": value, "label": text, **({"when": when} if when else {})}


def _plays(d, ed, p) -> dict[str, list[dict]]:
    """card -> the steps playing it that the referee accepts (now or later in the trick)."""
    out: dict[str, list[dict]] = {}
    for card in dict.fromkeys(d["hands"][p]):
        ok = [s for s in targets(d, ed, p, card, every=True) if not static_problems(d, ed, p, s, "")]
        if ok:
            out[card] = ok
    return out


def _field(plays: dict[str, list[dict]], field: str) -> dict[Any, list[str]]:
    """value of ``field`` -> the cards a step may play with it."""
    out: dict[Any, list[str]] = {}
    for card, steps in plays.items():
        for s in steps:
            if field in s and card not in out.setdefault(s[field], []):
                out[s[field]].append(card)
    return out


def trick_choices(d, ed, p: str, lang: str) -> Choices:
    t, w = T[lang], W[lang]
    plays = _plays(d, ed, p)
    now = {c for c, steps in plays.items() if any(not step_problems(d, ed, p, s) for s in steps)}
    out: Choices = {
        "steps.*": [_one("pass", t["pass"]), _one("ask", t["ask"])],
        "steps.*.play": [_one(c, label(ed, c, lang) + (f" — {t['now']}" if c in now else "")) for c in plays],
        "steps.*.push": [_one(c, label(ed, c, lang)) for c in dict.fromkeys(d["hands"][p])],
    }
    names = {"on": lambda v: label(ed, v, lang), "player": str, "party": lambda v: f"{PARTY[lang][v]} ({v})",
             "to": lambda v: w["to"].format(p=v)}
    for field, name in names.items():   # a target no card in hand takes is offered empty: the page hides it
        out[f"steps.*.{field}"] = [_one(v, name(v), {"play": cards}) for v, cards in _field(plays, field).items()]
    out["steps.*.if.answered"] = [_one(q, f"{PARTY[lang][q]} ({q})") for q in PARTIES] + [_one("army", w["army"])]
    out["steps.*.if.winning"] = [_one(False, t["if_winning"]), _one(True, w["winning"])]
    return out


def order_choices(state, player: str, lang: str) -> Choices:
    d, ed = state.d, state.ed
    if player not in d["awaiting"] or d["stage"] == "over":
        return {}
    lang = lang if lang in T else "de"
    draw = {"draw": [_one(k, W[lang][k]) for k in ("person", "zusatz")]}
    if d["stage"] == "draw":
        return draw
    return {**trick_choices(d, ed, player, lang), **draw}
