"""The contract's drawing helpers for a game's ``picture`` hook (re-exported by
``referee.game_api.contract``, the one module games import): a small SVG built as a
string, pure, every text escaped."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class Svg:
    """A small SVG document built as a string, for a game's ``picture`` hook:
    pure (no I/O), every text escaped.  Coordinates are user units (pixels)."""

    FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"

    def __init__(self, width: int, height: int, background: str = "#fbf8f0") -> None:
        self.width, self.height = width, height
        self._parts: list[str] = [f'<rect width="{width}" height="{height}" fill="{background}"/>']

    @staticmethod
    def _attrs(attrs: Mapping[str, Any]) -> str:
        return "".join(f' {k.rstrip("_").replace("_", "-")}="{_xml(str(v))}"'
                       for k, v in attrs.items() if v is not None)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **attrs: Any) -> None:
        self._parts.append(f'<rect x="{x:g}" y="{y:g}" width="{max(w, 0):g}" height="{max(h, 0):g}" '
                           f'fill="{fill}"{self._attrs(attrs)}/>')

    def circle(self, x: float, y: float, r: float, fill: str, **attrs: Any) -> None:
        self._parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}"{self._attrs(attrs)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#888", **attrs: Any) -> None:
        self._parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                           f'stroke="{stroke}"{self._attrs(attrs)}/>')

    def polyline(self, points: Sequence[tuple[float, float]], stroke: str, **attrs: Any) -> None:
        pts = " ".join(f"{x:g},{y:g}" for x, y in points)
        self._parts.append(f'<polyline points="{pts}" fill="none" stroke="{stroke}"{self._attrs(attrs)}/>')

    def text(self, x: float, y: float, text: Any, size: float = 13, fill: str = "#222",
             anchor: str = "start", bold: bool = False, **attrs: Any) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self._parts.append(f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}" '
                           f'text-anchor="{anchor}"{weight}{self._attrs(attrs)}>{_xml(str(text))}</text>')

    def document(self, title: str = "") -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" font-family="{self.FONT}">')
        label = f"<title>{_xml(title)}</title>" if title else ""
        return head + label + "".join(self._parts) + "</svg>\n"


def _xml(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def fit(text: str, width: float, size: float) -> str:
    """``text`` cut to about ``width`` pixels at font ``size`` (an estimate:
    SVG has no text measuring, and a picture must not spill over its boxes)."""
    room = max(int(width / (size * 0.56)), 1)
    return text if len(text) <= room else text[:max(room - 1, 1)] + "…"
