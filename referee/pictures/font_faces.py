"""The system's font faces, found as resvg finds them (its font database reads the
font folders of a Linux system and picks a face by CSS font matching), so that
text the referee draws as glyph outlines (``referee/pictures/glyphs.py``) uses the very
font file resvg would have used for it.

Read once per process (a few milliseconds for the ~20 faces of a server), kept."""
from __future__ import annotations

import functools
import os
import struct
from dataclasses import dataclass
from pathlib import Path

import uharfbuzz as hb

SUFFIXES = {".ttf", ".otf", ".ttc", ".otc"}
MAX_FILES = 5_000          # a font folder larger than this is not a server's
NORMAL_STRETCH = 5         # OS/2 usWidthClass of a face that is neither condensed nor expanded
GENERIC = {"serif", "sans-serif", "cursive", "fantasy", "monospace", "system-ui"}


@dataclass(frozen=True)
class Face:
    path: str
    index: int
    families: tuple[str, ...]
    weight: int
    stretch: int
    italic: bool


def folders() -> list[Path]:
    """Where a Linux system keeps fonts (the folders resvg's font database reads)."""
    home = Path.home()
    data = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), home / ".fonts", data / "fonts"]


def _files() -> list[Path]:
    found: list[Path] = []
    for folder in folders():
        if not folder.is_dir():
            continue
        for base, _dirs, names in os.walk(folder):
            found.extend(Path(base) / n for n in sorted(names) if Path(n).suffix.lower() in SUFFIXES)
            if len(found) > MAX_FILES:
                return found[:MAX_FILES]
    return found


def _describe(path: Path) -> list[Face]:
    try:
        blob = hb.Blob.from_file_path(str(path))
    except Exception:   # unreadable or not a font: resvg skips it too
        return []
    faces = []
    for index in range(max(hb.Face(blob).count, 1) if path.suffix.lower() in {".ttc", ".otc"} else 1):
        face = hb.Face(blob, index)
        names = [face.get_name(hb.OTNameIdPredefined.TYPOGRAPHIC_FAMILY),
                 face.get_name(hb.OTNameIdPredefined.FONT_FAMILY)]
        families = tuple(dict.fromkeys(n for n in names if n))
        os2 = face.reference_table("OS/2").data
        if not families or len(os2) < 64:
            continue
        weight, stretch = struct.unpack(">HH", os2[4:8])
        fs_selection = struct.unpack(">H", os2[62:64])[0]
        faces.append(Face(str(path), index, families, weight, stretch, bool(fs_selection & 0x201)))
    return faces


@functools.lru_cache(maxsize=1)
def system_faces() -> tuple[Face, ...]:
    return tuple(face for path in _files() for face in _describe(path))


def families_of(font_family: str) -> list[str]:
    """A ``font-family`` value as a list of names (quotes dropped)."""
    return [name.strip().strip("'\"").strip() for name in font_family.split(",") if name.strip()]


def _by_weight(faces: list[Face], weight: int) -> Face:
    """CSS font matching's weight step (CSS Fonts 4, 5.2): the exact weight, else
    for 400-500 the other one and then lighter, for bolder the heavier first."""
    exact = [f for f in faces if f.weight == weight]
    if exact:
        return exact[0]
    lighter = sorted((f for f in faces if f.weight < weight), key=lambda f: -f.weight)
    heavier = sorted((f for f in faces if f.weight > weight), key=lambda f: f.weight)
    if 400 <= weight <= 500:
        between = [f for f in heavier if f.weight <= 500]
        return (between + lighter + heavier)[0]
    return (lighter + heavier)[0] if weight < 400 else (heavier + lighter)[0]


@functools.lru_cache(maxsize=64)   # asked once per text of every picture: the answer is the same all process long
def find(font_family: str, weight: int) -> Face | None:
    """The upright, normal-width face of the first listed family the system has,
    or None: a family list that reaches a generic name, or a family whose nearest
    face is condensed or italic, is left to resvg."""
    faces = system_faces()
    for name in families_of(font_family):
        if name.lower() in GENERIC:
            return None
        family = [f for f in faces if name in f.families]
        if not family:
            continue
        upright = [f for f in family if f.stretch == NORMAL_STRETCH and not f.italic]
        return _by_weight(upright, weight) if upright else None
    return None
