"""Read the text out of an HTML-only mail, the way a reader would see it.

No rendering and no fetching: libxml2's HTML parser (through lxml) builds the
tree in C, in time linear in the markup, and keeps nesting to 256 levels;
the walk below is iterative.  Block elements become line breaks, ``&nbsp;``
stays a space (mail clients indent YAML with it) and quoted parts
(``<blockquote>``) get ``> `` prefixes so the intake treats them like quoted
plain text.  Input and output are capped, so no markup costs more than a
bounded, linear amount of work.
"""
from __future__ import annotations

import re

from lxml import etree

MAX_MARKUP = 256_000     # characters of markup read; the rest is dropped
MAX_TEXT = 512_000       # characters of text produced ...
MAX_LINES = 20_000       # ... in at most this many lines
MAX_QUOTE_MARKS = 16     # "> " prefixes written per line, however deep the quote
MAX_ELEMENTS = 20_000    # elements walked (an order form needs a few hundred)

_BLOCK = {
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot",
    "th", "thead", "tr", "ul",
}
_SKIP = {"script", "style", "head", "title", "template", "noscript"}
_COLLAPSIBLE = re.compile(r"[ \t\r\n\f]+")
_TAG = re.compile(r"<[^<>]*>")   # cannot run past the next '<': linear


class _Lines:
    """The text being built, one line at a time (parts, never repeated concatenation)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.parts: list[str] = []
        self.size = 0
        self.skip = 0
        self.pre = 0
        self.quote = 0
        self.line_quote = 0  # quote depth of the line being built

    @property
    def full(self) -> bool:
        return self.size > MAX_TEXT or len(self.lines) > MAX_LINES

    def _break(self) -> None:
        prefix = "> " * min(self.line_quote, MAX_QUOTE_MARKS)
        line = "".join(self.parts).rstrip(" ")
        self.lines.append(prefix + line if line else prefix.rstrip())
        self.size += len(self.lines[-1]) + 1
        self.parts = []
        self.line_quote = self.quote

    def _block(self) -> None:
        if self.parts:
            self._break()
        self.line_quote = self.quote

    def _add(self, text: str) -> None:
        if not self.parts:
            self.line_quote = self.quote
        if text:
            self.parts.append(text)
            self.size += len(text)

    def start(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip += 1
        elif tag == "br":
            self._break()
        elif tag in _BLOCK:
            self._block()
            if tag == "blockquote":
                self.quote += 1
                self.line_quote = self.quote
            elif tag == "pre":
                self.pre += 1
            elif tag in ("td", "th") and self.parts:
                self._add(" ")

    def end(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK:
            self._block()
            if tag == "blockquote":
                self.quote = max(0, self.quote - 1)
                self.line_quote = self.quote
            elif tag == "pre":
                self.pre = max(0, self.pre - 1)

    def data(self, data: str | None) -> None:
        if not data or self.skip:
            return
        if self.pre:
            for i, part in enumerate(data.replace("\r\n", "\n").split("\n")):
                if i:
                    self._break()
                    if self.full:
                        return
                self._add(part)
            return
        data = _COLLAPSIBLE.sub(" ", data)
        if not self.parts or self.parts[-1].endswith(" "):
            # Collapsible space at a line start or after a space disappears.
            data = data.lstrip(" ")
        if data:
            self._add(data)

    def text(self) -> str:
        if self.parts:
            self._break()
        out: list[str] = []
        for line in self.lines:
            line = line.replace("\u00a0", " ").rstrip()
            if line == "" and out and out[-1] == "":
                continue  # runs of blank lines that block nesting produces
            out.append(line)
        return "\n".join(out).strip("\n") + "\n" if out else ""


def _parse(markup: str):
    parser = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                              no_network=True, recover=True)
    return etree.fromstring(markup.encode("utf-8", "surrogatepass"), parser)


def html_to_text(markup: str) -> str:
    """The visible text of ``markup``, one rendered line per line."""
    markup = markup[:MAX_MARKUP]
    try:
        root = _parse(markup)
        if root is None:
            return ""
        lines = _Lines()
        budget = 2 * MAX_ELEMENTS
        for event, element in etree.iterwalk(root, events=("start", "end")):
            tag = element.tag if isinstance(element.tag, str) else ""  # lower case already
            if event == "start":
                lines.start(tag)
                lines.data(element.text)
            else:
                lines.end(tag)
                lines.data(element.tail)
            budget -= 1
            if budget <= 0 or lines.full:
                break
        return lines.text()
    except Exception:  # never let markup break intake
        return _TAG.sub(" ", markup)[:MAX_TEXT]
