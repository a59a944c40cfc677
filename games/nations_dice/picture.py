"""The table as an SVG picture, drawn from a viewer's public view only.

Top: the age and its event, the board's tiles in their cost rows.  Below: one
panel per nation with culture and VP on their tracks, markers (books, food,
stone, gold ...), developments, advisor, wonder under construction, built
wonders and colonies.
"""
from __future__ import annotations

from referee.game_api.contract import Svg, fit

from .edition import AGES

WIDTH = 960
LEFT = 10
# a seat's colour is its place in the match's seat order, as on the match site's chart
COLOURS = ("#1f5fa8", "#b8322a", "#2e8540", "#7a4ca0", "#c46f10", "#0f7c7c", "#8a6d1c", "#555555")
TYPE_INK = {"wonder": "#c9a227", "building": "#8a6d3b", "military": "#b8322a", "advisor": "#7a4ca0",
            "colony": "#2e8540"}
DIE_INK = {"white": "#f4f1ea", "blue": "#3b6fc1", "orange": "#e08a2c", "red": "#c0463c"}
MARKERS = ("book", "food", "stone", "gold", "strength", "reroll")
PANEL_H = 250

WORDS = {
    "de": {"title": "Nations: Das Würfelspiel", "age": "Zeitalter", "event": "Ereignis", "food": "Nahrung",
           "strength": "Stärke", "board": "Auslage (Kosten je Reihe)", "cost": "Kosten", "empty": "leer",
           "culture": "Kultur", "vp": "SP", "tile_vp": "SP aus Plättchen", "passed": "gepasst",
           "devs": "Entwicklungen", "advisor": "Berater", "wonder": "Wunder im Bau", "built": "Gebaute Wunder",
           "colonies": "Kolonien", "none": "—", "over": "Spielende", "winner": "Sieg", "place": "Platz",
           "opponent": "Gegner (Solo)", "dice": "Würfel", "marker_head": "Marker: verfügbar/gesamt",
           "types": {"wonder": "Wunder", "building": "Gebäude", "military": "Militär", "advisor": "Berater",
                     "colony": "Kolonie"},
           "faces": {"strength": "Stä", "stone": "Ste", "gold": "Gld", "food": "Nah", "book": "Bch"},
           "markers": {"book": "Bücher", "food": "Nahrung", "stone": "Stein", "gold": "Gold",
                       "strength": "Stärke", "reroll": "Neuwurf"},
           "currency": {"gold": "Gold", "stone": "Stein", "strength": "Stärke", "food": "Nahrung",
                        "book": "Bücher"}},
    "en": {"title": "Nations: The Dice Game", "age": "Age", "event": "Event", "food": "food",
           "strength": "strength", "board": "Board (cost by row)", "cost": "cost", "empty": "empty",
           "culture": "Culture", "vp": "VP", "tile_vp": "VP from tiles", "passed": "passed",
           "devs": "Developments", "advisor": "Advisor", "wonder": "Wonder in progress", "built": "Built wonders",
           "colonies": "Colonies", "none": "—", "over": "Game over", "winner": "won by", "place": "place",
           "opponent": "Opponent (solo)", "dice": "Dice", "marker_head": "Markers: available/held",
           "types": {"wonder": "wonder", "building": "building", "military": "military", "advisor": "advisor",
                     "colony": "colony"},
           "faces": {"strength": "str", "stone": "sto", "gold": "gld", "food": "fd", "book": "bk"},
           "markers": {"book": "Books", "food": "Food", "stone": "Stone", "gold": "Gold",
                       "strength": "Strength", "reroll": "Rerolls"},
           "currency": {"gold": "gold", "stone": "stone", "strength": "strength", "food": "food",
                        "book": "books"}},
}


def name_of(tile: dict | None, lang: str) -> str:
    return "" if tile is None else tile["name"].get(lang) or tile["name"]["en"]


def picture(view: dict, lang: str) -> str:
    pub = view["public"]
    w = WORDS.get(lang, WORDS["en"])
    players = pub["players"][:4]
    rows = (len(players) + 1) // 2
    height = 262 + rows * (PANEL_H + 10)
    svg = Svg(WIDTH, height)
    head = f"{w['title']} · {w['age']} {pub['age']}/{AGES}"
    svg.text(16, 30, head, 20, bold=True)
    if pub["outcome"]:
        who = ", ".join(pub["outcome"].get("winners") or []) or "—"
        svg.text(WIDTH - 16, 30, f"{w['over']}: {w['winner']} {who}", 14, anchor="end")
    _board(svg, pub, w, lang, top=44)
    seat = {p: i for i, p in enumerate(pub["seats"])}   # panels in turn order, colours by seat
    for i, q in enumerate(players):
        x = LEFT + (i % 2) * 475
        y = 262 + (i // 2) * (PANEL_H + 10)
        _nation(svg, q, pub, w, lang, COLOURS[seat[q["id"]] % len(COLOURS)], x, y)
    return svg.document(head)


def _box(svg: Svg, x: float, y: float, width: float, height: float, heading: str, ink: str = "#222") -> None:
    svg.rect(x, y, width, height, "#ffffff", stroke="#b5ab96", rx=6)
    svg.text(x + 12, y + 22, heading, 15, bold=True, fill=ink)


def _board(svg: Svg, pub: dict, w: dict, lang: str, top: float) -> None:
    _box(svg, LEFT, top, WIDTH - 20, 208, w["board"])
    ev = pub["event"]
    if ev:
        line = (f"{w['event']}: {ev['name'].get(lang) or ev['name']['en']} · {w['food']} {ev['food']} · "
                f"{w['strength']} {ev['strength']} · {ev['vp']} {w['vp']}")
        svg.text(WIDTH - 22, top + 22, fit(line, 600, 13), 13, anchor="end", fill="#5a3d00")
    columns = pub["board"]
    cell_w = (WIDTH - 20 - 24 - 60) / max(len(columns), 1)
    for c, column in enumerate(columns):
        for r, slot in enumerate(column["rows"][:3]):
            x, y = LEFT + 72 + c * cell_w, top + 36 + r * 56
            if c == 0:
                svg.text(LEFT + 12, y + 30, f"{w['cost']} {slot['cost']}", 12, fill="#555")
            tile = slot["tile"]
            if tile is None:
                svg.rect(x, y, cell_w - 8, 50, "#f3efe6", stroke="#ddd4c2", rx=4)
                svg.text(x + 8, y + 30, w["empty"], 11, fill="#999")
                continue
            svg.rect(x, y, cell_w - 8, 50, "#fffdf7", stroke=TYPE_INK.get(tile["type"], "#888"), rx=4,
                     stroke_width=2)
            svg.text(x + 8, y + 20, fit(name_of(tile, lang), cell_w - 90, 13), 13, bold=True)
            svg.text(x + cell_w - 16, y + 20, f"{tile['vp']} {w['vp']}", 12, anchor="end")
            cur = w["currency"].get(slot["currency"], slot["currency"] or "")
            svg.text(x + 8, y + 40, fit(f"{slot['cost']} {cur} · {w['types'].get(tile['type'], tile['type'])}", cell_w - 24, 11), 11,
                     fill="#555")


def _track(svg: Svg, x: float, y: float, label: str, value: int, top: int, ink: str, player: str | None = None) -> None:
    svg.text(x, y + 9, label, 12, bold=True)
    x0, width = x + 110, 250
    svg.rect(x0, y, width, 10, "#eee8da", rx=5)
    svg.rect(x0, y, width * min(value, top) / max(top, 1), 10, ink, rx=5, data_player=player)
    svg.text(x0 + width + 10, y + 10, value, 13, bold=True)


def _nation(svg: Svg, q: dict, pub: dict, w: dict, lang: str, ink: str, x: float, y: float) -> None:
    _box(svg, x, y, 465, PANEL_H, q["id"], ink)
    flags = [f"{w['place']} {q['place']}"] + ([w["passed"]] if q["passed"] else [])
    svg.text(x + 453, y + 22, " · ".join(flags), 11, anchor="end", fill="#555")
    top_culture = max([p["culture"] for p in pub["players"]] + [pub["opponent_culture"] or 0, 10])
    top_vp = max([p["vp"] for p in pub["players"]] + [20])
    _track(svg, x + 12, y + 34, w["culture"], q["culture"], top_culture, ink, q["id"])
    _track(svg, x + 12, y + 52, w["vp"], q["vp"], top_vp, ink)
    svg.text(x + 12, y + 82, w["tile_vp"], 11, fill="#555")
    svg.text(x + 122, y + 82, q["tile_vp"], 11, fill="#555")
    # the markers under a heading of their own: counted apart from the dice drawn below
    # (a die showing strength is no strength marker)
    svg.text(x + 12, y + 102, w["marker_head"], 11, fill="#555")
    for i, kind in enumerate(MARKERS):
        m = q["markers"].get(kind, {"available": 0, "held": 0})
        mx = x + 12 + (i % 3) * 150
        my = y + 118 + (i // 3) * 16
        svg.text(mx, my, w["markers"][kind], 12)
        svg.text(mx + 80, my, f"{m['available']}/{m['held']}", 12, bold=True)
    svg.text(x + 12, y + 156, w["dice"], 11, fill="#555")
    for i, die in enumerate(q["dice"][:11]):
        dx = x + 60 + i * 36
        svg.rect(dx, y + 145, 32, 16, DIE_INK.get(die["colour"], "#ccc"), stroke="#777", rx=3,
                 opacity=0.35 if die["spent"] else 1)
        if die["face"]:
            kind, n = next(iter(die["face"].items()))
            svg.text(dx + 16, y + 157, f"{n} {w['faces'].get(kind, kind[:3])}", 9, anchor="middle",
                     fill="#222" if die["colour"] in ("white", "orange") else "#fff")
    devs = [name_of(d["tile"], lang) for d in q["developments"] if d["tile"]]
    lines = ((w["devs"], devs), (w["advisor"], [name_of(q["advisor"], lang)] if q["advisor"] else []),
             (w["wonder"], [name_of(q["wonder"], lang)] if q["wonder"] else []),
             (w["built"], [name_of(t, lang) for t in q["built"]]),
             (w["colonies"], [name_of(t, lang) for t in q["colonies"]]))
    for i, (label, names) in enumerate(lines):
        ly = y + 178 + i * 16
        svg.text(x + 12, ly, label, 11, bold=True)
        svg.text(x + 142, ly, fit(", ".join(names) or w["none"], 312, 10), 10)


# the standings' labels, phrased for the match site and the reports (merged into RULES.messages)
STANDINGS_MESSAGES = {
    "standings.vp": {"de": "Siegpunkte", "en": "Victory points"},
    "standings.culture": {"de": "Kultur", "en": "Culture"},
    "standings.opponent": {"de": "Gegner (Solo)", "en": "Opponent (solo)"},
}


def standings(view: dict) -> dict[str, dict[str, int]]:
    """Each nation's VP and culture (the solo opponent's culture beside them)."""
    pub = view["public"]
    culture = {q["id"]: q["culture"] for q in pub["players"]}
    if pub["opponent_culture"] is not None:
        culture["opponent"] = pub["opponent_culture"]
    return {"vp": {q["id"]: q["vp"] for q in pub["players"]}, "culture": culture}
