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
           "hand": "Deine Hand:", "now": "Jetzt möglich (wenn du dran bist):", "none": "(nichts)",
           "ablauf": "Es geht um {card} „{name}“.", "standing": "So wie der Tisch liegt: {what}",
           "win": "Stich an {p} ({party})", "patt": "Patt", "empty": "noch leer",
           "plan": "Ein Plan für diesen Stich: Schritte der Reihe nach; der erste ausführbare wird jedes Mal ausgeführt, wenn du dran bist.",
           "forms": "Schritte: pass | ask (frag mich) | {play: PE09} | {play: Z08, on: PE09} | {play: Z12, player: NAME} | {play: Z29, to: NAME} | {push: Z05}",
           "cond": "Bedingung je Schritt: if: {answered: L}  (Partei, Karte oder army seit deinem letzten Zug) | if: {winning: false}",
           "drawpref": "draw: person | zusatz  — deine Wahl beim Nachziehen nach diesem Stich (falls du eine hast)",
           "push": "schieben: eine beliebige Handkarte, einmal je Stich", "card": "KARTE"},
    "en": {"draw": "Drawing: one card of your choice — person (person card) or zusatz (Zusatzkarte).",
           "hand": "Your hand:", "now": "Possible now (when your play comes up):", "none": "(nothing)",
           "ablauf": "At stake: {card} \"{name}\".", "standing": "As the table lies: {what}",
           "win": "trick to {p} ({party})", "patt": "stalemate (Patt)", "empty": "still empty",
           "plan": "A plan for this trick: steps in order; each time your play comes up the first one that can run is carried out.",
           "forms": "Steps: pass | ask | {play: PE09} | {play: Z08, on: PE09} | {play: Z12, player: NAME} | {play: Z29, to: NAME} | {push: Z05}",
           "cond": "Condition on a step: if: {answered: L}  (party, card or army since your last play) | if: {winning: false}",
           "drawpref": "draw: person | zusatz  — your choice when drawing after this trick (if you have one)",
           "push": "push: any hand card, once per trick", "card": "CARD"},
}


def label(ed, cid, lang) -> str:
    if cid in ed.persons:
        p = ed.persons[cid]
        mil = f", {FLAG[lang][p.flag]} {p.mil}" if p.flag else ""
        return f"{cid} {p.name} ({PARTY[lang][p.party]} {p.value}{mil})"
    z = ed.zusatz[cid]
    return f"{cid} {z.name}: {z.text[lang]}"


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
    if d["hands"][p] and not step_problems(d, ed, p, {"push": d["hands"][p][0]}):
        out.append({"push": None})
    return out


def _flow(step: dict) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in step.items()) + "}"


def order_form(state, player: str, lang: str) -> str:
    d, ed = state.d, state.ed
    lang = lang if lang in T else "de"
    t = T[lang]
    if player not in d["awaiting"] or d["stage"] == "over":
        return ""
    if d["stage"] == "draw":
        return f"# {t['draw']}\ndraw: {default_draw(d, ed, player)}\n"
    lines = []
    if d["ablauf"]:
        lines.append(f"# {t['ablauf'].format(card=d['ablauf'][0], name=ed.ablauf[d['ablauf'][0]]['name'])}")
    ev = evaluate(d["trick"], ed, d["players"])
    what = (t["win"].format(p=ev["winner"], party=PARTY[lang][ev["party"]]) if ev["result"] == "win"
            else t["patt"] if ev["result"] == "patt" else t["empty"])
    lines.append(f"# {t['standing'].format(what=what)}")
    lines.append(f"# {t['hand']}")
    lines += [f"#   {label(ed, c, lang)}" for c in d["hands"][player]]
    lines.append(f"# {t['now']}")
    legal = legal_now(d, ed, player)
    for s in legal:
        lines.append(f"#   - {{push: {t['card']}}}   ({t['push']})" if "push" in s else f"#   - {_flow(s)}")
    if not legal:
        lines.append(f"#   {t['none']}")
    lines += [f"# {t['plan']}", f"# {t['forms']}", f"# {t['cond']}"]
    lines += [f"# {t['drawpref']}", "steps:", "  - pass", ""]
    return "\n".join(lines)
