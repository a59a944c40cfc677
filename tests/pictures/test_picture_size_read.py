"""Issue 38: a picture's drawing size is read from its root tag where that is plain, so
librsvg reads the document once, not twice.  The PNG is the very bytes librsvg's own
header would have given (a document that starts with an XML declaration takes that path)."""
from __future__ import annotations

import pytest
from seekit import FF, RS, views

from referee.game_api import registry
from referee.game_api.contract import Svg
from referee.pictures import raster

DECLARED = '<?xml version="1.0" encoding="UTF-8"?>\n'   # not read here: librsvg's header sizes it


def boards():
    for sample, numbers in ((FF, (1, 30)), (RS, (1, 8))):
        rules = registry.get(sample.name.removeprefix("demo-"))
        for number, view in views(sample, numbers).items():
            for lang in rules.languages:
                yield f"{rules.name}-{number}-{lang}", rules.picture(view, lang)


def odd(width: int, height: int) -> str:
    svg = Svg(width, height)
    svg.rect(0, 0, width / 2, height / 3, "#4c9a52")
    svg.text(4, 14, "Zufriedenheit", 12, bold=True)
    return svg.document(title="odd")


@pytest.mark.parametrize("name, svg", list(boards()) + [(f"{w}x{h}", odd(w, h)) for w, h in
                                                         ((961, 783), (200, 60), (721, 3), (4096, 40))])
def test_a_board_sized_from_its_root_tag_is_the_png_librsvgs_header_gives(name, svg):
    assert raster.size_of(svg) is not None and raster.size_of(DECLARED + svg) is None
    png = raster.png(svg)
    assert png is not None and png == raster.png(DECLARED + svg), name


@pytest.mark.parametrize("root", ['width="10cm" height="60"', 'width="100%" height="60"', 'width="200.5" height="60"',
                                  'height="60"', 'width="200" height="60" style="width:90px"', 'viewBox="0 0 200 60"'])
def test_a_size_in_units_percent_or_css_is_left_to_librsvg(root):
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" {root}><rect width="20" height="20"/></svg>'
    assert raster.size_of(svg) is None


def test_a_style_sheet_in_the_document_leaves_the_size_to_librsvg():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="20" height="20"/></svg>'
    assert raster.size_of(svg) == (200, 60)
    assert raster.size_of(svg.replace("<rect", "<style>svg{width:90px}</style><rect")) is None


def test_a_size_the_root_tag_gets_wrong_is_drawn_at_librsvgs_size():
    # a nested tag cannot lend the root its size; an odd root tag goes to the header
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 300"><svg width="100" height="20"/>'
           '<rect width="900" height="300" fill="#fff"/></svg>')
    assert raster.size_of(svg) is None
    assert raster.png(svg) == raster.png(DECLARED + svg)
