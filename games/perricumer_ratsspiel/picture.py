"""The council as an SVG picture, drawn from a viewer's public view only.

Left: the city values on their 0–20 scales with the office that guards each,
Korruption against its limit, and the last session's votes.  Right: every
councillor's influence, the players' councillors marked with their player.
"""
from __future__ import annotations

from referee.game_api.contract import Svg, fit

from .council import KORRUPTION_LIMIT

WIDTH, HEIGHT = 960, 800
LEFT, RIGHT = 10, 500
# a seat's colour is its place in the match's seat order, as on the match site's chart
COLOURS = ("#1f5fa8", "#b8322a", "#2e8540", "#7a4ca0", "#c46f10", "#0f7c7c", "#8a6d1c", "#555555")
SCALE_MAX = 20
BAR = 130          # the longest influence bar, leaving room for the value and the seat's name

WORDS = {
    "de": {"after": "nach Sitzung", "before": "vor Sitzung", "of": "von", "values": "Stadtwerte (0–20)", "korruption": "Korruption",
           "influence": "Einfluss der Ratsmitglieder", "votes": "Abstimmungen der letzten Sitzung",
           "none": "noch keine Sitzung", "pro": "dafür", "contra": "dagegen", "no_result": "kein Ergebnis",
           "elected": "gewählt", "tie": "Gleichstand", "vacant": "unbesetzt", "limit": "Grenze",
           "over": "Spielende", "winner": "Sieg"},
    "en": {"after": "after session", "before": "before session", "of": "of", "values": "City values (0–20)", "korruption": "Corruption",
           "influence": "Councillors' influence", "votes": "Votes of the last session",
           "none": "no session yet", "pro": "for", "contra": "against", "no_result": "no result",
           "elected": "elected", "tie": "tie", "vacant": "vacant", "limit": "limit",
           "over": "Game over", "winner": "won by"},
}


def picture(view: dict, lang: str) -> str:
    pub = view["public"]
    w = WORDS.get(lang, WORDS["en"])
    colour = {p: COLOURS[i % len(COLOURS)] for i, p in enumerate(pub["seats"])}
    svg = Svg(WIDTH, HEIGHT)
    # the view's round is the coming one; the board shows the session just held
    held = f"{w['after']} {pub['last']['round']}" if pub["last"] else f"{w['before']} {pub['round']}"
    head = f"{pub['title']} · {held} {w['of']} {pub['rounds']}"
    svg.text(16, 30, head, 20, bold=True)
    if pub["outcome"]:
        who = pub["outcome"].get("winner_name") or "—"
        svg.text(WIDTH - 16, 30, f"{w['over']}: {w['winner']} {who}", 14, anchor="end")
    _values(svg, pub, w, lang, top=48)
    _korruption(svg, pub["korruption"], w, top=370)
    _votes(svg, pub, w, lang, top=430)
    _influence(svg, pub, w, colour, top=48)
    return svg.document(head)


def _box(svg: Svg, x: float, y: float, width: float, height: float, heading: str) -> None:
    svg.rect(x, y, width, height, "#ffffff", stroke="#b5ab96", rx=6)
    svg.text(x + 12, y + 22, heading, 15, bold=True)


def _values(svg: Svg, pub: dict, w: dict, lang: str, top: float) -> None:
    _box(svg, LEFT, top, 480, 312, w["values"])
    guard = {o["value"]: o for o in pub["offices"]}
    x0, width = LEFT + 180, 250
    for i, v in enumerate(pub["values"]):
        y = top + 52 + i * 37
        svg.text(LEFT + 12, y + 4, fit(v["name"].get(lang) or v["name"]["de"], 164, 12), 12, bold=True)
        svg.rect(x0, y - 6, width, 10, "#eee8da", rx=5)
        svg.rect(x0, y - 6, width * v["value"] / SCALE_MAX, 10, _level_colour(v["value"]), rx=5)
        for tick in (0, 7, 10, 20):
            svg.line(x0 + width * tick / SCALE_MAX, y + 6, x0 + width * tick / SCALE_MAX, y + 10, "#888")
        svg.text(x0 + width + 8, y + 4, v["value"], 14, bold=True)
        office = guard.get(v["id"])
        if office is not None:
            holder = office["holder_name"] or w["vacant"]
            name = office["name"].get(lang) or office["name"]["de"]
            svg.text(x0, y + 21, fit(f"{name}: {holder}", width, 10), 10, fill="#555")


def _level_colour(value: int) -> str:
    if value < 7:
        return "#c0463c"
    return "#c9a227" if value < 10 else "#4c9a52"


def _korruption(svg: Svg, level: int, w: dict, top: float) -> None:
    _box(svg, LEFT, top, 480, 52, "")
    svg.text(LEFT + 12, top + 32, w["korruption"], 15, bold=True)
    x0, cell = LEFT + 180, 250 / KORRUPTION_LIMIT
    for i in range(KORRUPTION_LIMIT):
        svg.rect(x0 + i * cell + 1, top + 16, cell - 2, 22, "#8c3f5e" if i < level else "#eee8da", rx=2)
    svg.text(x0 + 258, top + 32, f"{level}/{KORRUPTION_LIMIT}", 14, bold=True)


def _votes(svg: Svg, pub: dict, w: dict, lang: str, top: float) -> None:
    _box(svg, LEFT, top, 480, HEIGHT - top - 10, w["votes"])
    last = pub["last"]
    if not last:
        svg.text(LEFT + 12, top + 50, w["none"], 13, fill="#666")
        return
    for i, p in enumerate(last["proposals"][:7]):
        y = top + 48 + i * 46
        title = p["title"].get(lang) or p["title"]["de"]
        svg.text(LEFT + 12, y, fit(f"{p['nr']}. {title}", 456, 12), 12, bold=True)
        if p["kind"] == "wahl":
            named = p.get("tally_named") or []
            line = ", ".join(f"{t['name'].split()[0]} {t['votes']}" for t in named)
            verdict = f"{w['elected']}: {p['elected']}" if p.get("result") else w["tie"]
            svg.text(LEFT + 12, y + 18, fit(f"{line} → {verdict}", 456, 11), 11, fill="#333")
            continue
        pro, contra = p["tally"].get("pro", 0), p["tally"].get("contra", 0)
        total = max(pro + contra, 1)
        svg.rect(LEFT + 12, y + 8, 220 * pro / total, 14, "#4c9a52")
        svg.rect(LEFT + 12 + 220 * pro / total, y + 8, 220 * contra / total, 14, "#c0463c")
        if p.get("result"):
            ch = p.get("change") or {}
            verdict = f"{w[p['result']]} · {ch.get('before', '')} → {ch.get('after', '')}"
        else:
            verdict = w["no_result"]
        svg.text(LEFT + 240, y + 20, f"{w['pro']} {pro} : {contra} {w['contra']} → {verdict}", 11)


def _influence(svg: Svg, pub: dict, w: dict, colour: dict, top: float) -> None:
    _box(svg, RIGHT, top, WIDTH - RIGHT - 10, HEIGHT - top - 10, w["influence"])
    members = pub["members"][:26]
    best = max([m["total"] for m in members] + [1])
    row = min(26.0, (HEIGHT - top - 60) / max(len(members), 1))
    for i, m in enumerate(members):
        y = top + 40 + i * row
        ink = colour.get(m["player"], "#9a927f")
        svg.text(RIGHT + 12, y + row * 0.6, fit(m["name"], 200, 11), 11, fill="#222" if m["player"] else "#555")
        bar = BAR * m["total"] / best
        svg.rect(RIGHT + 216, y + 3, bar, row - 8, ink, rx=2, **({"data_player": m["player"]} if m["player"] else {}))
        svg.text(RIGHT + 222 + bar, y + row * 0.6, m["total"], 11)
        if m["player"]:   # the seat's name after the longest bar still inside the box
            room = WIDTH - 22 - (RIGHT + 246 + bar)
            svg.text(RIGHT + 246 + bar, y + row * 0.6, fit(m["player"], room, 11), 11, fill=ink, bold=True)


# the standings' labels, phrased for the match site and the reports (merged into RULES.messages)
STANDINGS_MESSAGES = {
    "standings.influence": {"de": "Einfluss", "en": "Influence"},
    "standings.korruption": {"de": "Korruption", "en": "Corruption"},
    "standings.city": {"de": "Stadt", "en": "City"},
}


def standings(view: dict) -> dict[str, dict[str, int]]:
    """Each player's councillor's public influence, and Korruption (the city's)."""
    pub = view["public"]
    return {"influence": {m["player"]: m["total"] for m in pub["members"] if m["player"]},
            "korruption": {"city": pub["korruption"]}}
