"""Read the text out of an HTML-only mail, the way a reader would see it.

No rendering and no fetching: libxml2's HTML parser (through lxml) builds the
tree in C, in time linear in the markup, and keeps nesting to 256 levels;
the walk below is iterative.  Block elements become line breaks, ``&nbsp;``
stays a space (mail clients indent YAML with it) and quoted parts
(``<blockquote>``) get ``> `` prefixes so the intake treats them like quoted
plain text.  Input and output are capped, so no markup costs more than a
bounded, linear amount of work.

Two readings come out of one walk (``html_readings``): the text as a browser
shows it (runs of blanks collapsed, none at a line start), and the text with
the literal spacing of the source (blanks kept, source line breaks dropped;
``<br>`` and blocks still break lines).  An order whose lines a client
separated with ``<br>`` and indented with ordinary spaces survives only in the
second; the intake reads it where the first yields no valid document.
"""
from __future__ import annotations

import re

from lxml import etree

MAX_MARKUP = 256_000     # characters of markup read; the rest is dropped
MAX_TEXT = 512_000       # characters of text produced ...
MAX_LINES = 20_000       # ... in at most this many lines
MAX_QUOTE_MARKS = 16     # "> " prefixes written per line, however deep the quote
MAX_ELEMENTS = 20_000    # elements walked (an order form needs a few hundred)
MAX_ATTRIBUTES = 100     # attributes of one tag kept: libxml2 compares each with all before it

_BLOCK = {
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot",
    "th", "thead", "tr", "ul",
}
_SKIP = {"script", "style", "head", "title", "template", "noscript"}
_COLLAPSIBLE = re.compile(r"[ \t\r\n\f]+")
_SOURCE_BREAK = re.compile(r"[\r\n\f]")
_TAG = re.compile(r"<[^<>]*>")   # cannot run past the next '<': linear

# Markup split as an HTML5 tokenizer (libxml2 2.14's HTML parser) splits it, so that the
# attributes counted are the ones the parser will see: comments and bogus comments, the
# raw text of script, style, title ... (never tags inside), start and end tags with their
# attributes.  Possessive quantifiers and first characters that tell the alternatives
# apart: one pass, no backtracking, whatever the markup.
_WS = "\t\n\f\r "
_ATTRIBUTE = (rf"""(?:=|[^{_WS}/>=])[^{_WS}/>=]*+"""
              rf"""(?:[{_WS}]*+=[{_WS}]*+(?:"[^"]*+"?|'[^']*+'?|[^{_WS}>]*+))?""")
_ATTRIBUTES = re.compile(_ATTRIBUTE)
_MARKUP = re.compile(
    r"<!--(?:-?>|.*?--!?>|.*\Z)|<![^>]*+>?|<\?[^>]*+>?|</(?![a-z])[^>]*+>?"      # (bogus) comments
    rf"|</?(?P<name>[a-z][^{_WS}/>]*+)(?P<attrs>(?:[{_WS}/]++|{_ATTRIBUTE})*+)>?",  # a tag
    re.I | re.S)
_RAW_END = {name: re.compile(rf"</{name}[{_WS}/>]", re.I)      # text up to here holds no tags
            for name in ("script", "style", "textarea", "title", "iframe", "noembed", "noframes", "xmp")}


class _Lines:
    """The text being built, one line at a time (parts, never repeated concatenation).
    ``literal``: blanks as in the source instead of collapsed as a browser does."""

    def __init__(self, literal: bool = False) -> None:
        self.literal = literal
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
        if self.parts and (not self.literal or any(p.strip(" \t") for p in self.parts)):
            self._break()
        self.parts = []          # literal: blanks alone between blocks (the source's layout) make no line
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
        if self.literal:
            self._add(_SOURCE_BREAK.sub("", data))
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


def capped_attributes(markup: str) -> str:
    """``markup`` with at most ``MAX_ATTRIBUTES`` attributes in any tag (the first ones;
    none of them matters to the text): libxml2 checks each attribute of a tag against
    all before it, so 27,000 in one tag took 0.8 s.  One pass, linear in the markup."""
    out, pos, last = [], 0, 0
    while (m := _MARKUP.search(markup, pos)) is not None:
        pos = m.end()
        name = m.group("name")
        if name is None:
            continue
        attrs = m.group("attrs")
        if len(attrs) > MAX_ATTRIBUTES:   # each attribute takes a character at least
            found = _ATTRIBUTES.findall(attrs)
            if len(found) > MAX_ATTRIBUTES:
                out += [markup[last:m.start("attrs")], " ", " ".join(found[:MAX_ATTRIBUTES])]
                last = m.end("attrs")
        if m.group(0)[1] == "/":
            continue
        name = name.lower()
        if name == "plaintext":
            break
        if name in _RAW_END:
            end = _RAW_END[name].search(markup, pos)
            pos = end.start() if end else len(markup)
    out.append(markup[last:])
    return "".join(out)


def _parse(markup: str):
    parser = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                              no_network=True, recover=True)
    return etree.fromstring(markup.encode("utf-8", "surrogatepass"), parser)


def html_to_text(markup: str) -> str:
    """The visible text of ``markup``, one rendered line per line."""
    return html_readings(markup)[0]


def html_readings(markup: str) -> tuple[str, str]:
    """(the visible text of ``markup`` as a browser lays it out, the same lines with
    the source's own blanks), from one parse and one walk."""
    markup = markup[:MAX_MARKUP]
    try:
        root = _parse(capped_attributes(markup))
        if root is None:
            return "", ""
        both = (_Lines(), _Lines(literal=True))
        budget = 2 * MAX_ELEMENTS
        for event, element in etree.iterwalk(root, events=("start", "end")):
            tag = element.tag if isinstance(element.tag, str) else ""  # lower case already
            for lines in both:
                if event == "start":
                    lines.start(tag)
                    lines.data(element.text)
                else:
                    lines.end(tag)
                    lines.data(element.tail)
            budget -= 1
            if budget <= 0 or both[1].full:
                break
        return both[0].text(), both[1].text()
    except Exception:  # never let markup break intake
        text = _TAG.sub(" ", markup)[:MAX_TEXT]
        return text, text
