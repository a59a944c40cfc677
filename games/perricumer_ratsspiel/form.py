"""The order form: the seed's copy template (Ereigniskarte, Aktionen,
Abstimmung, Auswahl) as YAML, pre-filled and commented in the reader's language."""
from __future__ import annotations

from . import council as C
from .campaign import VALUE_NAMES
from .orders import CARDS
from .view import proposal_view

CARD_HELP = {
    "familienstern": {"de": "Unter dem Familienstern: doppelter Einfluss aus gewonnenen Abstimmungen",
                      "en": "Under the family star: double influence from votes won"},
    "fremdes_revier": {"de": "Fremdes Revier: Bonus auch für ein weiteres Viertel (viertel: …)",
                       "en": "Foreign ground: the bonus for one more quarter too (viertel: …)"},
    "fremde_schichten": {"de": "Fremde Schichten: Bonus auch für eine weitere Schicht (schicht: …)",
                         "en": "Foreign estates: the bonus for one more estate too (schicht: …)"},
    "aufstaende": {"de": "Aufstände: ein Viertel stimmt diese Runde nicht ab (viertel: …)",
                   "en": "Riots: one quarter does not vote this round (viertel: …)"},
    "klassenkampf": {"de": "Klassenkampf: eine Schicht stimmt diese Runde nicht ab (schicht: …)",
                     "en": "Class struggle: one estate does not vote this round (schicht: …)"},
    "entfuehrung": {"de": "Entführung: eine Nichtspielerfigur verschwindet für diese und die nächste Runde (ziel: …)",
                    "en": "Abduction: a non-player councillor vanishes this round and the next (ziel: …)"},
    "marionette": {"de": "Marionette: Du bestimmst alle Stimmen einer Nichtspielerfigur (ziel: …, abstimmung: {nr: …}; sonst stimmt sie wie Du)",
                   "en": "Puppet: you cast all votes of a non-player councillor (ziel: …, abstimmung: {nr: …}; else it votes as you do)"},
    "kaiserhof": {"de": "Stimme vom Kaiserhofe: drei Stimmen für eine Seite (vorschlag: nr, seite: pro|contra|Kandidat)",
                  "en": "Voice of the imperial court: three votes for one side (vorschlag: nr, seite: pro|contra|candidate)"},
}
T = {
    "head": {"de": "Perricumer Ratsspiel — Ratssitzung Runde {r} von {n} — Spielerfigur: {name} ({id})",
             "en": "Perricumer Ratsspiel — council session round {r} of {n} — your councillor: {name} ({id})"},
    "picks": {"de": "Wähle drei verschiedene Ereigniskarten (sonst entscheidet das Los):",
              "en": "Choose three different event cards (otherwise they are drawn by lot):"},
    "card": {"de": "Höchstens eine Karte pro Runde; Deine Karten: {cards}. Standard: keine",
             "en": "At most one card per round; your cards: {cards}. Default: none"},
    "actions": {"de": "12 Aktionspunkte. Standard: Verwaltungsarbeit 12. Wahlkampf kostet 2/4/6… AP je Punkt (Einfluss 0–9/10–19/20–29…).",
                "en": "12 action points. Default: administration (verwaltungsarbeit) 12. Campaigning (wahlkampf) costs 2/4/6… AP per point (influence 0–9/10–19/20–29…)."},
    "einfluss": {"de": "Einflussnahme: - {ziel: id, vorschlag: nr, richtung: pro|contra|Kandidat, punkte: n}",
                 "en": "Influence (einflussnahme): - {ziel: id, vorschlag: nr, richtung: pro|contra|candidate, punkte: n}"},
    "npcs": {"de": "Nichtspielerfiguren:", "en": "Non-player councillors:"},
    "votes": {"de": "pro oder contra (Wahl: Kandidat); vorausgefüllt mit der Neigung Deiner Figur. Standard: wie Nichtspielerfiguren",
              "en": "pro or contra (election: candidate); pre-filled with your councillor's leaning. Default: as a non-player councillor"},
    "select": {"de": "Ein Vorschlag für die nächste Sitzung. Standard: zufällig. Auswahl:",
               "en": "One proposal for the next session. Default: random. Selection:"},
    "quarters": {"de": "Viertel:", "en": "Quarters:"},
    "estates": {"de": "Schichten:", "en": "Estates:"},
}


def _t(key: str, lang: str, **kw) -> str:
    text = T[key].get(lang) or T[key]["en"]
    return text.format(**kw) if kw else text


def _describe(s: dict, nr: int, lang: str) -> str:
    p = proposal_view(s, nr)
    title = p["title"].get(lang) or p["title"]["de"]
    if p["kind"] == "wahl":
        cands = " | ".join(f"{c['id']} ({c['name']})" for c in p["candidates"])
        return f"{nr}: {title} [{p['office_name'].get(lang, p['office_name']['de'])}, {p['value_name'][lang if lang in p['value_name'] else 'de']}] — {cands}"
    arrow = "+" if p["direction"] == "up" else "−"
    vname = VALUE_NAMES[p["value"]].get(lang, VALUE_NAMES[p["value"]]["de"])
    return f"{nr}: {title} [{vname} {arrow}] pro: {', '.join(p['pro']) or '—'}; contra: {', '.join(p['contra']) or '—'}"


def player_form(s: dict, player: str, lang: str) -> str:
    camp = s["campaign"]
    m = s["players"][player]
    mems = C.members(s)
    lines = ["# " + _t("head", lang, r=s["round"], n=camp["rounds"], name=mems[m]["name"], id=m)]
    if s["cards"].get(player) is None:
        lines.append("# " + _t("picks", lang))
        for c in CARDS:
            lines.append(f"#   {c}: {CARD_HELP[c].get(lang, CARD_HELP[c]['en'])}")
        lines.append("ereigniskarten: []")
    if s["round"] > 1:
        left = s["cards"].get(player) or []
        lines.append("# " + _t("card", lang, cards=", ".join(left) or "—"))
        for c in left:
            lines.append(f"#   {c}: {CARD_HELP[c].get(lang, CARD_HELP[c]['en'])}")
        lines.append("ereigniskarte: keine")
        lines.append("# " + _t("actions", lang))
        lines.append("aktionen:")
        lines.append("  verwaltungsarbeit: 12")
        lines.append("  wahlkampf: 0")
        lines.append("  # " + _t("einfluss", lang))
        lines.append("  einflussnahme: []")
        lines.append("# " + _t("npcs", lang) + " " + ", ".join(C.npcs(s)))
        lines.append("# " + _t("quarters", lang) + " " + ", ".join(f"{k} ({v})" for k, v in camp["viertel"].items()))
        lines.append("# " + _t("estates", lang) + " " + ", ".join(f"{k} ({v})" for k, v in camp["schichten"].items()))
        lines.append("# " + _t("votes", lang))
        lines.append("abstimmung:" + ("" if s["session"] else " {}"))
        for nr in s["session"]:
            best, _ = C.inclination(s, m, s["proposals"][str(nr)])
            lines.append(f"  # {_describe(s, nr, lang)}")
            lines.append(f"  {nr}: {best[0]}")
    if s["round"] < camp["rounds"] and s["selection"]:
        lines.append("# " + _t("select", lang))
        for nr in s["selection"]:
            lines.append(f"#   {_describe(s, nr, lang)}")
        lines.append(f"auswahl: {s['selection'][0]}")
    return "\n".join(lines) + "\n"


def gm_form(s: dict, lang: str) -> str:
    de = lang == "de"
    lines = [
        "# " + ("Spielleitung: Entscheidungen für diese Sitzung (alles optional)" if de
                else "Game master: decisions for this session (all optional)"),
        "# " + ("nachziehen: Vorschläge (Nummern) für Lücken und das Auffüllen, in dieser Reihenfolge; "
                "sonst von oben aus der Auswahl bzw. dem Stapel" if de else
                "nachziehen: proposals (numbers) to fill gaps and refill with, in this order; "
                "otherwise from the top of the selection / deck"),
        "nachziehen: []",
        "# " + ("Stapel:" if de else "Deck:") + " " + ", ".join(str(n) for n in s["deck"]),
        "# neue_vorschlaege: - {title_de: …, title_en: …, kind: vorschlag, value: stadtkasse, direction: up, pro: [..], contra: [..]}",
        "neue_vorschlaege: []",
        "# agenda_veroeffentlichen: [" + ", ".join(sorted(s["players"])) + "]",
        "agenda_veroeffentlichen: []",
    ]
    return "\n".join(lines) + "\n"
