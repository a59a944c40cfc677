"""The referee's PNG of every game's board (text as glyph outlines, plain shapes
by libvips) shows what resvg drawing the text itself shows: compared pixel by
pixel with resvg's own rendering of the same SVG, in both languages."""
from __future__ import annotations

import io

import pytest
import resvg_py
from lxml import etree
from PIL import Image, ImageChops, ImageStat
from seekit import OUT, SAMPLES, views

from referee.game_api import registry
from referee.game_api.contract import Svg
from referee.pictures import board as pictures
from referee.pictures import font_faces, glyphs

BOARDS = {"demo-founding_fathers": (1, 30, 84), "demo-perricumer_ratsspiel": (1, 8),
          "demo-nations_dice": (3, 25), "demo-revolution_1848": (5, 75)}
SVG = "{http://www.w3.org/2000/svg}"


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def text_boxes(svg: str):
    """(text, box) of every <text>: where its glyphs are (advance from the face resvg uses)."""
    for el in etree.fromstring(svg.encode()).iter(f"{SVG}text"):
        if not el.text:
            continue
        face = font_faces.find(Svg.FONT, 700 if el.get("font-weight") == "bold" else 400)
        _d, advance, upem = glyphs._shaped(face.path, face.index, el.text)
        size = float(el.get("font-size"))
        width = advance * size / upem
        left = float(el.get("x")) - {"start": 0, "middle": 0.5, "end": 1}[el.get("text-anchor", "start")] * width
        y = float(el.get("y"))
        yield el.text, (int(left), int(y - 0.8 * size), int(left + width) + 1, int(y + 0.25 * size) + 1)


def ink(im: Image.Image) -> int:
    """Pixels darker than the board's paper."""
    return sum(im.convert("L").point(lambda v: 255 if v < 200 else 0).histogram()[255:])


def contrast(im: Image.Image) -> int:
    low, high = im.convert("L").getextrema()
    return high - low


def darkness(im: Image.Image) -> int:
    """How much ink: anti-aliasing spreads it differently, it does not add or take any."""
    return sum((255 - v) * n for v, n in enumerate(im.convert("L").histogram()))


def boards():
    for sample, numbers in BOARDS.items():
        rules = registry.get(sample.removeprefix("demo-"))
        for number, view in views(SAMPLES / sample, numbers).items():
            for lang in rules.languages:
                yield pytest.param(rules, view, lang, id=f"{rules.name}-t{number}-{lang}")


@pytest.mark.parametrize("rules, view, lang", list(boards()))
def test_a_board_looks_as_resvg_draws_its_text(rules, view, lang):
    svg = pictures.svg_of(rules, view, lang)
    outlined = glyphs.outline(svg)
    assert outlined is not None and outlined.shapes_only, "every text of a board is drawn as outlines"
    assert "<text" not in outlined.svg
    today, now = image(resvg_py.svg_to_bytes(svg_string=svg)), image(pictures.png_of(svg))
    OUT.mkdir(parents=True, exist_ok=True)
    now.save(OUT / f"pixels-{rules.name}-{lang}.png")
    assert now.size == today.size
    diff = ImageChops.difference(today, now)
    assert max(ImageStat.Stat(diff).mean) < 1.0                    # of 255: anti-aliasing only
    far = diff.convert("L").point(lambda v: 255 if v > 64 else 0).histogram()[255]
    assert far <= today.width * today.height // 2000              # no shape or letter moved
    assert abs(ink(now) - ink(today)) <= ink(today) // 30
    boxes = list(text_boxes(svg))
    assert len(boxes) > 30
    for text, box in boxes:
        was, got = today.crop(box), now.crop(box)
        assert contrast(was) > 40 and contrast(got) > 40, text    # the box is where resvg drew it
        assert max(ImageStat.Stat(ImageChops.difference(was, got)).mean) < 6.0, text
        assert darkness(got) == pytest.approx(darkness(was), rel=0.12, abs=510), text   # as bold, as large


def test_text_left_to_resvg_looks_as_before():
    """A board with a name the face cannot draw (CJK) keeps that text for resvg; the rest
    is outlines, and the picture matches resvg's."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="80" viewBox="0 0 300 80" '
           'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"><rect width="300" height="80" fill="#fbf8f0"/>'
           '<text x="10" y="30" font-size="16" fill="#222" text-anchor="start" font-weight="bold">Größe „ja“</text>'
           '<text x="10" y="60" font-size="16" fill="#222" text-anchor="start">漢字 ada</text></svg>')
    outlined = glyphs.outline(svg)
    assert outlined.svg.count("<text") == 1 and not outlined.shapes_only
    today, now = image(resvg_py.svg_to_bytes(svg_string=svg)), image(pictures.png_of(svg))
    assert max(ImageStat.Stat(ImageChops.difference(today, now)).mean) < 0.5
    assert ink(now) == pytest.approx(ink(today), rel=0.02)
