"""The table as an SVG picture, drawn from a viewer's public view only.

Left: each player's persons on the table by party with their current values
and party sums, armies held, hand sizes (counts only, never the cards).
Right: the tallies noted per player and party with the running party totals,
the Ablaufkarten each player has won, Zusatzkarten in play and how the trick
stands.
"""
from __future__ import annotations

from referee.game_api.contract import Svg, fit

from .edition import PARTIES
from .form import PARTY

WIDTH = 960
LEFT, RIGHT = 10, 580
PANEL_H = 160
# a seat's colour is its place in the match's seat order, as on the match site's chart
COLOURS = ("#1f5fa8", "#b8322a", "#2e8540", "#7a4ca0", "#c46f10", "#0f7c7c", "#8a6d1c", "#555555")
PARTY_INK = {"RR": "#b8322a", "DL": "#c46f10", "L": "#2e6fb0", "R": "#3c3c3c"}

WORDS = {
    "de": {"turn": "Zug", "trick": "Stich", "stake": "Es geht um", "to_play": "am Zug", "table": "Tisch",
           "hand": "Hand", "persons": "Personen", "zusatz": "Zusatz", "passed": "gepasst", "empty": "noch leer",
           "army": "Armee", "points": "Punkte", "tallies": "Notiert je Partei", "total": "Summe",
           "won": "Gewonnene Ablaufkarten", "cards": "Zusatzkarten im Spiel", "standing": "So liegt der Stich",
           "none": "—", "patt": "Patt", "to": "an", "over": "Spielende", "winner": "Sieg", "score": "Punkte",
           "void": "ungültig", "left": "Ablaufkarten übrig", "last": "So endete der letzte Stich",
           "empty_trick": "leerer Stich"},
    "en": {"turn": "turn", "trick": "trick", "stake": "At stake", "to_play": "to play", "table": "Table",
           "hand": "hand", "persons": "persons", "zusatz": "zusatz", "passed": "passed", "empty": "still empty",
           "army": "Army", "points": "points", "tallies": "Noted by party", "total": "Total",
           "won": "Ablaufkarten won", "cards": "Zusatzkarten in play", "standing": "How the trick stands",
           "none": "—", "patt": "stalemate", "to": "to", "over": "Game over", "winner": "won by", "score": "score",
           "void": "void", "left": "Ablaufkarten left", "last": "How the last trick ended",
           "empty_trick": "empty trick"},
}


def picture(view: dict, lang: str) -> str:
    pub = view["public"]
    w = WORDS.get(lang, WORDS["en"])
    party = PARTY.get(lang, PARTY["en"])
    players = pub["players"]
    height = max(60 + len(players) * (PANEL_H + 10), 620)
    svg = Svg(WIDTH, height)
    head = f"1848 · {w['trick']} {pub['trick']} · {w['turn']} {pub['turn']}"
    svg.text(16, 30, head, 20, bold=True)
    if pub["outcome"]:
        who = ", ".join(pub["outcome"].get("winners") or []) or "—"
        svg.text(WIDTH - 16, 30, f"{w['over']}: {w['winner']} {who}", 14, anchor="end")
    elif pub["ablauf"]:
        stake = f"{w['stake']}: {pub['ablauf']['name']}"
        if pub["actor"]:
            stake += f" · {w['to_play']}: {pub['actor']}"
        svg.text(WIDTH - 16, 30, fit(stake, 560, 13), 13, anchor="end", fill="#5a3d00")
    tables = {t["player"]: t for t in pub["table"]}
    ink = {p["id"]: COLOURS[i % len(COLOURS)] for i, p in enumerate(players)}
    for i, p in enumerate(players):
        top = 48 + i * (PANEL_H + 10)
        _player(svg, p, tables.get(p["id"], {}), pub, w, party, lang, top=top)
        svg.rect(LEFT, top, 6, PANEL_H, ink[p["id"]], rx=3, data_player=p["id"])   # the seat's colour
    y = _tallies(svg, pub, w, party, top=48)   # its names stay black: beside the party colours they would mislead
    y = _won(svg, pub, w, ink, top=y + 10)
    _trick(svg, pub, w, party, lang, top=y + 10, bottom=height - 10)
    return svg.document(head)


def _box(svg: Svg, x: float, y: float, width: float, height: float, heading: str) -> None:
    svg.rect(x, y, width, height, "#ffffff", stroke="#b5ab96", rx=6)
    svg.text(x + 12, y + 22, heading, 15, bold=True)


def _player(svg: Svg, p: dict, table: dict, pub: dict, w: dict, party: dict, lang: str, top: float) -> None:
    width = RIGHT - LEFT - 10
    _box(svg, LEFT, top, width, PANEL_H, p["id"])
    flags = [f"{w['hand']}: {w['persons']} {p['hand']['person']}, {w['zusatz']} {p['hand']['zusatz']}"]
    if p["passed"]:
        flags.append(w["passed"])
    svg.text(LEFT + width - 12, top + 22, " · ".join(flags), 11, anchor="end", fill="#555")
    col = (width - 24) / len(PARTIES)
    parties = table.get("parties") or {}
    for j, q in enumerate(PARTIES):
        x = LEFT + 12 + j * col
        here = parties.get(q) or {"persons": [], "sum": 0}
        svg.rect(x, top + 32, col - 8, 20, PARTY_INK[q], rx=3, opacity=0.9)
        svg.text(x + 6, top + 46, fit(party[q], col - 44, 11), 11, fill="#fff", bold=True)
        svg.text(x + col - 14, top + 46, here["sum"], 12, fill="#fff", bold=True, anchor="end")
        for k, person in enumerate(here["persons"][:5]):
            y = top + 68 + k * 15
            mark = f" ({person['flag']})" if person["flag"] else ""
            svg.text(x + 2, y, fit(person["name"] + mark, col - 34, 10), 10)   # a clear gap before the value
            svg.text(x + col - 14, y, person["value"], 10, bold=True, anchor="end")
    armies = table.get("armies") or []
    line = ", ".join(f"{pub['cards'].get(a['card'], {}).get('name', a['card'])}"
                     + (f" {a['points']} {w['points']}" if a.get("led") else f" {a['value']}")
                     for a in armies)
    svg.text(LEFT + 12, top + PANEL_H - 10, fit(f"{w['army']}: {line or w['none']}", width - 24, 10), 10,
             fill="#555")


def _tallies(svg: Svg, pub: dict, w: dict, party: dict, top: float) -> float:
    players = pub["players"]
    height = 70 + (len(players) + 1) * 20
    width = WIDTH - RIGHT - 10
    _box(svg, RIGHT, top, width, height, w["tallies"])
    col = (width - 110) / len(PARTIES)
    for j, q in enumerate(PARTIES):
        x = RIGHT + 100 + j * col + col / 2
        svg.text(x, top + 46, q, 12, bold=True, fill=PARTY_INK[q], anchor="middle")
    rows = [(p["id"], p["tally"]) for p in players] + [(w["total"], pub["party_totals"])]
    for i, (who, tally) in enumerate(rows):
        y = top + 68 + i * 20
        last = i == len(rows) - 1
        if last:
            svg.line(RIGHT + 12, y - 14, RIGHT + width - 12, y - 14, "#b5ab96")
        svg.text(RIGHT + 12, y, fit(who, 84, 12), 12, bold=last)
        for j, q in enumerate(PARTIES):
            svg.text(RIGHT + 100 + j * col + col / 2, y, tally.get(q, 0), 12, bold=last, anchor="middle")
    return top + height


def _won(svg: Svg, pub: dict, w: dict, ink: dict, top: float) -> float:
    players = pub["players"]
    width = WIDTH - RIGHT - 10
    height = 50 + len(players) * 46
    _box(svg, RIGHT, top, width, height, w["won"])
    svg.text(RIGHT + width - 12, top + 22, f"{w['left']}: {pub['ablauf_left']}", 10, anchor="end", fill="#555")
    for i, p in enumerate(players):
        y = top + 44 + i * 46
        svg.text(RIGHT + 12, y, p["id"], 12, bold=True, fill=ink[p["id"]])
        svg.text(RIGHT + width - 12, y, len(p["won"]), 12, bold=True, anchor="end")
        names = [pub["cards"].get(a, {}).get("name", a) for a in p["won"]]
        for k, line in enumerate(wrap(names, width - 24, 10, 2) or [w["none"]]):
            svg.text(RIGHT + 12, y + 14 + k * 13, line, 10, fill="#444")
    return top + height


def wrap(items: list[str], width: float, size: float, lines: int) -> list[str]:
    """``items`` joined by commas into at most ``lines`` lines of about ``width`` pixels."""
    room = max(int(width / (size * 0.56)), 1)
    out: list[str] = []
    for item in items:
        if out and len(out[-1]) + 2 + len(item) <= room:
            out[-1] += ", " + item
        elif len(out) < lines:
            out.append(item)
        else:
            out[-1] += ", " + item
    return [fit(line, width, size) for line in out]


def _trick(svg: Svg, pub: dict, w: dict, party: dict, lang: str, top: float, bottom: float) -> None:
    width = WIDTH - RIGHT - 10
    st = pub["standing"] or pub["last_result"]
    # between tricks the table is cleared: the box tells how the last one ended, not a table that is not there
    _box(svg, RIGHT, top, width, bottom - top, w["standing"] if pub["standing"] else w["last"])
    y = top + 44
    if st:
        if st.get("result") == "win":
            text = f"{w['trick']} {w['to']} {st['winner']} ({party.get(st['party'], st['party'])})"
        elif st.get("result") == "patt":
            text = w["patt"]
        else:
            text = w["empty"] if pub["standing"] else w["empty_trick"]
        svg.text(RIGHT + 12, y, fit(text, width - 24, 12), 12)
        y += 24
    if pub["outcome"] and pub["outcome"].get("scores"):
        scores = ", ".join(f"{p} {n}" for p, n in pub["outcome"]["scores"].items())
        svg.text(RIGHT + 12, y, fit(f"{w['score']}: {scores}", width - 24, 12), 12, bold=True)
        y += 24
    svg.text(RIGHT + 12, y, w["cards"], 12, bold=True)
    for z in pub["zusatz"][:int((bottom - y - 20) // 16)]:
        y += 16
        on = z.get("party") or z.get("player") or pub["cards"].get(z.get("on") or "", {}).get("name") or ""
        text = f"{z['name']} ({z['by']}{' → ' + str(on) if on else ''})" + (f" · {w['void']}" if z["void"] else "")
        svg.text(RIGHT + 12, y, fit(text, width - 24, 10), 10)
    if not pub["zusatz"]:
        svg.text(RIGHT + 12, y + 16, w["none"], 10)


# the standings' labels, phrased for the match site and the reports (merged into RULES.messages)
STANDINGS_MESSAGES = {
    "standings.noted": {"de": "Notierte Parteipunkte", "en": "Party points noted"},
    "standings.ablauf": {"de": "Gewonnene Ablaufkarten", "en": "Ablaufkarten won"},
    "standings.score": {"de": "Endwertung", "en": "Final score"},
}


def standings(view: dict) -> dict[str, dict[str, int]]:
    """The points each player has noted (all parties), the Ablaufkarten won, and the final score once over."""
    pub = view["public"]
    out = {"noted": {p["id"]: sum(p["tally"].values()) for p in pub["players"]},
           "ablauf": {p["id"]: len(p["won"]) for p in pub["players"]}}
    if pub["outcome"] and pub["outcome"].get("scores"):
        out["score"] = dict(pub["outcome"]["scores"])
    return out
