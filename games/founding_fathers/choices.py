"""``order_choices``: what the player may choose now, labelled as the report and the order
form name it, for the clickable order page (issue 36)."""
from __future__ import annotations

from .actions import event_enactable, legal_votes
from .effects import Ctx, _assembly_targets, _discard_choices, _rivals_in_committee, _seize_targets, _vote_cards
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
    vote_states = {s: f"{s}: {side} — {', '.join(ok)}" for s, side, ok in reversed(votes)}
    events = [c for c in dict.fromkeys(hand) if not event_enactable(d, ed, player, c)]
    # what a vote, debate or snub may choose; an event's choices come with the cards that take them
    plain = {"state": sorted(vote_states.items()), "side": SIDE[lang].items() if votes else (),
             "delegates": [(c, _label(ed, c, lang)) for c in dict.fromkeys(hand)],
             "reclaim": [(r, r) for r in reclaim_options(d, player)] if free_markers(d, player) == 0 else ()}
    by_card: dict[str, dict] = {}
    for c in events:
        for field, value, label in _event_values(d, ed, player, c, lang, vote_states, plain):
            by_card.setdefault(field, {}).setdefault(value, [label, []])[1].append(c)
    out = {"action": _items(ACTION[lang].items()),
           "card": _when(((c, f"{c}: {ed.cards[c].text[lang]}") for c in events), {"action": ["event"]}),
           "take.*": _items((i + 1, f"{i + 1}: {ed.cards[c].state} {fac[ed.cards[c].faction]}")
                            for i, c in enumerate(d["pool"])),
           "committee_flip": _items(COMMITTEE[lang].items())}
    # every field an action may take gets a list, empty or not: one with nothing to choose is
    # not shown (rather than as a free input), and each value only for the actions that take it
    for field in dict.fromkeys(f for fields in ACTION_FIELDS.values() for f in fields if f != "card"):
        path = f"{field}.*" if field in LISTS else field
        out[path] = _when(plain.get(field, ()), {"action": [a for a in actions_taking(field) if a != "event"]})
        out[path] += [{"value": v, "label": str(label), "when": {"action": ["event"], "card": cards}}
                      for v, (label, cards) in by_card.get(field, {}).items()]
    return out


LISTS = ("delegates", "targets")   # list fields: their values are offered at "<field>.*"


def _when(pairs, when: dict) -> list[dict]:
    return [{"value": v, "label": str(label), "when": when} for v, label in pairs]


def _event_values(d, ed, player: str, c: str, lang: str, vote_states: dict, plain: dict):
    """(field, value, label) of each choice the event of ``c`` asks for now."""
    x, fac = Ctx(d, ed, player, c, None, None, []), FACTION[lang]
    for st in ed.cards[c].steps:
        kind = st["do"]
        if kind in ("debate_advance", "declare_vote", "seize_delegation"):   # may place a marker
            yield from (("reclaim", v, label) for v, label in plain["reclaim"])
        if kind == "committee_remove":
            yield from (("player", q, q) for q in _rivals_in_committee(x))
        elif kind == "discard_assembly":
            yield from (("targets", t, _label(ed, t, lang)) for t in _assembly_targets(x, st))
        elif kind == "seize_delegation":
            yield from (("state", s, s) for s in _seize_targets(x))
        elif kind == "steal_card":
            for q in d["players"]:
                if q != player and d["hands"][q]:
                    yield ("player", q, q)
                    yield from (("position", i, str(i)) for i in range(1, len(d["hands"][q]) + 1))
        elif kind == "take_discard":
            yield from (("pick", k, _label(ed, k, lang)) for k in _discard_choices(x, st))
        elif kind == "debate_advance" and st["faction"] == "any":
            yield from (("faction", f, fac[f]) for f in ("large_states", "small_states", "antifederalist", "federalist"))
        elif kind == "flip_article" and st["room"] == "resolved":
            yield from (("article", r[0], ed.articles[r[0]]["title"][lang]) for r in d["resolved"])
        elif kind == "declare_vote":
            yield from (("side", v, label) for v, label in SIDE[lang].items())
            if not st["with_card"]:
                yield from (("state", s, label) for s, label in sorted(vote_states.items()))
            same = _vote_cards(x, st, ed.cards[c].state)[1:] if st["with_card"] else [k for k in d["hands"][player] if k != c]
            yield from (("delegates", k, _label(ed, k, lang)) for k in dict.fromkeys(same))
