"""Read the text out of an HTML-only mail, the way a reader would see it.

No rendering and no fetching: stdlib ``html.parser`` walks the markup, block
elements become line breaks, ``&nbsp;`` stays a space (mail clients indent
YAML with it) and quoted parts (``<blockquote>``) get ``> `` prefixes so the
intake treats them like quoted plain text.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK = {
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot",
    "th", "thead", "tr", "ul",
}
_SKIP = {"script", "style", "head", "title", "template", "noscript"}
_COLLAPSIBLE = re.compile(r"[ \t\r\n\f]+")


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current = ""
        self.skip = 0
        self.pre = 0
        self.quote = 0
        self.line_quote = 0  # quote depth of the line being built

    # -- line handling -------------------------------------------------
    def _break(self) -> None:
        prefix = "> " * self.line_quote
        line = self.current.rstrip(" ")
        self.lines.append(prefix + line if line else prefix.rstrip())
        self.current = ""
        self.line_quote = self.quote

    def _block(self) -> None:
        if self.current:
            self._break()
        self.line_quote = self.quote

    def _add(self, text: str) -> None:
        if not self.current:
            self.line_quote = self.quote
        self.current += text

    # -- parser callbacks ----------------------------------------------
    def handle_starttag(self, tag: str, attrs) -> None:
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
            elif tag in ("td", "th") and self.current:
                self._add(" ")

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag == "br":
            self._break()
        elif tag in _BLOCK:
            self._block()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK:
            self._block()
            if tag == "blockquote":
                self.quote = max(0, self.quote - 1)
                self.line_quote = self.quote
            elif tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.pre:
            parts = data.replace("\r\n", "\n").split("\n")
            for i, part in enumerate(parts):
                if i:
                    self._break()
                self._add(part)
            return
        data = _COLLAPSIBLE.sub(" ", data)
        if not self.current or self.current.endswith(" "):
            # Collapsible space at a line start or after a space disappears.
            data = data.lstrip(" ")
        if data:
            self._add(data)

    def text(self) -> str:
        self.close()
        if self.current:
            self._break()
        lines = [line.replace("\u00a0", " ").rstrip() for line in self.lines]
        # Drop runs of blank lines that block nesting produces.
        out: list[str] = []
        for line in lines:
            if line == "" and out and out[-1] == "":
                continue
            out.append(line)
        return "\n".join(out).strip("\n") + "\n" if out else ""


def html_to_text(markup: str) -> str:
    """The visible text of ``markup``, one rendered line per line."""
    collector = _TextCollector()
    try:
        collector.feed(markup)
        return collector.text()
    except Exception:  # html.parser is lenient, but never let markup break intake
        return re.sub(r"<[^>]*>", " ", markup)
