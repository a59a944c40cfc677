"""Plain-shape pictures rasterized and PNG-encoded with libvips (``pyvips`` and the
self-contained ``pyvips-binary`` wheel; its SVG loader is librsvg).

Once a board's text is outlines (``referee/pictures/glyphs.py``) most of resvg's time is its
PNG encoder, which cannot be tuned through ``resvg-py``: the same document here costs
about a quarter of resvg's CPU (``bench/pictures_render.py``), for pixels that differ
only in anti-aliasing (``tests/pictures/test_picture_pixels.py``).  Only documents that
``glyphs.outline`` found to hold nothing but plain shapes come here; anything else, or
a machine without the wheel, is rendered by resvg as before.
"""
from __future__ import annotations

import functools
import logging
import os

log = logging.getLogger("referee.pictures.board")

COMPRESSION = 3     # zlib level: 1-3 cost the same CPU here, 3 is ~35% smaller
NO_FILTER = 0x08    # libvips' PNG filter flags: "none" was both faster and smaller on boards
MAX_SIDE = 4096     # a picture larger than this is a game's bug, not a board


@functools.lru_cache(maxsize=1)
def _vips():
    # one thread per picture (the close and the pool share the cores): libvips reads this when it
    # starts, which is all a pyvips built against a libvips older than 8.17 can be told
    os.environ.setdefault("VIPS_CONCURRENCY", "1")
    try:
        import pyvips
    except (ImportError, OSError):      # no wheel for this machine: resvg renders everything
        return None
    if not pyvips.type_find("VipsOperation", "svgload_buffer"):   # a libvips built without librsvg
        return None
    pyvips.cache_set_max(0)             # every picture is new: keep no operations in memory
    try:
        pyvips.concurrency_set(1)       # the same, where the binding has it (libvips 8.17 and later)
    except AttributeError:
        pass
    return pyvips


def ready() -> bool:
    """Load libvips now (a worker's warm-up); False if this machine has no wheel for it."""
    return _vips() is not None


def png(svg: str) -> bytes | None:
    """PNG of a plain-shape SVG, or None (no libvips, or it refused the document)."""
    vips = _vips()
    if vips is None:
        return None
    try:
        image = vips.Image.svgload_buffer(svg.encode())
        if not (0 < image.width <= MAX_SIDE and 0 < image.height <= MAX_SIDE):
            return None
        return bytes(image.pngsave_buffer(compression=COMPRESSION, filter=NO_FILTER))
    except vips.Error:
        log.warning("libvips could not render a picture; resvg renders it", exc_info=True)
        return None
