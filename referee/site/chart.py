"""The standings over the turns as SVG line charts, one per label the game
declares (``standings(view) -> {label: {player: number}}``)."""
from __future__ import annotations

import math

from referee.game_api.contract import Svg

COLOURS = ("#1f5fa8", "#b8322a", "#2e8540", "#7a4ca0", "#c46f10", "#0f7c7c", "#8a6d1c", "#555555")
WIDTH, HEIGHT = 900, 280
LEFT, RIGHT, TOP, BOTTOM = 50, 150, 30, 36


def series(points: list[tuple[int, dict]]) -> dict[str, dict[str, list[tuple[int, float]]]]:
    """[(turn, standings)] → {label: {player: [(turn, number)]}}, labels and players in first-seen order."""
    out: dict[str, dict[str, list[tuple[int, float]]]] = {}
    for turn, standing in points:
        for label, values in standing.items():
            for player, value in values.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    out.setdefault(label, {}).setdefault(player, []).append((turn, value))
    return out


def chart(label: str, lines: dict[str, list[tuple[int, float]]], names: dict[str, str],
          seats: list[str] | tuple[str, ...] = ()) -> str:
    """One line chart: x the turn, y the number, one coloured line per player.  A seat's colour is
    its place in ``seats`` (the match's order, as the games' board pictures colour them), whatever
    order the standings list the players in; other lines take the colours after the seats'."""
    svg = Svg(WIDTH, HEIGHT, background="#ffffff")
    turns = [t for pts in lines.values() for t, _ in pts] or [1]
    values = [v for pts in lines.values() for _, v in pts] or [0]
    t0, t1 = min(turns), max(max(turns), min(turns) + 1)
    v0, v1 = min(0, min(values)), max(max(values), 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(t: float) -> float:
        return LEFT + plot_w * (t - t0) / (t1 - t0)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - v0) / (v1 - v0))

    svg.text(LEFT, 18, label, 15, bold=True)
    step = max(math.ceil((v1 - v0) / 4), 1)     # whole-number ticks: standings count things
    for k in range(int((v1 - v0) // step) + 1):
        v = v0 + k * step
        svg.line(LEFT, y(v), LEFT + plot_w, y(v), "#e4e0d6")
        svg.text(LEFT - 6, y(v) + 4, f"{v:g}", 10, anchor="end", fill="#666")
    every = max(math.ceil((t1 - t0) / 10), 1)
    for t in range(t0, t1 + 1, every):
        svg.text(x(t), HEIGHT - BOTTOM + 16, t, 10, anchor="middle", fill="#666")
    place = {seat: i for i, seat in enumerate(seats)}
    others = iter(range(len(place), len(place) + len(lines)))
    for i, (player, pts) in enumerate(lines.items()):
        colour = COLOURS[(place[player] if player in place else next(others)) % len(COLOURS)]
        svg.polyline([(x(t), y(v)) for t, v in pts], colour, stroke_width=2.5, class_="series",
                     data_player=player)
        last_t, last_v = pts[-1]
        svg.circle(x(last_t), y(last_v), 3.5, colour)
        svg.rect(WIDTH - RIGHT + 14, TOP + i * 20, 12, 12, colour)
        svg.text(WIDTH - RIGHT + 32, TOP + i * 20 + 11, f"{names.get(player, player)}: {last_v:g}", 12)
    return svg.document(label)
