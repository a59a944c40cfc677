"""``read_document``: the one YAML document of a mail, loaded safely, with positions.

Where the document comes from: the first ``.yaml``/``.yml`` attachment that is
not blank (the whole file is the document); otherwise the mail text, searched
by the rule in ``referee.intake.finding``.  Line and column numbers always
refer to that attachment or that mail text *as sent* (1-based), so a player
counting lines in the mail they sent finds the place.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from referee.intake import checks

from . import finding
from .problems import Located, referee_problem
from .safe_yaml import Marks, YamlRefused, load_checked

MAX_TEXT = 512_000  # characters of a mail text searched (a mail is at most 256 kB; HTML text 512 k)
SHOWN_STARTS = 10   # a reply names the first lines of several documents, not thousands
_KEY_LINE = re.compile(r"^(\s*(?:key|schluessel|schlüssel)\s*:\s*)(\S.*)$", re.I)
Path = tuple


@dataclass
class Document:
    data: dict
    source: str                     # "body" or the attachment's file name
    text: str                       # the YAML text as loaded
    first_line: int = 0             # 0-based line of ``text`` in the source
    indent: int = 0                 # columns removed from each line
    marks: dict[Path, Marks] = field(default_factory=dict, repr=False)
    source_lines: list[str] = field(default_factory=list, repr=False)
    tabs: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)
    notes: list[Located] = field(default_factory=list)   # warnings about reading it

    # -- places -------------------------------------------------------------------
    def to_source(self, line: int | None, column: int | None) -> tuple[int | None, int | None]:
        """0-based place in ``text`` -> 1-based place in the source as sent."""
        if line is None:
            return None, None
        src = self.first_line + line
        col = (column or 0) + self.indent
        if src in self.tabs:
            sent, read = self.tabs[src]
            col = col - (read - sent) if col >= read else min(col, sent)
        return src + 1, col + 1

    def resolve(self, path: Iterable[Any]) -> Path:
        """The longest part of ``path`` that exists in the document.

        Components that do not exist are skipped when a later one does (a
        pydantic union names its member in ``loc``); a missing last key
        leaves its parent."""
        here: Path = ()
        for part in path:
            for candidate in (part, str(part)) if not isinstance(part, str) else (part,):
                if here + (candidate,) in self.marks:
                    here = here + (candidate,)
                    break
            else:
                if isinstance(part, str) and part.isdigit() and here + (int(part),) in self.marks:
                    here = here + (int(part),)
        return here

    def position(self, path: Iterable[Any]) -> tuple[int | None, int | None]:
        """1-based (line, column) of a key/value path such as
        ``("orders", "delegates", 1)``: the value itself for a plain value,
        the key for a list or mapping, the nearest existing parent otherwise."""
        found = self.resolve(path)
        marks = self.marks.get(found)
        if marks is None:
            return None, None
        key_mark, value_mark, collection = marks
        mark = key_mark if (collection and key_mark is not None) else value_mark
        return self.to_source(*mark)

    def key_position(self, path: Iterable[Any]) -> tuple[int | None, int | None]:
        """Like ``position``, but the key itself where there is one: where a key
        that does not belong was written, not its value."""
        marks = self.marks.get(self.resolve(path))
        if marks is not None and marks[0] is not None:
            return self.to_source(*marks[0])
        return self.position(path)

    def snippet(self, line: int | None) -> str:
        """The line as sent (1-based), with the value of a ``key:`` line masked."""
        if line is None or not 1 <= line <= len(self.source_lines):
            return ""
        text = self.source_lines[line - 1].rstrip()
        m = _KEY_LINE.match(text)
        return m.group(1) + "********" if m else text

    def problem(self, code: str, path: Iterable[Any] = (), *, at_key: bool = False, **params: Any) -> Located:
        """A referee problem placed at ``path`` (at its key with ``at_key``)."""
        path = tuple(path)
        line, column = self.key_position(path) if at_key else self.position(path)
        where = ".".join(str(p) for p in path)   # what it is about, even if missing
        return referee_problem(code, line=line, column=column, where=where,
                               snippet=self.snippet(line), **params)


def _refusal(doc: Document, err: YamlRefused) -> Located:
    line, column = doc.to_source(err.line, err.column)
    return referee_problem(err.code, line=line, column=column, snippet=doc.snippet(line),
                           **(err.params or {}))


def _load(block_text: str, doc: Document) -> Document | list[Located]:
    try:
        loaded = load_checked(block_text)
    except YamlRefused as err:
        return [_refusal(doc, err)]
    doc.marks = loaded.marks
    if not isinstance(loaded.data, dict):
        return [doc.problem("document.not_mapping")]
    doc.data = loaded.data
    return doc


def _tab_note(doc: Document, start: int, end: int) -> None:
    tabbed = sorted(i for i in doc.tabs if start <= i < end)
    if tabbed:
        doc.notes.append(referee_problem("document.tabs", line=tabbed[0] + 1, column=1,
                                         severity="warning", snippet=doc.snippet(tabbed[0] + 1)))


def read_text(text: str, source: str = "body", *, whole: bool = False) -> Document | list[Located]:
    """Find and load the document in one text (``whole``: the text is the document)."""
    cleaned = finding.clean(text[:MAX_TEXT])
    doc = Document({}, source, "", source_lines=cleaned.lines, tabs=cleaned.tabs)
    if whole:
        doc.text = "\n".join(cleaned.lines)
        _tab_note(doc, 0, len(cleaned.lines))
        return _load(doc.text, doc)
    lines = finding.visible_lines(cleaned)
    blocks = finding.find_blocks(lines)
    if len(blocks) > 1:
        starts = ", ".join(str(b.start + 1) for b in blocks[:SHOWN_STARTS])
        if len(blocks) > SHOWN_STARTS:
            starts += ", …"
        return [referee_problem("document.several", line=blocks[1].start + 1, count=len(blocks), lines=starts)]
    if not blocks:
        quoted = finding.quoted_lines(cleaned)
        found = finding.find_blocks(quoted)
        if len(found) == 1 and finding.edited(found[0], quoted) and finding.only_attribution(lines):
            lines, blocks = quoted, found
            doc.notes.append(referee_problem("document.quoted", severity="warning", line=found[0].anchor + 1))
    if not blocks:
        rest = "\n".join(lines)
        if rest.strip() and ("match" in rest.lower() or "partie" in rest.lower()):
            doc.text = rest
            result = _load(rest, doc)
            if isinstance(result, Document) and any(str(k).lower() in ("match", "partie") for k in result.data):
                return result
        return [referee_problem("document.not_found")]
    block = blocks[0]
    doc.text = block.text(lines)
    doc.first_line, doc.indent = block.start, block.indent
    _tab_note(doc, block.start, block.end)
    return _load(doc.text, doc)


def read_document(mail: Any) -> Document | list[Located]:
    """The one YAML document of an ``InboundMail`` (first non-blank YAML
    attachment, else the text body), or the problems that stop reading it."""
    # The mail layer hands over YAML attachments only (by name or content type).
    attachments = [(name, text) for name, text in (mail.attachments or ()) if text.strip()]
    if attachments:
        name, text = attachments[0]
        result = read_text(text, name, whole=True)
        if isinstance(result, Document) and len(attachments) > 1:
            ignored = ", ".join(n for n, _ in attachments[1:])
            result.notes.append(referee_problem("document.other_attachments", severity="warning",
                                                used=name, ignored=ignored))
    else:
        result = read_text(mail.text or "")
    if isinstance(result, Document):
        for name, size in list(getattr(mail, "set_aside", ()))[:SHOWN_STARTS]:   # photos beside the orders
            result.notes.append(referee_problem("document.set_aside", severity="warning",
                                                name=checks.echo(name), size=f"{size // 1000} kB"))
    return result
