"""Every game's board as libvips draws it for a mail (palette PNG, 720 pixels wide)
shows what the SVG says: compared pixel by pixel with libvips' full-colour drawing
of the same SVG at the same size (the palette loses no shape or letter), every
<text> inked where the SVG places it, in real glyphs of the system's font (not
the empty boxes of a missing font), in both languages."""
from __future__ import annotations

import io

import pytest
import pyvips
from lxml import etree
from PIL import Image, ImageChops, ImageStat
from seekit import OUT, SAMPLES, views

from referee.game_api import registry
from referee.game_api.contract import Svg
from referee.pictures import board as pictures
from referee.pictures import raster

BOARDS = {"demo-founding_fathers": (1, 30, 84), "demo-perricumer_ratsspiel": (1, 8),
          "demo-nations_dice": (3, 25), "demo-revolution_1848": (5, 75)}
SVG = "{http://www.w3.org/2000/svg}"


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def full_colour(svg: str, scale: float) -> Image.Image:
    """The same drawing without the palette: libvips' RGBA, as the referee drew it before issue 38."""
    return image(pyvips.Image.svgload_buffer(svg.encode(), scale=scale).pngsave_buffer())


def without_texts(svg: str) -> str:
    root = etree.fromstring(svg.encode())
    for el in list(root.iter(f"{SVG}text")):
        el.getparent().remove(el)
    return etree.tostring(root, encoding="unicode")


def first_glyph_box(el, scale: float) -> tuple[int, int, int, int]:
    """Where the first (or, anchored at the end, last) glyph of a <text> lies, in picture pixels."""
    size, x, y = float(el.get("font-size")), float(el.get("x")), float(el.get("y"))
    left = {"start": x, "middle": x - size / 2, "end": x - size}[el.get("text-anchor", "start")]
    return (int(left * scale), int((y - 0.8 * size) * scale), int((left + size) * scale) + 1,
            int((y + 0.25 * size) * scale) + 1)


def boards():
    for sample, numbers in BOARDS.items():
        rules = registry.get(sample.removeprefix("demo-"))
        for number, view in views(SAMPLES / sample, numbers).items():
            for lang in rules.languages:
                yield pytest.param(rules, view, lang, id=f"{rules.name}-t{number}-{lang}")


@pytest.mark.parametrize("rules, view, lang", list(boards()))
def test_a_board_for_a_phone_shows_every_shape_and_text_of_its_svg(rules, view, lang):
    svg = pictures.svg_of(rules, view, lang)
    width = float(etree.fromstring(svg.encode()).get("width"))
    scale = raster.WIDTH / width
    now = image(pictures.png_of(svg))
    OUT.mkdir(parents=True, exist_ok=True)
    now.save(OUT / f"pixels-{rules.name}-{lang}.png")
    whole = full_colour(svg, scale)
    assert now.size == whole.size and now.width == raster.WIDTH
    diff = ImageChops.difference(whole, now)
    assert max(ImageStat.Stat(diff).mean) < 1.5                     # of 255: the palette's rounding only
    far = diff.convert("L").point(lambda v: 255 if v > 64 else 0).histogram()[255]
    assert far <= now.width * now.height // 2000                    # no shape or letter lost
    bare = image(raster.png(without_texts(svg)))
    texts = [el for el in etree.fromstring(svg.encode()).iter(f"{SVG}text") if (el.text or "").strip()]
    assert len(texts) > 30
    for el in texts:
        box = first_glyph_box(el, scale)
        drawn = ImageChops.difference(now.crop(box), bare.crop(box))
        assert max(ImageStat.Stat(drawn).extrema[i][1] for i in range(3)) > 40, el.text   # inked where placed


def test_text_is_drawn_in_real_glyphs_of_the_systems_font():
    """A machine without the font would draw every letter as the same empty box: narrow
    and wide letters would leave the same ink."""
    def ink(s: str) -> int:
        board = Svg(200, 40)
        board.text(10, 30, s, 24)
        grey = image(raster.png(board.document())).convert("L")
        return sum(grey.point(lambda v: 255 if v < 128 else 0).histogram()[255:])
    narrow, wide = ink("ilil"), ink("WMWM")
    assert narrow > 20 and wide > 2 * narrow
