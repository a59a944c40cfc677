"""Board pictures carry player names: what ``glyphs.outline`` does with hostile or odd
SVG.  Text it does not fully understand stays <text> for resvg (never drawn worse
than before); markup, entities, deep nesting and huge strings neither break it nor
reach the file system or the network."""
from __future__ import annotations

import time

import pytest
import resvg_py
from lxml import etree

from referee.game_api.contract import Svg
from referee.pictures import board as pictures
from referee.pictures import font_faces, glyphs, raster

HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" viewBox="0 0 200 60" '
        f'font-family="{Svg.FONT}"><rect width="200" height="60" fill="#fbf8f0"/>')
PLAIN = '<text x="10" y="30" font-size="13" fill="#222" text-anchor="start">ada</text>'


def doc(*parts: str) -> str:
    return HEAD + "".join(parts) + "</svg>"


def board_with(name: str) -> str:
    svg = Svg(200, 60)
    svg.text(10, 30, name, 13, bold=True)
    return svg.document(title=name)


def texts_left(svg: str) -> int:
    return sum(1 for _ in etree.fromstring(svg.encode()).iter("{http://www.w3.org/2000/svg}text"))


@pytest.mark.parametrize("name", ["<tspan x='0'>evil</tspan>", "&amp;lt;script&gt;", "]]><!ENTITY x 'y'>",
                                  '" onload="alert(1)', "Jörg „der Große“ O'Neil & Söhne"])
def test_markup_in_a_name_is_drawn_as_its_letters(name):
    svg = board_with(name)
    out = glyphs.outline(svg)
    assert out is not None and out.shapes_only and texts_left(out.svg) == 0
    paths = list(etree.fromstring(out.svg.encode()).iter("{http://www.w3.org/2000/svg}path"))
    assert len(paths) == 1 and paths[0].get("d").count("M") >= len(name.replace(" ", "")) // 2
    face = font_faces.find(Svg.FONT, 700)
    assert paths[0].get("d") == glyphs._shaped(face.path, face.index, name)[0]   # the name's own glyphs
    assert pictures.png_of(svg)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_huge_name_is_left_to_resvg_and_not_kept():
    before = glyphs._shaped.cache_info().currsize
    svg = doc(PLAIN.replace(">ada<", ">" + "W" * 5000 + "<"))
    assert glyphs.outline(svg) is None
    assert glyphs._shaped.cache_info().currsize == before


def test_the_shaped_strings_kept_are_bounded():
    for i in range(glyphs.KEEP_STRINGS + 50):
        glyphs.outline(doc(PLAIN.replace(">ada<", f">player {i}<")))
    assert glyphs._shaped.cache_info().currsize <= glyphs.KEEP_STRINGS


def test_deep_nesting_is_refused_quickly_and_costs_no_picture_error():
    deep = HEAD + "<g>" * 5000 + PLAIN + "</g>" * 5000 + "</svg>"
    t = time.process_time()
    assert glyphs.outline(deep) is None          # the parser's depth limit: resvg gets it as it was
    pictures.png_of(deep)                        # whatever resvg makes of it, no exception
    assert time.process_time() - t < 10


def test_text_in_a_few_plain_groups_is_turned():
    svg = HEAD + '<g fill="#333">' * 20 + PLAIN.replace(' fill="#222"', "") + "</g>" * 20 + "</svg>"
    out = glyphs.outline(svg)
    assert out is not None and texts_left(out.svg) == 0


BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
                  + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
                  + ']>' + doc(PLAIN.replace(">ada<", ">&i;<")))
EXTERNAL = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            + doc(PLAIN.replace(">ada<", ">&x;<")))
NETWORK = ('<?xml version="1.0"?><!DOCTYPE svg SYSTEM "http://192.0.2.1/svg.dtd">' + doc(PLAIN))


@pytest.mark.parametrize("svg", [BILLION_LAUGHS, EXTERNAL, NETWORK], ids=["billion-laughs", "file", "network"])
def test_a_document_with_a_doctype_or_entities_is_not_touched(svg):
    t = time.perf_counter()
    assert glyphs.outline(svg) is None
    assert time.perf_counter() - t < 2
    png = pictures.png_of(svg)                   # resvg, as before this module
    assert png is None or png[:8] == b"\x89PNG\r\n\x1a\n"
    assert time.perf_counter() - t < 10


@pytest.mark.parametrize("text", [
    '<text x="10" y="30" font-size="13"><tspan>ada</tspan></text>',                 # children
    '<text x="10" y="30" font-size="13" letter-spacing="2">ada</text>',              # spacing
    '<text x="10" y="30" font-size="13" transform="rotate(10)">ada</text>',          # transform on text
    '<text x="10" y="30" font-size="13" style="font-size:30px">ada</text>',          # CSS
    '<text x="10" y="30" font-size="13" class="big">ada</text>',
    '<text x="10 20 30" y="30" font-size="13">ada</text>',                           # per-glyph x
    '<text x="10" y="30" font-size="13px">ada</text>',                               # a unit
    '<text x="1e400" y="30" font-size="13">ada</text>',                              # not a finite place
    '<text x="10" y="30" font-size="13" font-weight="600">ada</text>',
    '<text x="10" y="30" font-size="13" text-anchor="inherit">ada</text>',
    '<text x="10" y="30" font-size="13" fill="url(#g)">ada</text>',                  # a paint server
    '<text x="10" y="30" font-size="13" font-family="No Such Font, serif">ada</text>',  # generic fallback
    '<text x="10" y="30" font-size="13" font-family="DejaVu Sans Condensed">ada</text>',
    '<text x="10" y="30" font-size="13">漢字</text>',                                 # glyphs the face lacks
    '<text x="10" y="30" font-size="13">שלום ada</text>',                             # right to left
    '<text x="10" y="30" font-size="13"> ada</text>',                                # whitespace resvg collapses
    '<text x="10" y="30" font-size="13">a  da</text>',
    '<text x="10" y="30" font-size="13">a\tda</text>',
    '<text x="10" y="30" font-size="13">a\u200bda</text>',                            # invisible format char
    '<text x="10" y="30" font-size="13" xml:space="preserve">ada</text>',
    '<a href="#x"><text x="10" y="30" font-size="13">ada</text></a>',               # not a plain group
    '<g font-size="20"><text x="10" y="30">ada</text></g>',                         # inherited size
    '<g stroke="#000"><text x="10" y="30" font-size="13">ada</text></g>',           # a stroke would scale
])
def test_text_not_fully_understood_stays_text(text):
    out = glyphs.outline(doc(text))
    assert out is None or texts_left(out.svg) == 1


def test_a_style_sheet_leaves_the_whole_document_to_resvg():
    assert glyphs.outline(doc("<style>text { font-size: 40px }</style>", PLAIN)) is None


@pytest.mark.parametrize("extra", ['<image href="data:image/png;base64,AAAA" width="5" height="5"/>',
                                   '<defs><linearGradient id="g"/></defs><rect width="5" height="5" fill="url(#g)"/>',
                                   '<use href="#r"/>', '<rect width="5" height="5" filter="url(#f)"/>'])
def test_anything_but_plain_shapes_is_rendered_by_resvg(extra):
    out = glyphs.outline(doc(extra, PLAIN))
    assert out is not None and not out.shapes_only


def test_libvips_refuses_a_huge_canvas():
    huge = doc(PLAIN).replace('width="200" height="60" viewBox="0 0 200 60"',
                              'width="100000" height="60" viewBox="0 0 200 60"')
    assert raster.png(huge) is None


def test_bold_and_regular_are_the_faces_resvg_picks():
    regular, bold = font_faces.find(Svg.FONT, 400), font_faces.find(Svg.FONT, 700)
    assert regular.path.endswith("DejaVuSans.ttf") and bold.path.endswith("DejaVuSans-Bold.ttf")
    assert font_faces.find("sans-serif", 400) is None
    assert font_faces.find("No Such Font", 400) is None


def test_a_style_sheet_instruction_leaves_the_whole_document_to_resvg():
    svg = '<?xml version="1.0"?><?xml-stylesheet href="big.css"?>' + doc(PLAIN)
    assert glyphs.outline(svg) is None
    assert glyphs.outline('<?xml version="1.0"?><!-- a board -->' + doc(PLAIN)) is not None


def test_without_libvips_resvg_renders_the_outlines(monkeypatch):
    monkeypatch.setattr(raster, "_vips", lambda: None)     # a machine without the pyvips-binary wheel
    svg = board_with("ada")
    assert pictures.png_of(svg) == bytes(resvg_py.svg_to_bytes(svg_string=glyphs.outline(svg).svg))
