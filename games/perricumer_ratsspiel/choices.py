"""The player's legal choices for the clickable order page (contract: ``order_choices``):
the session's phases as the order document names them (ereigniskarten in round one,
then ereigniskarte, aktionen, abstimmung, auswahl), every value labelled with the
report's words.  The lists are the ones the order form comments (``form.py``).

A mapping whose keys are chosen (``abstimmung``: a vote per proposal) has its keys offered at
its own path, and each key's values below it (``abstimmung.12``).

An entry may carry ``when``: {sibling field: [values]}: it is legal only while that field
of the same mapping holds one of them (a quarter for the cards that take one, a candidate
for the election it stands in); a page may hide it otherwise."""
from __future__ import annotations

from typing import Any

from referee.game_api.contract import GM

from . import council as C
from .campaign import VALUE_NAMES
from .form import card_example, card_label, describe, sides
from .orders import AP, CARD_PARAM, CARDS

W = {
    "rest": {"de": "rest — alle AP, die Wahlkampf und Einflussnahme übrig lassen",
             "en": "rest — every AP campaigning and influence leave"},
    "ap": {"de": "{n} AP", "en": "{n} AP"},
    "up": {"de": "steigt (+)", "en": "rises (+)"}, "down": {"de": "sinkt (−)", "en": "falls (−)"},
    "vorschlag": {"de": "Ratsvorschlag", "en": "proposal"}, "wahl": {"de": "Wahl", "en": "election"},
}

Choices = dict[str, list[dict[str, Any]]]


def _say(key: str, lang: str, **kw) -> str:
    text = W[key].get(lang) or W[key]["en"]
    return text.format(**kw) if kw else text


def _one(value: Any, label: str, when: dict | None = None) -> dict[str, Any]:
    return {"value": value, "label": label, **({"when": when} if when else {})}


def _side_label(s: dict, side: str) -> str:
    mems = C.members(s)
    return f"{mems[side]['name']} ({side})" if side in mems else side


def _npc_choices(s: dict, when: dict | None = None) -> list[dict]:
    mems = C.members(s)
    return [_one(m, f"{mems[m]['name']} ({m})", when) for m in C.npcs(s)]


def _proposal_choices(s: dict, nrs: list[int], lang: str, when: dict | None = None) -> list[dict]:
    return [_one(nr, describe(s, nr, lang, ids=False), when) for nr in nrs]


def _sides_by_proposal(s: dict, nrs: list[int], field: str, extra: dict | None = None) -> list[dict]:
    """Each side once (pro, contra, every candidate), with the proposals it belongs to."""
    where: dict[str, list[int]] = {}
    for nr in nrs:
        for side in sides(s, nr):
            where.setdefault(side, []).append(nr)
    return [_one(side, _side_label(s, side), {**(extra or {}), field: on}) for side, on in where.items()]


def _card_choices(s: dict, player: str, lang: str) -> Choices:
    camp = s["campaign"]
    npcs = C.npcs(s)
    left = [c for c in s["cards"].get(player) or [] if card_example(s, c, npcs)]
    if not left:
        return {"ereigniskarte": []}
    # a detail no card in hand takes is offered empty: the page does not show it
    out: Choices = {"ereigniskarte.karte": [_one(c, card_label(c, lang)) for c in left],
                    "ereigniskarte.vorschlag": [], "ereigniskarte.seite": [], "ereigniskarte.abstimmung": []}

    def taking(field: str) -> list[str]:
        return [c for c in left if CARD_PARAM[c] == field]
    for field, names in (("viertel", camp["viertel"]), ("schicht", camp["schichten"])):
        out[f"ereigniskarte.{field}"] = [_one(k, v, {"karte": taking(field)}) for k, v in names.items()] if taking(
            field) else []
    out["ereigniskarte.ziel"] = _npc_choices(s, {"karte": taking("ziel")}) if taking("ziel") else []
    if "marionette" in left and s["session"]:
        out["ereigniskarte.abstimmung"] = _proposal_choices(s, s["session"], lang, {"karte": ["marionette"]})
        for nr in s["session"]:
            out[f"ereigniskarte.abstimmung.{nr}"] = [
                _one(side, _side_label(s, side), {"karte": ["marionette"]}) for side in sides(s, nr)]
    if "kaiserhof" in left:
        out["ereigniskarte.vorschlag"] = _proposal_choices(s, s["session"], lang, {"karte": ["kaiserhof"]})
        out["ereigniskarte.seite"] = _sides_by_proposal(s, s["session"], "vorschlag", {"karte": ["kaiserhof"]})
    return out


def _session_choices(s: dict, player: str, lang: str) -> Choices:
    out: Choices = _card_choices(s, player, lang)
    amounts = range(AP + 1)
    out["aktionen.verwaltungsarbeit"] = [_one("rest", _say("rest", lang))] + [
        _one(n, _say("ap", lang, n=n)) for n in amounts]
    out["aktionen.wahlkampf"] = [_one(n, _say("ap", lang, n=n)) for n in amounts]
    session = list(s["session"])
    if not (session and C.npcs(s)):
        out["aktionen.einflussnahme.*"] = []     # no influence possible: the page hides the list
    else:
        out["aktionen.einflussnahme.*.ziel"] = _npc_choices(s)
        out["aktionen.einflussnahme.*.vorschlag"] = _proposal_choices(s, session, lang)
        out["aktionen.einflussnahme.*.richtung"] = _sides_by_proposal(s, session, "vorschlag")
        out["aktionen.einflussnahme.*.punkte"] = [_one(n, _say("ap", lang, n=n)) for n in range(1, AP + 1)]
    out["abstimmung"] = _proposal_choices(s, session, lang)
    for nr in session:
        out[f"abstimmung.{nr}"] = [_one(side, _side_label(s, side)) for side in sides(s, nr)]
    return out


def player_choices(s: dict, player: str, lang: str) -> Choices:
    """Every phase open this session; a phase that is not (the card choice once made, round
    one's card, actions and votes, the last round's selection) offers nothing: the page hides it."""
    picks = s["cards"].get(player) is None
    m = s["players"][player]
    out: Choices = {"spielerfigur": [_one(m, C.members(s)[m]["name"])],
                    "ereigniskarten.*": [_one(c, card_label(c, lang)) for c in CARDS] if picks else []}
    if s["round"] > 1:
        out.update(_session_choices(s, player, lang))
    else:
        out.update({"ereigniskarte": [], "aktionen": [], "abstimmung": []})
    last = s["round"] >= s["campaign"]["rounds"] or not s["selection"]
    out["auswahl"] = [] if last else _proposal_choices(s, s["selection"], lang)
    return out


def gm_choices(s: dict, lang: str) -> Choices:
    camp = s["campaign"]
    mems = C.members(s)
    symbols = [_one(k, v, {"kind": ["vorschlag"]}) for k, v in {**camp["viertel"], **camp["schichten"]}.items()]
    return {
        "nachziehen.*": _proposal_choices(s, [*s["selection"], *s["deck"]], lang),
        "agenda_veroeffentlichen.*": [
            _one(p, f"{p}: {mems[m]['name']}") for p, m in sorted(s["players"].items())],
        "neue_vorschlaege.*.kind": [_one(k, _say(k, lang)) for k in ("vorschlag", "wahl")],
        "neue_vorschlaege.*.value": [_one(v, VALUE_NAMES[v].get(lang, VALUE_NAMES[v]["de"]),
                                          {"kind": ["vorschlag"]}) for v in s["values"]],
        "neue_vorschlaege.*.direction": [_one(d, _say(d, lang)) for d in ("up", "down")],
        "neue_vorschlaege.*.pro.*": symbols,
        "neue_vorschlaege.*.contra.*": symbols,
        "neue_vorschlaege.*.office": [_one(o["id"], o["name"].get(lang, o["name"]["de"]), {"kind": ["wahl"]})
                                      for o in camp["offices"]],
        "neue_vorschlaege.*.candidates.*": [_one(m, f"{x['name']} ({m})", {"kind": ["wahl"]})
                                            for m, x in mems.items()],
    }


def order_choices(s: dict, player: str, lang: str, owed: dict[str, str]) -> Choices:
    if player not in owed:
        return {}
    return gm_choices(s, lang) if player == GM else player_choices(s, player, lang)
