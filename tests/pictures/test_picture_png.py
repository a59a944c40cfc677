"""Each game's pictures render to PNG (kept in tests/pictures/out/ to be looked at),
and a game's broken picture never costs a report."""
from __future__ import annotations

import struct
import zlib

import pytest
from seekit import FF, OUT, RS, colours_in, png_size, views

from referee.game_api import registry
from referee.pictures import board as pictures


@pytest.mark.parametrize("sample, numbers, size", [(FF, (1, 30, 84), (720, 480)), (RS, (1, 8), (720, 600))])
def test_the_samples_pictures_render_to_png(sample, numbers, size):
    rules = registry.get(sample.name.removeprefix("demo-"))
    OUT.mkdir(parents=True, exist_ok=True)
    for number, view in views(sample, numbers).items():
        for lang in rules.languages:
            png = pictures.picture_png(rules, view, lang)
            assert png_size(png) == size
            assert colours_in(png) > 50
            (OUT / f"{rules.name}-t{number:03d}.{lang}.png").write_bytes(png)


class Broken:
    name = "broken"

    def __init__(self, picture):
        self.picture = picture


def raises(view, lang):
    raise KeyError("players")


@pytest.mark.parametrize("hook", [raises, lambda v, lang: None, lambda v, lang: b"<svg/>",
                                  lambda v, lang: "<svg" * 600_000, lambda v, lang: "not an svg at all"])
def test_a_broken_picture_hook_gives_no_picture_and_no_error(hook):
    assert pictures.picture_png(Broken(hook), {"public": {}}, "en") is None


def test_a_game_without_the_hook_has_no_picture():
    assert pictures.svg_of(object(), {"public": {}}, "en") is None
