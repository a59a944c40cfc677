"""Shared by the tests of pictures, the match site, schemas and calendars:
the recorded sample matches in ``turns/`` and the texts of an SVG."""
from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

from referee.game_api import registry
from referee.site.history import read_meta, turns

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "turns"
FF = SAMPLES / "demo-founding_fathers"
RS = SAMPLES / "demo-perricumer_ratsspiel"
SVG_NS = "{http://www.w3.org/2000/svg}"
OUT = ROOT / "tests" / "pictures" / "out"     # what a person looks at (git-ignored)


def last_turn(match_dir: Path) -> int:
    """The number of a sample's last recorded turn (the demo's length follows its players)."""
    return max(int(d.name[1:]) for d in match_dir.glob("t[0-9][0-9][0-9]") if d.is_dir())


def views(match_dir: Path, numbers, viewer=None) -> dict:
    """{turn number: view} after the given turns of a sample."""
    meta = read_meta(match_dir)
    rules = registry.get(meta["game"])
    wanted, out = set(numbers), {}
    for t in turns(match_dir, meta):
        if t.number in wanted:
            out[t.number] = rules.view(t.state, viewer)
        if len(out) == len(wanted):
            break
    return out


def texts(svg: str) -> list[str]:
    """Every <text> of an SVG in document order (parsing it also proves it is well-formed)."""
    return [el.text or "" for el in ET.fromstring(svg).iter(f"{SVG_NS}text")]


def after(seq: list[str], item: str) -> str:
    """The text drawn right after ``item``."""
    return seq[seq.index(item) + 1]


def new_match(folder: Path, monkeypatch, match_file: str) -> Path:
    """``referee init`` and ``referee new`` in ``folder`` (SQLite + Maildir), as a GM would."""
    from referee.app.cli import main
    monkeypatch.chdir(folder)
    assert main(["init"]) == 0
    (folder / "match.yaml").write_text(match_file)
    assert main(["new", "match.yaml"]) == 0
    return folder


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def colours_in(png: bytes) -> int:
    """How many different bytes the image data holds: a blank picture has one or two."""
    pos, data = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(data)))
