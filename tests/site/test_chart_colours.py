"""Issue 33: a player's colour in the site's standings chart is the colour the board pictures
give that seat (its place in the match's seat order), whatever order the standings list them in."""
from __future__ import annotations

import re

from referee.site.chart import COLOURS, chart


def colour_of(svg: str, player: str) -> str:
    return re.search(rf'stroke="(#[0-9a-f]{{6}})"[^>]*data-player="{player}"|data-player="{player}"[^>]*stroke="(#[0-9a-f]{{6}})"',
                     svg).group(0).split('stroke="')[1][:7]


def test_a_seats_chart_colour_is_its_place_in_the_match_not_in_the_standings():
    lines = {"cleo": [(1, 3), (2, 5)], "ada": [(1, 1), (2, 2)], "bert": [(1, 0), (2, 4)]}   # by score
    svg = chart("Points", lines, {}, seats=["ada", "bert", "cleo"])
    assert [colour_of(svg, p) for p in ("ada", "bert", "cleo")] == list(COLOURS[:3])


def test_a_line_that_is_no_seat_takes_a_colour_after_the_seats():
    svg = chart("Korruption", {"ada": [(1, 1)], "_city": [(1, 4)]}, {}, seats=["ada", "bert"])
    assert colour_of(svg, "ada") == COLOURS[0] and colour_of(svg, "_city") == COLOURS[2]
