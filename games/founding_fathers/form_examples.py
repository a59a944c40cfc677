"""The commented examples of the action form: one of every shape an action may take
(a vote, a debate, each enactable event with its choices, a snub, the choices said
in advance), each checked with ``validate``'s own check, so that every example a
player uncomments is accepted."""
from __future__ import annotations

from .actions import check, event_enactable, is_error, legal_votes
from .edition import PLANNER
from .effects import Ctx, _assembly_targets, _discard_choices, _rivals_in_committee, _seize_targets
from .orders import ActionOrders
from .state import free_markers, reclaim_options


def _event_choices(d, ed, p, cid) -> list[dict]:
    """Ways to fill in ``cid``'s choices, the most likely first."""
    x = Ctx(d, ed, p, cid, None, None, [])
    out: dict = {}
    for st in ed.cards[cid].steps:
        kind = st["do"]
        if kind == "committee_remove" and _rivals_in_committee(x):
            out["player"] = _rivals_in_committee(x)[0]
        elif kind == "debate_advance" and st["faction"] == "any":
            out["faction"] = "large_states"
        elif kind == "discard_assembly" and _assembly_targets(x, st):
            out["targets"] = _assembly_targets(x, st)[:1]
        elif kind == "seize_delegation" and _seize_targets(x):
            out["state"] = _seize_targets(x)[0]
        elif kind == "steal_card":
            other = next((q for q in d["players"] if q != p and d["hands"][q]), None)
            if other:
                out.update(player=other, position=1)
        elif kind == "take_discard" and _discard_choices(x, st):
            out["pick"] = sorted(set(_discard_choices(x, st)))[0]
        elif kind == "flip_article" and st["room"] == "resolved" and d["resolved"]:
            out["article"] = d["resolved"][0][0]
        elif kind == "declare_vote":
            state = ed.cards[cid].state if st["with_card"] else None
            if state is None:
                votes = legal_votes(d, ed, p)
                if votes:
                    out.update(state=votes[0][0], delegates=votes[0][2])
            return [dict(out, side=side) for side in ("yea", "nay")]
    return [out]


def _ok(d, ed, p, example: dict) -> bool:
    try:
        orders = ActionOrders.model_validate(example)
    except ValueError:
        return False
    return not any(is_error(pr) for pr in check(d, ed, p, orders))


def action_examples(d, ed, p, lang: str, fac: dict) -> list[tuple[dict, str]]:
    """(example orders, what it does) for the action stage."""
    hand = d["hands"][p]
    words = WORDS[lang]
    tried: list[tuple[dict, str]] = []
    for s, side, ok in legal_votes(d, ed, p)[:2]:
        tried.append(({"action": "vote", "state": s, "side": side, "delegates": ok}, words["vote"]))
    groups: dict[str, list] = {}
    for c in hand:
        if ed.cards[c].faction != PLANNER:
            groups.setdefault(ed.cards[c].faction, []).append(c)
    for f in sorted(groups):
        tried.append(({"action": "debate", "delegates": groups[f]}, words["debate"].format(faction=fac[f])))
    for c in dict.fromkeys(hand):
        if event_enactable(d, ed, p, c) is None:
            for choice in _event_choices(d, ed, p, c):
                if _ok(d, ed, p, {"action": "event", "card": c, **choice}):
                    tried.append(({"action": "event", "card": c, **choice}, words["event"].format(card=c)))
                    break
    if hand:
        tried.append(({"action": "snub", "delegates": hand[:1]}, words["snub"]))
    out = [(ex, what) for ex, what in tried if _ok(d, ed, p, ex)]
    out.append(({"committee_flip": "keep"}, words["flip"]))
    out.append(({"reclaim_planner": False}, words["planner"]))
    if free_markers(d, p) == 0 and reclaim_options(d, p):
        out.append(({"reclaim": reclaim_options(d, p)[-1]}, words["reclaim"]))
    return out


WORDS = {
    "en": {"vote": "vote: the state, yea or nay, the delegates that vote",
           "debate": "speak in the {faction} debate", "event": "enact the event of {card}",
           "snub": "snub: throw these cards away and draw as many",
           "flip": "said in advance, for a Committee win: flip or keep its article",
           "planner": "leave your planner in the deck when it would come back to you",
           "reclaim": "no marker free: the one to take back if one is needed"},
    "de": {"vote": "Stimme: der Staat, yea (ja) oder nay (nein), die stimmenden Delegierten",
           "debate": "in der Debatte {faction} sprechen", "event": "das Ereignis von {card} ausführen",
           "snub": "abwerfen: diese Karten weglegen und so viele nachziehen",
           "flip": "im Voraus für einen Komitee-Sieg: seinen Artikel umdrehen (flip) oder liegen lassen (keep)",
           "planner": "deinen Planer im Deck lassen, wenn er zu dir zurückkäme",
           "reclaim": "kein Marker frei: dieser wird bei Bedarf zurückgenommen"},
}


def flow(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def commented(examples: list[tuple[dict, str]]) -> list[str]:
    """Each example as commented lines, its first line saying what it does; a blank line between."""
    lines: list[str] = []
    width = max((len(f"# {k}: {flow(v)}") for ex, _ in examples for k, v in ex.items()), default=0) + 2
    for ex, what in examples:
        lines.append("")
        for i, (k, v) in enumerate(ex.items()):
            text = f"# {k}: {flow(v)}"
            lines.append(f"{text.ljust(width)}# {what}" if i == 0 else text)
    return lines
