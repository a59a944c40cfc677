"""``order_form``: the ``orders:`` mapping to fill in, with the legal plays
as YAML comments (German or English)."""
from __future__ import annotations

from .actions import step_problems
from .edition import PARTIES
from .table import evaluate
from .trick import default_draw

PARTY = {"de": {"RR": "Republikaner", "DL": "Demokraten", "L": "Liberale", "R": "Reaktionäre"},
         "en": {"RR": "Republicans", "DL": "Democrats", "L": "Liberals", "R": "Reactionaries"}}
FLAG = {"de": {"A": "Österreich", "P": "Preußen", "B": "Bund"}, "en": {"A": "Austria", "P": "Prussia", "B": "Bund"}}

T = {
    "de": {"draw": "Nachziehen: eine Karte nach Wahl — person (Personenkarte) oder zusatz (Zusatzkarte).",
           "draw_as_is": "so zurückgeschickt: du ziehst {kind}",
           "hand": "Deine Hand:", "ablauf": "Es geht um {card} „{name}“.", "standing": "So wie der Tisch liegt: {what}",
           "win": "Stich an {p} ({party})", "patt": "Patt", "empty": "noch leer",
           "plan": "Ein Plan für diesen Stich: Schritte von oben nach unten; jedes Mal, wenn du dran bist, wird "
                   "der erste ausführbare ausgeführt. Ein Schritt mit if: wartet, bis seine Bedingung eintritt.",
           "as_is": "So zurückgeschickt, passt du (bis eine Armee oder eine Sturmglocke dich zurückholt).",
           "how": "Um etwas anderes zu tun, lösche bei einem Schritt unten das Zeichen # und das Leerzeichen danach"
                  " (die Einrückung bleibt); Schritte, die du nicht willst, bleiben so.",
           "now": "jetzt möglich", "later": "erst, wenn {card} ausliegt", "army_to": "Armee; to: wer sie bei "
           "Gleichstand zweier Heerführer bekommt", "push": "schieben: Karte verdeckt unter ihren Stapel, du bleibst im Spiel",
           "if_answered": "nur, wenn seit deinem letzten Zug jemand Liberale (L) gespielt hat "
                          "(oder RR, DL, R, eine Karte, army)",
           "if_winning": "nur, wenn du den Stich gerade nicht gewinnst", "ask": "frag mich, statt weiterzuplanen",
           "as_is_kept": "So zurückgeschickt, bleiben die Schritte, die noch auf ihre Bedingung warten, im Plan;"
                         " sonst passt du.",
           "kept": "wartet noch auf die Bedingung; lösche die Zeile, um den Schritt aufzugeben",
           "pass": "passen", "drawpref": "deine Wahl beim Nachziehen nach diesem Stich (person oder zusatz)"},
    "en": {"draw": "Drawing: one card of your choice — person (person card) or zusatz (Zusatzkarte).",
           "draw_as_is": "sent back as it is: you draw {kind}",
           "hand": "Your hand:", "ablauf": "At stake: {card} \"{name}\".", "standing": "As the table lies: {what}",
           "win": "trick to {p} ({party})", "patt": "stalemate (Patt)", "empty": "still empty",
           "plan": "A plan for this trick: steps from top to bottom; each time your play comes up the first one "
                   "that can run is carried out. A step with if: waits until its condition holds.",
           "as_is": "Sent back as it is, this form passes (until an army or an alarm bell brings you back).",
           "how": "To do something else, delete the # and the space after it in front of a step below (keep the"
                  " indentation); steps you do not want stay as they are.",
           "now": "possible now", "later": "once {card} lies on the table", "army_to": "army; to: who gets it when "
           "two commanders tie", "push": "push: the card face down under its stack, you stay in",
           "if_answered": "only if someone played Liberals (L) since your last play (or RR, DL, R, a card, army)",
           "if_winning": "only if you are not winning the trick now", "ask": "ask me instead of planning further",
           "as_is_kept": "Sent back as it is, the steps still waiting for their condition stay in your plan;"
                         " otherwise you pass.",
           "kept": "still waiting for its condition; delete the line to give the step up",
           "pass": "pass", "drawpref": "your choice when drawing after this trick (person or zusatz)"},
}


ORDER = ("play", "push", "on", "player", "party", "to", "if")   # a step's keys as the rules write them


def label(ed, cid, lang) -> str:
    if cid in ed.persons:
        p = ed.persons[cid]
        mil = f", {FLAG[lang][p.flag]} {p.mil}" if p.flag else ""
        return f"{cid} {p.name} ({PARTY[lang][p.party]} {p.value}{mil})"
    z = ed.zusatz[cid]
    return f"{cid} {z.name}: {z.text[lang]}"


def targets(d, ed, p, card, every: bool = False) -> list[dict]:
    """Steps that play ``card`` with a target its effect takes, now or once a person lies out:
    one of each kind for the form's examples, or ``every`` player, party and person (the order page)."""
    z = ed.zusatz.get(card)
    others = [q for q in d["players"] if q != p] or [p]
    if z is not None and z.is_army:
        return [{"play": card}] + [{"play": card, "to": q} for q in (d["players"] if every else others[:1])]
    if z is None or z.effect["do"] == "none":
        return [{"play": card}]
    if z.effect["do"] == "party_value":
        side = z.effect.get("side", "any")
        seats = {"own": [p], "other": others, "any": [p, *others]}[side] if every else [
            p if side in ("own", "any") else others[0]]
        parties = [z.effect["party"]] if z.effect.get("party") else list(PARTIES) if every else [PARTIES[0]]
        return [{"play": card, "player": q, "party": x} for q in seats for x in parties]
    side = z.effect.get("side", "any") if every else "any"   # the page offers only a side's persons
    table = [c for q in d["players"] for c in d["trick"]["persons"][q]
             if side == "any" or (q == p) == (side == "own")]
    own = [c for c in d["hands"][p] if c in ed.persons and side != "other"]
    out = [{"play": card, "on": c} for c in dict.fromkeys(table + own)]
    return ([{"play": card}] if z.effect.get("optional") else []) + out


def examples(d, ed, p) -> list[tuple[dict | str, str]]:
    """Every shape a step may take, as (step, what it does), each one the referee accepts."""
    from .rules import static_problems
    out: list[tuple[dict | str, str]] = []
    for card in dict.fromkeys(d["hands"][p]):
        shown, limit = 0, 2 if card in ed.zusatz and ed.zusatz[card].is_army else 1
        for step in targets(d, ed, p, card):
            if static_problems(d, ed, p, step, "") or shown >= limit:
                continue
            out.append((step, "now" if not step_problems(d, ed, p, step) else step.get("on") or ""))
            shown += 1
    if d["hands"][p]:
        out.append(({"push": d["hands"][p][0]}, "push"))
    plays = [s for s, _ in out if isinstance(s, dict) and "play" in s]
    if plays:
        out.append(({**plays[0], "if": {"answered": "L"}}, "if_answered"))
        out.append(({**plays[0], "if": {"winning": False}}, "if_winning"))
    out.append(("ask", "ask"))
    return out


def legal_now(d, ed, p) -> list[dict]:
    """Every play ``p`` could make now, with each target that works."""
    out = []
    table = [c for q in d["players"] for c in d["trick"]["persons"][q]]
    for card in sorted(set(d["hands"][p])):
        z = ed.zusatz.get(card)
        if z is None or z.is_army or z.effect["do"] == "none":
            cands = [{"play": card}]
        elif z.effect["do"] == "party_value":
            parties = [z.effect["party"]] if z.effect.get("party") else list(PARTIES)
            cands = [{"play": card, "player": q, "party": x} for q in d["players"] for x in parties]
        else:
            cands = [{"play": card, "on": c} for c in table]
            if z.effect.get("optional"):
                cands.append({"play": card})
        out += [c for c in cands if not step_problems(d, ed, p, c)]
    return out


def _flow(step: dict) -> str:
    parts = []
    for k, v in step.items():
        if isinstance(v, dict):
            v = _flow(v)
        elif isinstance(v, bool):
            v = "true" if v else "false"
        parts.append(f"{k}: {v}")
    return "{" + ", ".join(parts) + "}"


def _note(t: dict, step, what: str) -> str:
    if isinstance(step, dict) and "to" in step:
        return t["army_to"]
    if what == "now":
        return t["now"]
    if what in t:
        return t[what]
    return t["later"].format(card=what) if what else ""


def order_form(state, player: str, lang: str) -> str:
    d, ed = state.d, state.ed
    lang = lang if lang in T else "de"
    t = T[lang]
    if player not in d["awaiting"] or d["stage"] == "over":
        return ""
    if d["stage"] == "draw":
        kind = default_draw(d, ed, player)
        return f"# {t['draw']}\ndraw: {kind}        # {t['draw_as_is'].format(kind=kind)}\n"
    lines = []
    if d["ablauf"]:
        lines.append(f"# {t['ablauf'].format(card=d['ablauf'][0], name=ed.ablauf[d['ablauf'][0]]['name'])}")
    ev = evaluate(d["trick"], ed, d["players"])
    what = (t["win"].format(p=ev["winner"], party=PARTY[lang][ev["party"]]) if ev["result"] == "win"
            else t["patt"] if ev["result"] == "patt" else t["empty"])
    lines.append(f"# {t['standing'].format(what=what)}")
    lines.append(f"# {t['hand']}")
    lines += [f"#   {label(ed, c, lang)}" for c in d["hands"][player]]
    kept = [_flow({k: s[k] for k in ORDER if k in s}) for s in d.get("kept", {}).get(player, ())]
    lines += [f"# {t['plan']}", f"# {t['as_is_kept' if kept else 'as_is']}", f"# {t['how']}", "steps:"]
    shown = [(_flow(s) if isinstance(s, dict) else s, _note(t, s, w)) for s, w in examples(d, ed, player)]
    width = max(len(s) for s in [*(s for s, _ in shown), *kept]) + 2
    lines += [f"  # - {s.ljust(width)}# {note}".rstrip() for s, note in shown]
    lines += [f"  - {s.ljust(width + 2)}# {t['kept']}" for s in kept]
    draw = f"# draw: {default_draw(d, ed, player)}"
    lines += [f"  - pass{' ' * (width - 2)}# {t['pass']}",
              f"{draw}{' ' * max(6 + width - len(draw), 1)}# {t['drawpref']}", ""]
    return "\n".join(lines)
