"""A board picture's text drawn as glyph outlines before resvg renders it.

resvg reads the font file, shapes and outlines every ``<text>`` anew (it keeps no
font database between calls): ~0.4 ms per text, over half of a picture's PNG.
Here each distinct (face, string) is shaped once per process with HarfBuzz (the
engine resvg's own shaper is a port of, so the same glyphs, advances and kerning)
and its outlines kept; a ``<text>`` becomes a ``<path>`` of those outlines placed
where resvg would have put the glyphs.

Only text fully understood here is turned: plain strings in an upright face the
system has (found as resvg finds it, ``referee/pictures/font_faces.py``), left-to-right,
every glyph in that face, with nothing but position, size, weight, colour and
anchor set.  Everything else (tspans, spacing, styles, transforms on text, a
glyph or family the face lacks, bidi, odd whitespace) stays ``<text>`` for resvg,
so a picture is never drawn worse than before.  Player names are in these
pictures: the SVG is parsed without entities, DTDs or network.
"""
from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass

import uharfbuzz as hb
from lxml import etree

from referee.game_api.contract_svg import Svg
from referee.pictures import font_faces

SVG_NS = "http://www.w3.org/2000/svg"
TEXT, PATH = f"{{{SVG_NS}}}text", f"{{{SVG_NS}}}path"
CONTAINERS = {f"{{{SVG_NS}}}svg", f"{{{SVG_NS}}}g"}
TEXT_ATTRS = {"x", "y", "font-size", "fill", "text-anchor", "font-weight", "font-family"}
# what a <svg> or <g> holding a turned text may say: nothing that changes how text
# is laid out, nor a stroke (it would be scaled with the outlines)
HOLDER_ATTRS = {"width", "height", "viewBox", "version", "preserveAspectRatio", "font-family", "fill",
                "opacity", "transform", "id"}
WEIGHTS = {None: 400, "normal": 400, "400": 400, "bold": 700, "700": 700}
ANCHORS = {None: 0.0, "start": 0.0, "middle": 0.5, "end": 1.0}
LEFT_TO_RIGHT = {"L", "EN", "ES", "ET", "CS", "ON"}   # and the plain space, checked apart
NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
MAX_CHARS = 200          # longer strings are left to resvg (and not kept here)
KEEP_STRINGS = 4096      # shaped strings kept per process
KEEP_GLYPHS = 8192       # glyph outlines kept per process

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                          huge_tree=False)


SHAPES = {f"{{{SVG_NS}}}{name}" for name in
          ("svg", "g", "title", "desc", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path")}


@dataclass(frozen=True)
class Outlined:
    svg: str            # the document with the turned texts as paths
    shapes_only: bool   # nothing left but plain shapes (no text, image, style, gradient, filter, use)


def outline(svg: str) -> Outlined | None:
    """``svg`` with every text this module understands drawn as outlines, or None if
    it turned none (or cannot read the document: resvg then gets it as it was)."""
    try:
        root = etree.fromstring(svg.encode(), _PARSER)
    except (etree.XMLSyntaxError, ValueError):
        return None
    tree = root.getroottree()
    if root.tag != f"{{{SVG_NS}}}svg" or tree.docinfo.doctype or _has(root, etree.Entity) \
            or _has(root, f"{{{SVG_NS}}}style") or _has(root, etree.ProcessingInstruction) \
            or any(not isinstance(n, etree._Comment) for n in root.itersiblings(preceding=True)):
        return None
    turned = 0
    for text in list(root.iter(TEXT)):
        if not len(text) and not text.text:     # an empty text draws nothing
            _drop(text)
            turned += 1
            continue
        path = _path_for(text)
        if path is not None:
            path.tail = text.tail
            text.getparent().replace(text, path)
            turned += 1
    if not turned:
        return None
    shapes_only = all(el.tag in SHAPES for el in root.iter()) and not any(
        "url(" in value or name.startswith("{") for el in root.iter() for name, value in el.attrib.items())
    return Outlined(etree.tostring(root, encoding="unicode"), shapes_only)


def prime() -> None:
    """Read the system's faces and open the board font now (a worker's warm-up)."""
    face = font_faces.find(Svg.FONT, 400)   # what the games' pictures ask for
    if face is not None:
        _font(face.path, face.index)


def _has(root, tag) -> bool:
    return next(root.iter(tag), None) is not None   # (an element without children is falsy)


def _drop(el) -> None:
    parent, tail = el.getparent(), el.tail
    if tail:
        before = el.getprevious()
        if before is None:
            parent.text = (parent.text or "") + tail
        else:
            before.tail = (before.tail or "") + tail
    parent.remove(el)


def _path_for(text) -> etree._Element | None:
    """The outlines of one <text>, or None to leave it to resvg."""
    if len(text) or not set(text.attrib) <= TEXT_ATTRS or not _plain(text.text):
        return None
    family = text.get("font-family")
    for holder in text.iterancestors():
        if holder.tag not in CONTAINERS or not set(holder.attrib) <= HOLDER_ATTRS or "url(" in holder.get("fill", ""):
            return None
        family = family or holder.get("font-family")
    x, y, size = (text.get(name) or "" for name in ("x", "y", "font-size"))
    weight, anchor = WEIGHTS.get(text.get("font-weight"), 0), ANCHORS.get(text.get("text-anchor"), -1.0)
    fill = text.get("fill")
    if not (NUMBER.fullmatch(x) and NUMBER.fullmatch(y) and NUMBER.fullmatch(size)) or not weight \
            or anchor < 0 or not family or (fill is not None and "url(" in fill):
        return None
    size_px, left, top = float(size), float(x), float(y)
    if not 0 < size_px <= 1000 or not (math.isfinite(left) and math.isfinite(top)):
        return None
    face = font_faces.find(family, weight)
    shaped = None if face is None else _shaped(face.path, face.index, text.text)
    if shaped is None:
        return None
    d, advance, upem = shaped
    scale = size_px / upem
    left -= anchor * advance * scale
    attrs = {"d": d, "transform": f"matrix({scale:.9g} 0 0 {-scale:.9g} {left:.7g} {top:.7g})"}
    if fill is not None:
        attrs["fill"] = fill
    return etree.Element(PATH, attrs)


def _plain(s: str | None) -> bool:
    """A one-line left-to-right string whose whitespace resvg would not collapse."""
    if not s or len(s) > MAX_CHARS or s[0] == " " or s[-1] == " " or "  " in s:
        return False
    return all(c == " " or (unicodedata.bidirectional(c) in LEFT_TO_RIGHT
                            and unicodedata.category(c)[0] in "LNPS") for c in s)


@functools.lru_cache(maxsize=8)
def _font(path: str, index: int) -> hb.Font:
    return hb.Font(hb.Face(hb.Blob.from_file_path(path), index))   # scale = units per em


@functools.lru_cache(maxsize=KEEP_STRINGS)
def _shaped(path: str, index: int, s: str) -> tuple[str, int, int] | None:
    """(path data in font units, advance in font units, units per em) of ``s`` set
    in one face; None if the face lacks a glyph of it."""
    font = _font(path, index)
    buf = hb.Buffer()
    buf.add_str(s)
    buf.guess_segment_properties()
    buf.language = "und"    # not the process locale's (DejaVu has Catalan, Romanian... forms): resvg sets none
    if buf.direction != "ltr":
        return None
    hb.shape(font, buf)
    parts, pen = [], 0
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        if info.codepoint == 0:
            return None
        start, rest = _outline(path, index, info.codepoint)
        if start is not None:
            parts.append(f"M{start[0] + pen + pos.x_offset:g} {start[1] + pos.y_offset:g}{rest}")
        pen += pos.x_advance
    return "".join(parts) or "M0 0", pen, font.face.upem


class _Pen:
    """Collects one glyph's outline as relative path commands after an absolute
    start, so a glyph is placed by changing its first move only."""

    def __init__(self) -> None:
        self.start: tuple[float, float] | None = None
        self.at = self.contour = (0.0, 0.0)
        self.out: list[str] = []

    def _rel(self, *pts: float) -> str:
        ax, ay = self.at
        return " ".join(f"{pts[i] - ax:g} {pts[i + 1] - ay:g}" for i in range(0, len(pts), 2))

    def move_to(self, x, y, _state) -> None:
        if self.start is None:
            self.start = (x, y)
        else:
            cx, cy = self.at        # (after z, close_path has set it to the contour's start)
            self.out.append(f"m{x - cx:g} {y - cy:g}")
        self.at = self.contour = (x, y)

    def line_to(self, x, y, _state) -> None:
        self.out.append("l" + self._rel(x, y))
        self.at = (x, y)

    def quadratic_to(self, cx, cy, x, y, _state) -> None:
        self.out.append("q" + self._rel(cx, cy, x, y))
        self.at = (x, y)

    def cubic_to(self, c1x, c1y, c2x, c2y, x, y, _state) -> None:
        self.out.append("c" + self._rel(c1x, c1y, c2x, c2y, x, y))
        self.at = (x, y)

    def close_path(self, _state) -> None:
        self.out.append("z")
        self.at = self.contour


@functools.lru_cache(maxsize=KEEP_GLYPHS)
def _outline(path: str, index: int, gid: int) -> tuple[tuple[float, float] | None, str]:
    pen = _Pen()
    funcs = hb.DrawFuncs()
    funcs.set_move_to_func(pen.move_to)
    funcs.set_line_to_func(pen.line_to)
    funcs.set_quadratic_to_func(pen.quadratic_to)
    funcs.set_cubic_to_func(pen.cubic_to)
    funcs.set_close_path_func(pen.close_path)
    _font(path, index).draw_glyph(gid, funcs)
    return pen.start, "".join(pen.out)
