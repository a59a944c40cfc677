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


# --- issue 33: the board pictures of every game colour seat k as the site's chart does ----------

import pytest  # noqa: E402

from referee.game_api import registry  # noqa: E402
from referee.game_api.contract import PUBLIC, Rng  # noqa: E402
from referee.game_api.scripted import random_player  # noqa: E402
from referee.pictures.board import svg_of  # noqa: E402
from referee.render import standings  # noqa: E402
from referee.site.chart import series  # noqa: E402

UNSORTED = ["zora", "bert", "mira", "ada"]     # a match file's seat order that is not alphabetical


def fill_of(svg: str, player: str) -> set[str]:
    """The fills of the shapes the picture marks as ``player``'s."""
    return {m.group(1) for tag in re.findall(rf'<(?:rect|circle)[^>]*data-player="{player}"[^>]*>', svg)
            for m in [re.search(r'fill="(#[0-9a-f]{6})"', tag)] if m}


@pytest.mark.parametrize("game", ["founding_fathers", "nations_dice", "perricumer_ratsspiel", "revolution_1848"])
def test_picture_colour_of_seat_k_is_chart_colour_of_seat_k(game):
    rules = registry.get(game)
    seats = UNSORTED[:min(len(UNSORTED), rules.max_players)]
    sample = getattr(rules, "sample_options", None)
    state = rules.setup(seats, sample(seats) if sample else {}, Rng(7))
    play, rng, points = random_player(rules), Rng(11), []
    for turn in range(1, 9):          # a few turns: Nations reorders its players as it plays
        view = rules.view(state, PUBLIC)
        points.append((turn, standings.read(rules, state)))
        for lang in rules.languages:
            picture = svg_of(rules, view, lang)
            for k, seat in enumerate(seats):
                assert fill_of(picture, seat) == {COLOURS[k]}, (game, turn, lang, seat)
        awaiting = rules.awaiting(state)
        if not awaiting:
            break
        orders = {p: rules.order_schema(state, stage).model_validate(play(state, p, rng))
                  for p, stage in awaiting.items()}
        state = rules.resolve(state, orders, rng).state
    for label, lines in series(points).items():
        drawn = chart(label, lines, {}, seats=seats)
        for seat in set(lines) & set(seats):
            assert colour_of(drawn, seat) == COLOURS[seats.index(seat)], (game, label, seat)


def test_the_sites_pictures_and_its_chart_colour_each_seat_alike(tmp_path):
    """Through the site as ``referee site`` builds it from a recorded match: every turn's picture
    gives a seat the colour its line has in the standings chart (Nations plays in a changing turn order)."""
    from seekit import SAMPLES

    from referee.site.build import build_site

    for game in ("nations_dice", "revolution_1848"):
        out = tmp_path / game
        build_site(SAMPLES / f"demo-{game}", out)
        standings_svg = (out / "standings.svg").read_text()
        seats = sorted(set(re.findall(r'data-player="([^"]+)"', standings_svg)))
        line = {seat: colour_of(standings_svg, seat) for seat in seats}
        pictures = sorted((out / "pictures").glob("*.svg"))
        assert pictures and seats
        for picture in pictures:
            svg = picture.read_text()
            for seat in seats:
                assert fill_of(svg, seat) == {line[seat]}, (game, picture.name, seat)
