"""``order_form``: the ``orders:`` mapping to fill in, with the legal choices
as YAML comments (English or German)."""
from __future__ import annotations

from .actions import event_enactable, legal_votes
from .edition import PLANNER
from .effects import Ctx, _assembly_targets, _discard_choices, _rivals_in_committee, _seize_targets, _vote_cards
from .engine import HAND, bias, needed
from .form_examples import action_examples, commented
from .state import free_markers, reclaim_options

FACTION = {"en": {"large_states": "Large States", "small_states": "Small States",
                  "antifederalist": "Antifederalist", "federalist": "Federalist", "planner": "Planner"},
           "de": {"large_states": "Große Staaten", "small_states": "Kleine Staaten",
                  "antifederalist": "Antiföderalist", "federalist": "Föderalist", "planner": "Planer"}}

T = {
    "en": {"keep": "Keep 2 of your 4 dealt cards (the others go to the discard pile):",
           "flip": "You won the Committee Room. Flip its article \"{title}\" (now {bias})? true = flip, false = leave it",
           "hand": "Your hand:", "bias": "Assembly article: \"{title}\", bias {bias}",
           "votes": "Votes you can declare (state side: delegates that may vote so):",
           "override": "overrides {n}", "none": "(none)",
           "debate": "Speak in debate (delegates of one faction):",
           "events": "Events you may enact:", "not": "Events you may not enact now:",
           "pool": "Draw pool (by card back): after your action you take as many cards as you need to hold {hand} again ({n} if you played none); list positions by preference:",
           "markers": "Free influence markers: {n}", "reclaim": "None free: the one reused if needed (first by default): {opts}",
           "as_is": "Sent back as it is, this form snubs no card: a pass (you draw no card).",
           "how": "To act, delete the # and the space after it in front of every line of ONE example below.",
           "take": "draw-pool positions by preference",
           "flip_as_is": "sent back as it is: the article stays as it lies"},
    "de": {"keep": "Behalte 2 deiner 4 ausgeteilten Karten (die anderen kommen auf den Ablagestapel):",
           "flip": "Du hast das Komitee-Zimmer gewonnen. Artikel \"{title}\" (jetzt {bias}) umdrehen? true = umdrehen, false = liegen lassen",
           "hand": "Deine Hand:", "bias": "Artikel im Versammlungszimmer: \"{title}\", Faktion {bias}",
           "votes": "Mögliche Stimmabgaben (Staat Seite: Delegierte, die so stimmen dürfen):",
           "override": "überstimmt {n}", "none": "(keine)",
           "debate": "Debattieren (Delegierte einer Faktion):",
           "events": "Ausführbare Ereignisse:", "not": "Jetzt nicht ausführbare Ereignisse:",
           "pool": "Nachziehbereich (nach Rückseite): nach deiner Aktion nimmst du so viele Karten, bis du wieder {hand} hast ({n}, wenn du keine gespielt hast); Positionen nach Vorliebe:",
           "markers": "Freie Einflussmarker: {n}", "reclaim": "Keiner frei: wiederverwendet wird bei Bedarf (sonst der erste): {opts}",
           "as_is": "So zurückgeschickt, wirfst du keine Karte ab: du passt (und ziehst keine Karte).",
           "how": "Um zu handeln, lösche bei jeder Zeile EINES Beispiels unten das Zeichen # und das Leerzeichen danach.",
           "take": "Positionen im Nachziehbereich nach Vorliebe",
           "flip_as_is": "so zurückgeschickt: der Artikel bleibt, wie er liegt"},
}
WHY = {"en": {"event.blocked": "blocked", "event.no_effect": "no effect now"},
       "de": {"event.blocked": "blockiert", "event.no_effect": "jetzt ohne Wirkung"}}


def _label(ed, cid, lang) -> str:
    c = ed.cards[cid]
    return f"{cid} ({c.name}, {c.state}, {FACTION[lang][c.faction]})"


def choice_hints(d, ed, p, cid) -> list[str]:
    """The choices ``cid``'s event asks for, with what may be chosen now."""
    x = Ctx(d, ed, p, cid, None, None, [])
    out = []
    for st in ed.cards[cid].steps:
        kind = st["do"]
        if kind == "committee_remove":
            out.append(f"player: {' | '.join(_rivals_in_committee(x))}")
        elif kind == "debate_advance" and st["faction"] == "any":
            out.append("faction: large_states | small_states | antifederalist | federalist")
        elif kind == "discard_assembly":
            out.append(f"targets (1-{st['count']}): {', '.join(_assembly_targets(x, st))}")
        elif kind == "seize_delegation":
            out.append(f"state: {' | '.join(_seize_targets(x))}")
        elif kind == "steal_card":
            others = [f"{q} (1-{len(d['hands'][q])})" for q in d["players"] if q != p and d["hands"][q]]
            out.append(f"player + position: {', '.join(others)}")
        elif kind == "take_discard":
            out.append(f"pick: {', '.join(sorted(set(_discard_choices(x, st))))}")
        elif kind == "flip_article" and st["room"] == "resolved":
            out.append(f"article: {' | '.join(r[0] for r in d['resolved'])}")
        elif kind == "declare_vote":
            state = ed.cards[cid].state if st["with_card"] else None
            extra = _vote_cards(x, st, state)[1:] if state and st["with_card"] else []
            out.append("side: yea | nay" + (f"; delegates (may join): {', '.join(extra)}" if extra else "")
                       + ("" if st["with_card"] else "; state; delegates"))
    return out


def order_form(state, player: str, lang: str) -> str:
    d, ed = state.d, state.ed
    lang = lang if lang in T else "en"
    t, fac = T[lang], FACTION[lang]
    stage = d["stage"]
    if stage == "keep" and player in d["dealt"]:
        lines = [f"# {t['keep']}"] + [f"#   {_label(ed, c, lang)}" for c in d["dealt"][player]]
        return "\n".join(lines + [f"keep: [{d['dealt'][player][0]}, {d['dealt'][player][1]}]", ""])
    if stage == "committee_flip" and d["flip_player"] == player:
        art, fl = d["committee_article"]
        title = ed.articles[art]["title"][lang]
        return (f"# {t['flip'].format(title=title, bias=fac[ed.side(art, fl)])}\n"
                f"flip: false        # {t['flip_as_is']}\n")
    if stage != "action" or d["players"][d["active"]] != player:
        return ""
    hand = d["hands"][player]
    art, fl = d["assembly"]
    lines = [f"# {t['bias'].format(title=ed.articles[art]['title'][lang], bias=fac[bias(d, ed)])}",
             f"# {t['hand']}"] + [f"#   {_label(ed, c, lang)}" for c in hand]
    lines.append(f"# {t['votes']}")
    votes = legal_votes(d, ed, player)
    for s, side, ok in votes:
        have = d["delegations"].get(s)
        extra = f"  [{t['override'].format(n=len(have['cards']))}]" if have else ""
        lines.append(f"#   {s} {side}: {', '.join(ok)}{extra}")
    if not votes:
        lines.append(f"#   {t['none']}")
    groups: dict[str, list] = {}
    for c in hand:
        if ed.cards[c].faction != PLANNER:
            groups.setdefault(ed.cards[c].faction, []).append(c)
    lines.append(f"# {t['debate']}")
    for f in sorted(groups):
        pos = d["debate"][f].get(player)
        lines.append(f"#   {fac[f]}: {', '.join(groups[f])}" + (f"  (@{pos})" if pos else ""))
    if not groups:
        lines.append(f"#   {t['none']}")
    ok_ev, not_ev = [], []
    for c in hand:
        why = event_enactable(d, ed, player, c)
        (not_ev if why else ok_ev).append((c, why))
    lines.append(f"# {t['events']}")
    for c, _ in ok_ev:
        lines.append(f"#   {c}: {ed.cards[c].text[lang]}")
        lines += [f"#       {h}" for h in choice_hints(d, ed, player, c)]
    if not ok_ev:
        lines.append(f"#   {t['none']}")
    if not_ev:
        lines.append(f"# {t['not']} " + ", ".join(f"{c} ({WHY[lang][w]})" for c, w in not_ev))
    lines.append(f"# {t['pool'].format(n=needed(d, player), hand=HAND)}")
    for i, c in enumerate(d["pool"]):
        lines.append(f"#   {i + 1}: {ed.cards[c].state} {fac[ed.cards[c].faction]}")
    lines.append(f"# {t['markers'].format(n=free_markers(d, player))}")
    if free_markers(d, player) == 0:
        lines.append(f"# {t['reclaim'].format(opts=', '.join(reclaim_options(d, player)))}")
    lines += [f"# {t['as_is']}", f"# {t['how']}", f"take: [1, 2, 3]        # {t['take']}"]
    lines += commented(action_examples(d, ed, player, lang, fac))
    return "\n".join(lines + [""])
