"""The board as an SVG picture, drawn from a viewer's view only.

The Assembly Room with the 12 states and their votes, the Yea/Nay tracker,
the Committee Room, the four debate tracks and the scores.  Only public parts
of the view are drawn, so every viewer's picture is the same.
"""
from __future__ import annotations

from referee.game_api.contract import Svg, fit

from .edition import FACTIONS, STATES

WIDTH = 960
# a seat's colour is its place in the match's seat order, as on the match site's chart
COLOURS = ("#1f5fa8", "#b8322a", "#2e8540", "#7a4ca0", "#c46f10", "#0f7c7c", "#8a6d1c", "#555555")
SIDE_FILL = {"yea": "#4c9a52", "nay": "#c0463c", None: "#e4e0d6"}
FACTION_FILL = {"large_states": "#8c6d3f", "small_states": "#3f7d8c",
                "antifederalist": "#8c3f5e", "federalist": "#4f5f8c"}

WORDS = {
    "en": {"round": "Round", "turn": "turn", "assembly": "Assembly Room", "committee": "Committee Room",
           "debate": "Debate tracks", "scores": "Scores", "yea": "YEA", "nay": "NAY", "open": "open",
           "fixed": "locked", "markers": "influence markers", "none": "no article", "flipped": "flipped",
           "next": "Next", "over": "Game over, won by", "needs": "needed",
           "large_states": "Large States", "small_states": "Small States",
           "antifederalist": "Anti-Federalist", "federalist": "Federalist"},
    "de": {"round": "Runde", "turn": "Zug", "assembly": "Versammlungszimmer", "committee": "Komitee-Zimmer",
           "debate": "Debattier-Halle", "scores": "Punkte", "yea": "JA", "nay": "NEIN", "open": "offen",
           "fixed": "gesperrt", "markers": "Einflussmarker", "none": "kein Artikel", "flipped": "umgedreht",
           "next": "Als Nächstes", "over": "Spielende, Sieg für", "needs": "nötig",
           "large_states": "Große Staaten", "small_states": "Kleine Staaten",
           "antifederalist": "Antiföderalist", "federalist": "Föderalist"},
}


def picture(view: dict, lang: str) -> str:
    pub = view["public"]
    w = WORDS.get(lang, WORDS["en"])
    colour = {p["id"]: COLOURS[i % len(COLOURS)] for i, p in enumerate(pub["players"])}
    svg = Svg(WIDTH, 640)
    _title(svg, pub, w)
    _assembly(svg, pub, w, colour, lang, top=52)
    _committee(svg, pub, w, colour, lang, top=262)
    _debate(svg, pub, w, colour, top=372)
    _scores(svg, pub, w, colour, top=372)
    return svg.document(f"Founding Fathers — {w['round']} {pub['round']}, {w['turn']} {pub['turn']}")


def _title(svg: Svg, pub: dict, w: dict) -> None:
    svg.text(16, 30, f"Founding Fathers · {w['round']} {pub['round']} · {w['turn']} {pub['turn']}", 20, bold=True)
    if pub["outcome"]:
        line = f"{w['over']} {', '.join(pub['outcome'].get('winners') or [])}"
    elif pub["awaiting"]:
        line = f"{w['next']}: " + ", ".join(sorted(pub["awaiting"]))
    else:
        line = ""
    svg.text(WIDTH - 16, 30, line, 14, anchor="end")


def _article(article: dict | None, w: dict, lang: str) -> str:
    if article is None:
        return w["none"]
    flipped = "" if article["historical"] else f" ({w['flipped']})"
    return f"“{article['title'].get(lang) or article['title']['en']}” — {w[article['bias']]}{flipped}"


def _room(svg: Svg, x: float, y: float, width: float, height: float, heading: str, sub: str) -> None:
    svg.rect(x, y, width, height, "#ffffff", stroke="#b5ab96", rx=6)
    svg.text(x + 12, y + 22, heading, 15, bold=True)
    svg.text(x + width - 12, y + 22, fit(sub, width - len(heading) * 10 - 40, 13), 13, fill="#444", anchor="end")


def _assembly(svg: Svg, pub: dict, w: dict, colour: dict, lang: str, top: float) -> None:
    room = pub["assembly"]
    _room(svg, 10, top, WIDTH - 20, 200, w["assembly"], _article(room["article"], w, lang))
    by_state = {d["state"]: d for d in room["delegations"]}
    cell = (WIDTH - 40) / len(STATES)
    for i, st in enumerate(STATES):
        x, y = 20 + i * cell, top + 36
        side = room["tracker"].get(st)
        svg.rect(x + 2, y, cell - 4, 90, SIDE_FILL[side], rx=4, stroke="#8a8272")
        ink = "#ffffff" if side else "#555"
        svg.text(x + cell / 2, y + 26, st, 20, fill=ink, anchor="middle", bold=True)
        svg.text(x + cell / 2, y + 48, w[side] if side else w["open"], 13, fill=ink, anchor="middle")
        dl = by_state.get(st)
        if dl is not None:
            if dl["controller"]:
                svg.circle(x + cell / 2, y + 68, 8, colour.get(dl["controller"], "#999"), stroke="#fff")
                svg.text(x + cell / 2, y + 86, fit(dl["controller"], cell - 6, 10), 10, fill=ink, anchor="middle")
            if dl["protected"]:
                svg.text(x + cell - 6, y + 12, w["fixed"], 8, fill=ink, anchor="end")
    _tracker(svg, 20, top + 140, w["yea"], room["yea"], 7, SIDE_FILL["yea"], w)
    _tracker(svg, WIDTH / 2 + 10, top + 140, w["nay"], room["nay"], 6, SIDE_FILL["nay"], w)


def _tracker(svg: Svg, x: float, y: float, label: str, count: int, need: int, fill: str, w: dict) -> None:
    svg.text(x, y + 30, f"{label} {count}/{need}", 16, bold=True)
    for i in range(need):
        svg.rect(x + 100 + i * 34, y + 12, 28, 28, fill if i < count else "#eee8da", stroke="#8a8272", rx=3)
    svg.text(x + 100 + need * 34 + 4, y + 30, f"({need} {w['needs']})", 11, fill="#666")


def _committee(svg: Svg, pub: dict, w: dict, colour: dict, lang: str, top: float) -> None:
    room = pub["committee"]
    _room(svg, 10, top, WIDTH - 20, 100, w["committee"], _article(room["article"], w, lang))
    svg.text(24, top + 50, w["markers"], 12, fill="#555")
    x = 24
    for p, n in room["markers"].items():
        svg.circle(x + 8, top + 72, 8, colour.get(p, "#999"))
        svg.text(x + 22, top + 77, f"{p}: {n}", 14)
        x += 40 + len(p) * 8 + 24
        if x > WIDTH - 120:
            break


def _debate(svg: Svg, pub: dict, w: dict, colour: dict, top: float) -> None:
    width = 600
    svg.rect(10, top, width, 258, "#ffffff", stroke="#b5ab96", rx=6)
    svg.text(22, top + 22, w["debate"], 15, bold=True)
    top_pos = max([m["position"] for track in pub["debate"].values() for m in track] + [6])
    step = (width - 190) / top_pos
    for row, f in enumerate(FACTIONS):
        y = top + 56 + row * 52
        svg.text(22, y + 5, w[f], 13, fill=FACTION_FILL[f], bold=True)
        svg.line(170, y, 170 + step * top_pos, y, FACTION_FILL[f], stroke_width=3)
        for pos in range(top_pos + 1):
            svg.text(170 + pos * step, y + 22, pos, 9, fill="#888", anchor="middle")
        for k, m in enumerate(pub["debate"].get(f, [])):
            cx = 170 + m["position"] * step + (k % 2) * 5
            svg.circle(cx, y - 2 - (k % 3) * 4, 8, colour.get(m["player"], "#999"), stroke="#fff")
            svg.text(cx, y - 14 - (k % 3) * 4, f"{m['player']} {m['position']}", 10, anchor="middle")


def _scores(svg: Svg, pub: dict, w: dict, colour: dict, top: float) -> None:
    x0, width = 620, WIDTH - 630
    svg.rect(x0, top, width, 258, "#ffffff", stroke="#b5ab96", rx=6)
    svg.text(x0 + 12, top + 22, w["scores"], 15, bold=True)
    best = max([p["score"] for p in pub["players"]] + [1])
    for i, p in enumerate(pub["players"]):
        y = top + 42 + i * 42
        svg.text(x0 + 12, y + 16, fit(p["id"], 90, 13), 13)
        bar = (width - 160) * p["score"] / best
        svg.rect(x0 + 110, y + 2, bar, 20, colour[p["id"]], rx=3, data_player=p["id"])
        svg.text(x0 + 116 + bar, y + 17, p["score"], 14, bold=True)


# the standings' labels, phrased for the match site and the reports (merged into RULES.messages)
STANDINGS_MESSAGES = {"standings.score": {"en": "Score", "de": "Punkte"}}


def standings(view: dict) -> dict[str, dict[str, int]]:
    """The scores: the one number Founding Fathers is won on."""
    return {"score": {p["id"]: p["score"] for p in view["public"]["players"]}}
