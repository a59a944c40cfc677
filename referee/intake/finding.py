"""Finding the one YAML block in a mail text written by a human mail client.

The rule, in order:

1. **Clean up, keeping every line where it was.**  A leading BOM goes; CRLF
   and lone CR become LF; non-breaking and other odd spaces become plain
   spaces; control characters become spaces; leading tabs become two spaces
   each (YAML forbids tabs in indentation; a note tells the player).
2. **Cut what is not the player's new text.**  Everything from a signature
   line (``-- ``) or an Outlook-style quoted original (``-----Original
   Message-----``, ``-----Ursprüngliche Nachricht-----``, a ``____`` rule
   before ``From:``, or a capitalised ``From:``/``Von:`` line followed within
   four lines by ``Sent:``/``Gesendet:``/``Date:`` holding a date; lower-case
   ``from:``/``date:`` are YAML keys) to the end is dropped: those clients do not mark the old mail
   with ``>``, and it usually holds an old order form.  Lines starting with
   ``>`` (quoted earlier mails) are blanked.  Only when the player's own
   text holds no document is the text quoted once read (``quoted_lines``), and
   a block there only counts if its ``key:`` was filled in (``edited``) and the
   player wrote nothing else but the "On ... wrote:" line (``only_attribution``):
   a terminal client's user who edited the form inside the quote.
3. **Anchor lines.**  A line ``match: ...`` (``partie:``, at any indentation) anchors a
   document.  Without any, a line ``player:``, ``orders:``, ``command:``,
   ``turn:`` or ``key:`` (or its German word) does (so a document without ``match:`` still gets a
   precise "match is missing" instead of "nothing found").
4. **The block around an anchor.**  If the anchor sits between explicit
   fences — a pair of ```` ``` ```` (or ``~~~``) lines, or a ``---`` line and
   a ``...`` line — the whole fenced text is the document, so a syntax error
   inside it is reported rather than cut away.  Otherwise the block grows up
   and down from the anchor over lines that look like YAML at the anchor's
   indentation: blank lines, comments, deeper-indented lines, ``key:`` lines
   (key without spaces) and ``- `` items.  The first other line (a greeting,
   "Viele Grüße", "Am ... schrieb ...:", a ``---`` marker) ends it.  The
   block is dedented by the anchor's indentation.
5. **Exactly one.**  Several blocks are refused (``document.several``); none
   leaves a last try: the whole remaining text, if it is a mapping with
   ``match`` (e.g. a one-line flow mapping).

Every step is linear in the number of lines, and at most ``MAX_LINES`` are
read (an order form needs a few hundred): anchors are visited in order, a
block never grows up into the one before it, and fenced regions are found by
bisection, so 20,000 ``match:`` lines cost no more than 20,000 other lines.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

MAX_LINES = 20_000

_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LEADING_TABS = re.compile(r"^[ \t]*\t[ \t]*")

_SIGNATURE = re.compile(r"^--\s*$")
_ORIGINAL = re.compile(
    r"^\s*-{2,}\s*(original message|ursprüngliche nachricht|originalnachricht|"
    r"forwarded message|weitergeleitete nachricht)\s*-{2,}\s*$", re.I)
_RULE = re.compile(r"^\s*_{10,}\s*$")
_FROM = re.compile(r"^\s*(From|Von|De|FROM|VON)\s*:\s*\S")   # as Outlook writes them
_SENT = re.compile(r"^\s*(Sent|Gesendet|Date|Datum|SENT|GESENDET)\s*:.*\d")   # with a date in it

_FENCE = re.compile(r"^\s*(```|~~~)\s*(yaml|yml)?\s*$", re.I)
_START = re.compile(r"^---(\s.*)?$")
_END = re.compile(r"^\.\.\.\s*$")

# the envelope's keys, English or German (referee.intake.envelope.ALIASES)
_MATCH = re.compile(r"^( *)(match|partie) *:(\s|$)", re.I)
_OTHER_ANCHOR = re.compile(r"^( *)(player|orders|command|turn|key|spieler|spielerin|befehle|befehl|kommando|zug|"
                           r"schluessel|schlüssel) *:(\s|$)", re.I)
_KEY = re.compile(r"""^(?:[\w.\-]+|'[^'\n]*'|"[^"\n]*")\s*:(\s|$)""")
_ITEM = re.compile(r"^-(\s|$)")


@dataclass
class Cleaned:
    lines: list[str]                        # cleaned lines, same count as sent
    tabs: dict[int, tuple[int, int]] = field(default_factory=dict)  # line -> (prefix as sent, as read)


@dataclass
class Block:
    start: int      # first line (0-based) of the block in the cleaned text
    end: int        # one past the last line
    indent: int     # columns removed from every line
    anchor: int     # the anchor line

    def text(self, lines: list[str]) -> str:
        out = []
        for line in lines[self.start:self.end]:
            head = line[: self.indent]
            out.append(line[self.indent:] if not head.strip() else line.lstrip(" "))
        return "\n".join(out) + "\n"


def clean(text: str) -> Cleaned:
    text = text.removeprefix("\ufeff")
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2028", "\n").replace("\u2029", "\n")
    text = _CONTROLS.sub(" ", _SPACES.sub(" ", text.replace("\u0085", "\n")))
    lines = text.split("\n", MAX_LINES)[:MAX_LINES]
    tabs: dict[int, tuple[int, int]] = {}
    for i, line in enumerate(lines):
        m = _LEADING_TABS.match(line) if "\t" in line else None
        if m:
            prefix = m.group(0)
            wide = prefix.replace("\t", "  ")
            lines[i] = wide + line[len(prefix):]
            tabs[i] = (len(prefix), len(wide))
    return Cleaned(lines, tabs)


def cut_point(lines: list[str]) -> int:
    """Index of the first line of a signature or unmarked quoted original."""
    for i, line in enumerate(lines):
        if _SIGNATURE.match(line) or _ORIGINAL.match(line):
            return i
        if _RULE.match(line) and any(_FROM.match(x) for x in lines[i + 1:i + 3]):
            return i
        if _FROM.match(line) and not line.startswith(" ") and any(_SENT.match(x) for x in lines[i + 1:i + 5]):
            return i
    return len(lines)


def visible_lines(cleaned: Cleaned) -> list[str]:
    """Lines the player wrote now: cut at the cut point, ``>`` lines blanked."""
    cut = cut_point(cleaned.lines)
    return [("" if line.lstrip(" ").startswith(">") else line) if i < cut else ""
            for i, line in enumerate(cleaned.lines)]


PLACEHOLDER_KEYS = ("YOUR-KEY", "DEIN-SCHLUESSEL")   # what a report's form shows instead of a key
_QUOTED_ONCE = re.compile(r"^ ?>(?!>)")
_KEY_VALUE = re.compile(r"^\s*(?:key|schluessel|schlüssel)\s*:\s*['\"]?([^'\"#\s]+)", re.I)


def quoted_lines(cleaned: Cleaned) -> list[str]:
    """Lines quoted once ('> '), the quote mark read as a space (columns stay as
    sent), all others blank: where a terminal client's user edits the quoted form."""
    cut = cut_point(cleaned.lines)
    return [_QUOTED_ONCE.sub(" ", line) if i < cut and _QUOTED_ONCE.match(line) else ""
            for i, line in enumerate(cleaned.lines)]


def edited(block: Block, lines: list[str]) -> bool:
    """Whether a quoted block was filled in by the player: it carries a key of theirs."""
    for line in lines[block.start:block.end]:
        m = _KEY_VALUE.match(line)
        if m:
            return m.group(1).upper() not in PLACEHOLDER_KEYS
    return False


def only_attribution(visible: list[str]) -> bool:
    """Whether the player wrote nothing of their own but the client's "On ... wrote:" line:
    then an edited quote is their answer (text of their own says the quote is only context)."""
    own = [line for line in visible if line.strip()]
    return len(own) <= 1 and all(line.rstrip().endswith(":") for line in own)


def _fenced_regions(lines: list[str]) -> list[list[tuple[int, int]]]:
    """(first content line, end) of ``` pairs, and of ---/... pairs: two lists,
    each in order and without overlaps."""
    fences = []
    opened = None
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            if opened is None:
                opened = i
            else:
                fences.append((opened + 1, i))
                opened = None
    markers = []
    opened = None
    for i, line in enumerate(lines):
        if _START.match(line):
            opened = i
        elif _END.match(line) and opened is not None:
            markers.append((opened + 1, i))
            opened = None
    return [fences, markers]


def _region(families: list[list[tuple[int, int]]], line: int) -> tuple[int, int] | None:
    """The fenced region holding ``line`` (``` before ---/...), by bisection."""
    for regions in families:
        at = bisect.bisect_right(regions, (line, float("inf"))) - 1
        if at >= 0 and regions[at][0] <= line < regions[at][1]:
            return regions[at]
    return None


def _belongs(line: str, indent: int) -> bool:
    if not line.strip():
        return True
    lead = len(line) - len(line.lstrip(" "))
    if lead > indent:
        return True
    if lead < indent:
        return False
    rest = line[indent:]
    return rest.startswith("#") or bool(_KEY.match(rest) or _ITEM.match(rest))


def _grow(lines: list[str], anchor: int, indent: int, lo: int, hi: int) -> tuple[int, int]:
    start = anchor
    while start - 1 >= lo and _belongs(lines[start - 1], indent):
        start -= 1
    end = anchor + 1
    while end < hi and _belongs(lines[end], indent):
        end += 1
    while start < anchor and not lines[start].strip():
        start += 1
    while end > anchor + 1 and not lines[end - 1].strip():
        end -= 1
    return start, end


def find_blocks(lines: list[str]) -> list[Block]:
    """Every distinct document block in the visible lines (see module doc)."""
    anchors = [(i, len(m.group(1))) for i, line in enumerate(lines) if (m := _MATCH.match(line))]
    if not anchors:
        anchors = [(i, len(m.group(1))) for i, line in enumerate(lines) if (m := _OTHER_ANCHOR.match(line))]
    fenced = _fenced_regions(lines)
    blocks: list[Block] = []
    for anchor, indent in anchors:
        # Anchors come in order and each block ends after its anchor, so an
        # anchor inside an earlier block is inside the last one.
        if blocks and anchor < blocks[-1].end:
            continue
        region = _region(fenced, anchor)
        if region is not None:
            start, end = region
        else:
            start, end = _grow(lines, anchor, indent, blocks[-1].end if blocks else 0, len(lines))
        blocks.append(Block(start, end, indent, anchor))
    return blocks
