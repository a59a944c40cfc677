"""Board pictures carry player names: what libvips (librsvg) makes of hostile or odd
SVG.  Markup in a name is drawn as its letters; entities, DTDs, deep nesting, a huge
canvas or a file named in the document neither break the picture nor reach the file
system or the network, and each is answered within seconds."""
from __future__ import annotations

import base64
import io
import time

import pytest
from PIL import Image, ImageChops

from referee.game_api.contract import Svg
from referee.pictures import board as pictures
from referee.pictures import raster

HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" viewBox="0 0 200 60" '
        f'font-family="{Svg.FONT}"><rect width="200" height="60" fill="#fbf8f0"/>')
PLAIN = '<text x="10" y="30" font-size="13" fill="#222" text-anchor="start">ada</text>'
PNG = b"\x89PNG\r\n\x1a\n"


def doc(*parts: str) -> str:
    return HEAD + "".join(parts) + "</svg>"


def board_with(name: str) -> str:
    svg = Svg(200, 60)
    svg.text(10, 30, name, 13, bold=True)
    return svg.document(title=name)


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("name", ["<tspan x='0'>evil</tspan>", "&amp;lt;script&gt;", "]]><!ENTITY x 'y'>",
                                  '" onload="alert(1)', "Jörg „der Große“ O'Neil & Söhne", "漢字 שלום ada"])
def test_markup_in_a_name_is_drawn_as_its_letters(name):
    png = pictures.png_of(board_with(name))
    assert png[:8] == PNG
    assert ImageChops.difference(pixels(png), pixels(pictures.png_of(board_with("")))).getbbox() is not None


def test_deep_nesting_is_answered_quickly():
    deep = HEAD + "<g>" * 5000 + PLAIN + "</g>" * 5000 + "</svg>"
    t = time.process_time()
    png = pictures.png_of(deep)
    assert png is None or png[:8] == PNG
    assert time.process_time() - t < 10


BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
                  + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
                  + ']>' + doc(PLAIN.replace(">ada<", ">&i;<")))
EXTERNAL = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            + doc(PLAIN.replace(">ada<", ">&x;<")))
NETWORK = ('<?xml version="1.0"?><!DOCTYPE svg SYSTEM "http://192.0.2.1/svg.dtd">' + doc(PLAIN))
STYLE_PI = '<?xml version="1.0"?><?xml-stylesheet href="http://192.0.2.1/big.css"?>' + doc(PLAIN)


@pytest.mark.parametrize("svg", [BILLION_LAUGHS, EXTERNAL, NETWORK, STYLE_PI],
                         ids=["billion-laughs", "file", "network", "style-sheet"])
def test_a_document_with_a_doctype_entities_or_a_style_sheet_costs_nothing(svg):
    t = time.perf_counter()
    png = pictures.png_of(svg)
    assert png is None or png[:8] == PNG
    assert time.perf_counter() - t < 5              # 192.0.2.1 never answers: nothing was asked of it


def test_an_image_on_this_machine_named_in_the_document_is_not_read(tmp_path):
    """librsvg reads no file for a document given as bytes (it has no folder to be under)."""
    red = tmp_path / "red.png"
    out = io.BytesIO()
    Image.new("RGB", (50, 50), "red").save(out, "PNG")
    red.write_bytes(out.getvalue())
    inline = "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()
    for href, shown in ((inline, True), (f"file://{red}", False), (str(red), False)):
        png = pictures.png_of(doc(f'<image href="{href}" x="0" y="0" width="200" height="60"/>'))
        assert png is not None
        assert any(rgb == (255, 0, 0) for _n, rgb in pixels(png).getcolors(1 << 16)) is shown, href


@pytest.mark.parametrize("size", ['width="100000" height="60"', 'width="10" height="100000"',
                                  'width="0" height="60"'])
def test_a_huge_or_empty_canvas_gives_no_picture(size):
    svg = doc(PLAIN).replace('width="200" height="60"', size, 1)
    t = time.perf_counter()
    assert raster.png(svg) is None
    assert time.perf_counter() - t < 5


def test_a_narrow_board_is_not_blown_up():
    png = raster.png(doc(PLAIN))
    assert pixels(png).size == (200, 60)
