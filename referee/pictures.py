"""A game's board picture: asked of the game (its optional ``picture`` hook),
turned from SVG into PNG here, because several mail clients show no inline SVG.

The renderer is resvg (the ``resvg-py`` wheel): one self-contained binary
wheel with no system library behind it (CairoSVG needs the system's libcairo
through cairocffi, which a fresh machine may lack), drawing SVG as specified.
On these pictures the two are about as fast (``bench/pictures_render.py``:
CairoSVG took 0.64 to 1.03 of resvg's time over runs on a busy machine); a
picture is rendered once per close and language, so the install that cannot
break weighs more.
"""
from __future__ import annotations

import functools
import logging

import resvg_py

log = logging.getLogger("referee.pictures")

MAX_SVG_CHARS = 2_000_000   # a picture larger than this is a game's bug, not a board


def svg_of(rules, view: dict, lang: str) -> str | None:
    """The game's SVG for one view, or None if it draws none.  A picture is an
    extra: a game whose hook fails still gets its reports (the fault is logged)."""
    hook = getattr(rules, "picture", None)
    if hook is None:
        return None
    try:
        svg = hook(view, lang)
    except Exception:
        log.exception("%s: drawing the picture failed", getattr(rules, "name", "?"))
        return None
    if not isinstance(svg, str) or not svg.strip() or len(svg) > MAX_SVG_CHARS:
        return None
    return svg


def png_of(svg: str) -> bytes | None:
    """PNG bytes of an SVG document (None if resvg cannot read it)."""
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg))
    except ValueError:
        log.exception("rendering a picture failed")
        return None


def picture_png(rules, view: dict, lang: str) -> bytes | None:
    svg = svg_of(rules, view, lang)
    return None if svg is None else png_of(svg)


@functools.lru_cache(maxsize=8)
def cached_png(svg: str) -> bytes | None:
    """``png_of`` remembered: every report of a close carries the same public
    picture, so the outbox renders it once, not once per recipient."""
    return png_of(svg)
