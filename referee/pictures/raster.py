"""A board's SVG drawn to PNG by libvips (``pyvips`` and the self-contained
``pyvips-binary`` wheel), through its public API only: ``svgload_buffer`` (librsvg,
text shaped by Pango with the system's fonts found by fontconfig) and
``pngsave_buffer``.

The PNG is made for a mail read on a phone (issue 38): at most ``WIDTH`` pixels
wide and quantised to a palette of at most 256 colours (boards are flat colours
and anti-aliased text, which a palette keeps); a board is 14-33 kB instead of
55-115 kB of full colour at 960 pixels, for ~10 ms more CPU (the quantisation), once
per distinct picture, not per mail (``bench/pictures_png.py``).
"""
from __future__ import annotations

import functools
import logging
import os
import re

from referee.game_api.contract_svg import Svg

log = logging.getLogger("referee.pictures.board")

WIDTH = 720         # pixels: a phone's screen at twice its CSS width; a wider board is scaled down to it
MAX_SIDE = 4096     # a picture larger than this (as drawn or as scaled) is a game's bug, not a board
PALETTE_Q = 90      # quantisation quality (0-100): 100 is ~20% larger, no visible gain on boards
EFFORT = 3          # quantisation CPU effort (1-10): 3 is ~30% faster than the default 7 for the same size
COMPRESSION = 6     # zlib level: 9 is 4% smaller for 20% more CPU, 1 is 45% larger


@functools.lru_cache(maxsize=1)
def _vips():
    # one thread per picture (the close and the picture workers share the cores): libvips reads this when
    # it starts, which is all a pyvips built against a libvips older than 8.17 can be told
    os.environ.setdefault("VIPS_CONCURRENCY", "1")
    try:
        import pyvips
    except (ImportError, OSError):      # no libvips for this machine: reports go out without pictures
        log.exception("libvips cannot be loaded: reports are sent without their pictures")
        return None
    if not pyvips.type_find("VipsOperation", "svgload_buffer"):   # a libvips built without librsvg
        log.error("this libvips has no SVG loader: reports are sent without their pictures")
        return None
    pyvips.cache_set_max(0)             # every picture is new: keep no operations in memory
    try:
        pyvips.concurrency_set(1)       # the same, where the binding has it (libvips 8.17 and later)
    except AttributeError:
        pass
    return pyvips


def ready() -> bool:
    """Load libvips and read the system's fonts now (a worker's warm-up, ~50 ms: fontconfig's
    first look at the fonts), not for the first picture; False if this machine has no libvips."""
    if _vips() is None:
        return False
    probe = Svg(40, 20)
    probe.text(2, 15, "Ag", 12, bold=True)
    return png(probe.document()) is not None


def png(svg: str) -> bytes | None:
    """Palette PNG of an SVG document, at most ``WIDTH`` pixels wide; None if libvips is
    missing or refused the document (the report then goes without its picture)."""
    vips = _vips()
    if vips is None:
        return None
    try:
        data = svg.encode()
        drawn = _loaded(vips, svg, data)
        if drawn is None:
            return None
        if drawn.hasalpha():   # on white: a board's edge row half covered would show the client's background
            drawn = drawn.flatten(background=[255, 255, 255])
        return bytes(drawn.pngsave_buffer(palette=True, Q=PALETTE_Q, effort=EFFORT, dither=0.0,
                                          compression=COMPRESSION))
    except vips.Error:
        log.warning("libvips could not render a picture; the report goes without it", exc_info=True)
        return None


def _loaded(vips, svg: str, data: bytes):
    """The document loaded at the size it is drawn at (nothing drawn yet), or None if it is
    too large or empty.  The scale follows from the document's size: read from its root tag
    where that is plain (``size_of``), saving librsvg's reading of the whole document once
    more (~1 ms of a picture's ~32, ``bench/pictures_png.py``); otherwise librsvg's header."""
    size = size_of(svg)
    if size is not None:
        if not _fits(*size):
            return None
        drawn, scale = _at_width(vips, data, size[0])
        # librsvg saw the size read here (else: read it as before, from librsvg's own header)
        if abs(drawn.width - size[0] * scale) < 1 and abs(drawn.height - size[1] * scale) < 1:
            return drawn if _fits(drawn.width, drawn.height) else None
    header = vips.Image.svgload_buffer(data)   # the header only: nothing is drawn yet
    if not _fits(header.width, header.height):
        return None
    drawn, _ = _at_width(vips, data, header.width, header)
    return drawn if _fits(drawn.width, drawn.height) else None


def _fits(width: int, height: int) -> bool:
    return 0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE


def _at_width(vips, data: bytes, width: int, loaded=None):
    """(the document loaded to be drawn at most ``WIDTH`` wide, its scale): a wider one is drawn
    at the smaller size (crisp text, not resampled); ``loaded``, if given, serves at scale 1."""
    scale = min(1.0, WIDTH / width)
    if scale < 1.0:
        return vips.Image.svgload_buffer(data, scale=scale), scale
    return (loaded if loaded is not None else vips.Image.svgload_buffer(data)), scale


# the root tag, at the document's start: what ``Svg.document`` writes (no XML declaration, no
# style sheet that could size the root); anything else goes to librsvg's header
_ROOT = re.compile(r'<svg\b([^<>]{0,2000})>')
_SIZE = re.compile(r'\s(width|height)="([0-9]{1,6})(?:px)?"')


def size_of(svg: str) -> tuple[int, int] | None:
    """(width, height) in whole pixels as the root tag gives them, or None where the document
    may size itself otherwise (units, percentages, a style sheet or style attribute)."""
    root = _ROOT.match(svg)
    if root is None or "style" in root.group(1) or "<style" in svg:
        return None
    found = dict(_SIZE.findall(root.group(1)))
    if len(found) != 2:
        return None
    return int(found["width"]), int(found["height"])
