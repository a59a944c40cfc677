"""``order_choices``: what the player may choose now, labelled as the report and the order
form name it, for the clickable order page (issue 36)."""
from __future__ import annotations

from .actions import event_enactable, legal_votes
from .effects import Ctx, _assembly_targets, _discard_choices, _rivals_in_committee, _seize_targets
from .form import FACTION, _label
from .orders import ACTION_FIELDS, actions_taking
from .state import free_markers, reclaim_options

ACTION = {"en": {"vote": "vote: declare a delegation's vote", "debate": "debate: speak in debate",
                 "event": "event: enact a card's event", "snub": "snub: discard delegates (none: a pass)"},
          "de": {"vote": "vote: Stimmabgabe einer Delegation", "debate": "debate: debattieren",
                 "event": "event: Ereignis einer Karte ausführen", "snub": "snub: Delegierte abwerfen (keine: passen)"}}
SIDE = {"en": {"yea": "yea", "nay": "nay"}, "de": {"yea": "ja (yea)", "nay": "nein (nay)"}}
FLIP = {"en": {True: "flip the article", False: "leave it as it lies"},
        "de": {True: "den Artikel umdrehen", False: "liegen lassen"}}
COMMITTEE = {"en": {"flip": "flip the Committee article if I win it", "keep": "leave it if I win it"},
             "de": {"flip": "Komitee-Artikel umdrehen, wenn ich es gewinne", "keep": "liegen lassen, wenn ich es gewinne"}}


def _items(pairs) -> list[dict]:
    return [{"value": v, "label": str(label)} for v, label in pairs]


def order_choices(state, player: str, lang: str) -> dict[str, list[dict]]:
    d, ed = state.d, state.ed
    lang = lang if lang in ACTION else "en"
    stage, fac = d["stage"], FACTION[lang]
    if stage == "keep" and player in d["dealt"]:
        return {"keep.*": _items((c, _label(ed, c, lang)) for c in d["dealt"][player])}
    if stage == "committee_flip" and d["flip_player"] == player:
        return {"flip": _items(FLIP[lang].items())}
    if stage != "action" or d["players"][d["active"]] != player:
        return {}
    hand = d["hands"][player]
    votes = legal_votes(d, ed, player)
    states = {s: f"{s}: {side} — {', '.join(ok)}" for s, side, ok in reversed(votes)}
    cards = [(c, _label(ed, c, lang)) for c in dict.fromkeys(hand)]
    events = [c for c in dict.fromkeys(hand) if not event_enactable(d, ed, player, c)]
    others, targets, picks, positions, tracks, articles = [], [], [], 0, False, False
    for c in events:
        x = Ctx(d, ed, player, c, None, None, [])
        for st in ed.cards[c].steps:
            kind = st["do"]
            if kind == "committee_remove":
                others += _rivals_in_committee(x)
            elif kind == "discard_assembly":
                targets += _assembly_targets(x, st)
            elif kind == "seize_delegation":
                states.update((s, s) for s in _seize_targets(x) if s not in states)
            elif kind == "steal_card":
                for q in d["players"]:
                    if q != player and d["hands"][q]:
                        others.append(q)
                        positions = max(positions, len(d["hands"][q]))
            elif kind == "take_discard":
                picks += _discard_choices(x, st)
            elif kind == "debate_advance":
                tracks = tracks or st["faction"] == "any"
            elif kind == "flip_article":
                articles = articles or st["room"] == "resolved"
    out = {"action": _items(ACTION[lang].items()), "side": _items(SIDE[lang].items()),
           "state": _items(sorted(states.items())), "delegates.*": _items(cards),
           "card": _items((c, f"{c}: {ed.cards[c].text[lang]}") for c in events),
           "faction": _items((f, fac[f]) for f in ("large_states", "small_states", "antifederalist", "federalist")
                             if tracks),
           "take.*": _items((i + 1, f"{i + 1}: {ed.cards[c].state} {fac[ed.cards[c].faction]}") for i, c in enumerate(d["pool"])),
           "committee_flip": _items(COMMITTEE[lang].items())}
    out["targets.*"] = _items((c, _label(ed, c, lang)) for c in dict.fromkeys(targets))
    out["player"] = _items((q, q) for q in dict.fromkeys(others))
    out["position"] = _items((i, str(i)) for i in range(1, positions + 1))
    out["pick"] = _items((c, _label(ed, c, lang)) for c in dict.fromkeys(picks))
    out["article"] = _items((r[0], ed.articles[r[0]]["title"][lang]) for r in d["resolved"] if articles)
    out["reclaim"] = _items((r, r) for r in reclaim_options(d, player)) if free_markers(d, player) == 0 else []
    return _for_the_actions_taking_them(out)


def _for_the_actions_taking_them(out: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """Each value offered only while an action that reads its field is chosen: the page shows
    a snub no event's fields. Every field an action may read has a list, empty or not, so
    that one with nothing to choose is not shown as a free input."""
    for path, items in out.items():
        actions = actions_taking(path.split(".")[0])
        if len(actions) < len(ACTION_FIELDS):
            for item in items:
                item["when"] = {"action": actions}
    return out
