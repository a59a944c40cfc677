"""The order form: the seed's copy template (Ereigniskarte, Aktionen,
Abstimmung, Auswahl) as YAML, pre-filled and commented in the reader's language."""
from __future__ import annotations

from . import council as C
from .campaign import VALUE_NAMES
from .orders import CARD_PARAM, CARDS
from .view import proposal_view

# each card in the player's words: (name: effect, the fields it takes); the order page labels a card
# with the first part, the form shows both
CARD_HELP = {
    "familienstern": {"de": ("Unter dem Familienstern: doppelter Einfluss aus gewonnenen Abstimmungen", ""),
                      "en": ("Under the family star: double influence from votes won", "")},
    "fremdes_revier": {"de": ("Fremdes Revier: Bonus auch für ein weiteres Viertel", "viertel: …"),
                       "en": ("Foreign ground: the bonus for one more quarter too", "viertel: …")},
    "fremde_schichten": {"de": ("Fremde Schichten: Bonus auch für eine weitere Schicht", "schicht: …"),
                         "en": ("Foreign estates: the bonus for one more estate too", "schicht: …")},
    "aufstaende": {"de": ("Aufstände: ein Viertel stimmt diese Runde nicht ab", "viertel: …"),
                   "en": ("Riots: one quarter does not vote this round", "viertel: …")},
    "klassenkampf": {"de": ("Klassenkampf: eine Schicht stimmt diese Runde nicht ab", "schicht: …"),
                     "en": ("Class struggle: one estate does not vote this round", "schicht: …")},
    "entfuehrung": {"de": ("Entführung: eine Nichtspielerfigur verschwindet für diese und die nächste Runde", "ziel: …"),
                    "en": ("Abduction: a non-player councillor vanishes this round and the next", "ziel: …")},
    "marionette": {"de": ("Marionette: Du bestimmst alle Stimmen einer Nichtspielerfigur", "ziel: …, abstimmung: {nr: …}; sonst stimmt sie wie du"),
                   "en": ("Puppet: you cast all votes of a non-player councillor", "ziel: …, abstimmung: {nr: …}; else it votes as you do")},
    "kaiserhof": {"de": ("Stimme vom Kaiserhofe: drei Stimmen für eine Seite", "vorschlag: nr, seite: pro|contra|Kandidat"),
                  "en": ("Voice of the imperial court: three votes for one side", "vorschlag: nr, seite: pro|contra|candidate")},
}
T = {
    "head": {"de": "Perricumer Ratsspiel — Ratssitzung Runde {r} von {n} — Spielerfigur: {name} ({id})",
             "en": "Perricumer Ratsspiel — council session round {r} of {n} — your councillor: {name} ({id})"},
    "uncomment": {"de": "Eine Zeile mit # davor ist ein Beispiel: das # entfernen, und sie gilt.",
                  "en": "A line with # in front is an example: remove the # and it counts."},
    "picks": {"de": "Wähle drei verschiedene Ereigniskarten. Ohne Wahl entscheidet das Los. Die Karten:",
              "en": "Choose three different event cards. Without a choice they are drawn by lot. The cards:"},
    "card": {"de": "Ereigniskarte: höchstens eine pro Runde. Ohne Zeile wird keine gespielt. Deine Karten:",
             "en": "Event card: at most one a round. Without a line none is played. Your cards:"},
    "card_lines": {"de": "Zum Spielen genau eine dieser Zeilen einkommentieren (Werte nach Wunsch ändern):",
                   "en": "To play one, uncomment exactly one of these lines (change the values as you like):"},
    "no_cards": {"de": "Du hast keine Ereigniskarte mehr.", "en": "You have no event card left."},
    "actions": {"de": "12 Aktionspunkte (AP). Standard: Verwaltungsarbeit 12. „rest“ = alle AP, die Wahlkampf und Einflussnahme übrig lassen.",
                "en": "12 action points (AP). Default: administration (verwaltungsarbeit) 12. 'rest' = every AP campaigning and influence leave."},
    "wahlkampf": {"de": "Wahlkampf: AP dafür; ein Punkt Einfluss kostet 2/4/6 … AP (bei Einfluss 0–9/10–19/20–29 …)",
                  "en": "Campaigning (wahlkampf): AP for it; a point of influence costs 2/4/6 … AP (at influence 0–9/10–19/20–29 …)"},
    "einfluss": {"de": "Einflussnahme auf Nichtspielerfiguren (Punkte = AP; richtung pro, contra oder bei Wahlen ein Kandidat): "
                       "die zwei Zeilen einkommentieren, weitere mit „- {…}“ anfügen",
                 "en": "Influence on non-player councillors (points = AP; richtung pro, contra or in elections a candidate): "
                       "uncomment the two lines, add more as '- {…}'"},
    "npcs": {"de": "Nichtspielerfiguren:", "en": "Non-player councillors:"},
    "votes": {"de": "Abstimmung: pro oder contra (Wahl: ein Kandidat); vorausgefüllt mit der Neigung deiner Figur. Ohne Stimme: wie eine Nichtspielerfigur",
              "en": "Votes: pro or contra (election: a candidate); pre-filled with your councillor's leaning. Without a vote: as a non-player councillor"},
    "no_votes": {"de": "Diese Sitzung hat keine Vorschläge.", "en": "This session has no proposals."},
    "select": {"de": "Auswahl: ein Vorschlag für die nächste Sitzung (vorausgefüllt der erste). Ohne Auswahl: zufällig. Zur Wahl stehen",
               "en": "Selection: one proposal for the next session (pre-filled with the first). Without one: at random. To choose from"},
    "quarters": {"de": "Viertel:", "en": "Quarters:"},
    "estates": {"de": "Schichten:", "en": "Estates:"},
}


def card_label(card: str, lang: str) -> str:
    """A card's name and effect in ``lang`` (the report's words)."""
    return (CARD_HELP[card].get(lang) or CARD_HELP[card]["en"])[0]


def card_help(card: str, lang: str) -> str:
    label, fields = CARD_HELP[card].get(lang) or CARD_HELP[card]["en"]
    return f"{label} ({fields})" if fields else label


def _t(key: str, lang: str, **kw) -> str:
    text = T[key].get(lang) or T[key]["en"]
    return text.format(**kw) if kw else text


def describe(s: dict, nr: int, lang: str, ids: bool = True) -> str:
    """A proposal in a line; ``ids=False`` names the candidates without their ids (the order
    page's label, where a select holds the id)."""
    p = proposal_view(s, nr)
    title = p["title"].get(lang) or p["title"]["de"]
    if p["kind"] == "wahl":
        cands = " | ".join(f"{c['id']} ({c['name']})" if ids else c["name"] for c in p["candidates"])
        return f"{nr}: {title} [{p['office_name'].get(lang, p['office_name']['de'])}, {p['value_name'][lang if lang in p['value_name'] else 'de']}] — {cands}"
    arrow = "+" if p["direction"] == "up" else "−"
    vname = VALUE_NAMES[p["value"]].get(lang, VALUE_NAMES[p["value"]]["de"])
    return f"{nr}: {title} [{vname} {arrow}] pro: {', '.join(p['pro']) or '—'}; contra: {', '.join(p['contra']) or '—'}"


def card_example(s: dict, card: str, npcs: list[str]) -> str | None:
    """One valid line playing ``card`` now (None when it cannot be played this session)."""
    camp = s["campaign"]
    need = CARD_PARAM[card]
    if need is None:
        return f"ereigniskarte: {card}"
    if need in ("viertel", "schicht"):
        return f"ereigniskarte: {{karte: {card}, {need}: {next(iter(camp['viertel' if need == 'viertel' else 'schichten']))}}}"
    if need == "ziel":
        if not npcs:
            return None
        if card == "marionette" and s["session"]:
            nr = s["session"][0]
            return f"ereigniskarte: {{karte: marionette, ziel: {npcs[0]}, abstimmung: {{{nr}: {sides(s, nr)[0]}}}}}"
        return f"ereigniskarte: {{karte: {card}, ziel: {npcs[0]}}}"
    if not s["session"]:
        return None
    nr = s["session"][0]
    return f"ereigniskarte: {{karte: {card}, vorschlag: {nr}, seite: {sides(s, nr)[0]}}}"


def sides(s: dict, nr: int) -> list[str]:
    p = s["proposals"][str(nr)]
    return list(p["candidates"]) if p["kind"] == "wahl" else ["pro", "contra"]


def player_form(s: dict, player: str, lang: str) -> str:
    """Every shape an order may take is here, live or as a commented line that is
    valid when its # is removed (tests/rules/perricumer_ratsspiel/test_pr_form.py);
    sent back unchanged it gives what the comments call the standard."""
    camp = s["campaign"]
    m = s["players"][player]
    mems = C.members(s)
    npcs = C.npcs(s)
    lines = ["# " + _t("head", lang, r=s["round"], n=camp["rounds"], name=mems[m]["name"], id=m),
             "# " + _t("uncomment", lang), f"spielerfigur: {m}"]
    if s["cards"].get(player) is None:
        lines.append("# " + _t("picks", lang))
        for c in CARDS:
            lines.append(f"#   {c} — {card_help(c, lang)}")
        lines.append(f"# ereigniskarten: [{', '.join(CARDS[:3])}]")
    if s["round"] > 1:
        left = s["cards"].get(player) or []
        lines.append("# " + _t("card", lang) + (" " + _t("no_cards", lang) if not left else ""))
        for c in left:
            lines.append(f"#   {c} — {card_help(c, lang)}")
        examples = [e for e in (card_example(s, c, npcs) for c in left) if e]
        if examples:
            lines.append("# " + _t("card_lines", lang))
            lines += [f"# {e}" for e in examples]
        lines.append("# " + _t("npcs", lang) + " " + ", ".join(npcs))
        lines.append("# " + _t("quarters", lang) + " " + ", ".join(f"{k} ({v})" for k, v in camp["viertel"].items()))
        lines.append("# " + _t("estates", lang) + " " + ", ".join(f"{k} ({v})" for k, v in camp["schichten"].items()))
        lines.append("# " + _t("actions", lang))
        lines.append("aktionen:")
        lines.append("  verwaltungsarbeit: rest")
        lines.append("  # " + _t("wahlkampf", lang))
        lines.append("  wahlkampf: 0")
        if npcs and s["session"]:
            nr = s["session"][0]
            lines.append("  # " + _t("einfluss", lang))
            lines.append("  # einflussnahme:")
            lines.append(f"  #   - {{ziel: {npcs[0]}, vorschlag: {nr}, richtung: {sides(s, nr)[0]}, punkte: 2}}")
        if s["session"]:
            lines.append("# " + _t("votes", lang))
            lines.append("abstimmung:")
            for nr in s["session"]:
                best, _ = C.inclination(s, m, s["proposals"][str(nr)])
                lines.append(f"  # {describe(s, nr, lang)}")
                lines.append(f"  {nr}: {best[0]}")
        else:
            lines.append("# " + _t("no_votes", lang))
    if s["round"] < camp["rounds"] and s["selection"]:
        lines.append("# " + _t("select", lang) + ":")
        for nr in s["selection"]:
            lines.append(f"#   {describe(s, nr, lang)}")
        lines.append(f"auswahl: {s['selection'][0]}")
    return "\n".join(lines) + "\n"


def gm_form(s: dict, lang: str) -> str:
    de = lang == "de"
    camp = s["campaign"]
    quarter, estate = next(iter(camp["viertel"])), next(iter(camp["schichten"]))
    deck = ", ".join(str(n) for n in s["deck"]) or "—"
    lines = [
        "# " + ("Spielleitung: Entscheidungen für diese Sitzung, alle freiwillig. Eine Zeile mit # davor ist ein "
                "Beispiel: das # entfernen, und sie gilt." if de else
                "Game master: decisions for this session, all optional. A line with # in front is an example: "
                "remove the # and it counts."),
        "# " + ("Nachziehen: Nummern der Vorschläge für Lücken und das Auffüllen, in dieser Reihenfolge; "
                "ohne Angabe von oben aus der Auswahl bzw. dem Stapel. Stapel: " if de else
                "Refill (nachziehen): numbers of the proposals to fill gaps and refill with, in this order; "
                "without, from the top of the selection / deck. Deck: ") + deck,
        "nachziehen: []" + (f"   # {'z. B.' if de else 'e.g.'} [{s['deck'][0]}]" if s["deck"] else ""),
        "# " + ("Neue Vorschläge, als Nächste ausgelegt (Stadtwert, up/down, Symbole der Seiten):" if de else
                "New proposals, laid out next (city value, up/down, symbols of the sides):"),
        "# neue_vorschlaege:",
        f"#   - {{title_de: Neuer Vorschlag, title_en: New proposal, kind: vorschlag, value: {next(iter(s['values']))}, "
        f"direction: up, pro: [{quarter}], contra: [{estate}]}}",
        "# " + ("Geheime Agenden veröffentlichen:" if de else "Publish secret agendas:"),
        "# agenda_veroeffentlichen: [" + ", ".join(sorted(s["players"])) + "]",
    ]
    return "\n".join(lines) + "\n"
