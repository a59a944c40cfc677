"""A small HTML checker for report tests: nesting errors, text, <pre> blocks,
table rows and list items, collected while parsing (stdlib html.parser)."""
from __future__ import annotations

from html.parser import HTMLParser

VOID = {"br", "meta", "hr", "img", "input", "link", "wbr", "col"}


class Page(HTMLParser):
    """Checks nesting while collecting text, <pre> blocks and table rows (cell texts;
    a table inside a cell adds its own rows)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.tags = [], [], []
        self.text, self.pres, self.rows, self.items = [], [], [], []
        self._cells, self._rows = [], []
        self._pre = self._li = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in VOID:
            if tag == "br":
                self.handle_data(" ")
            return
        self.stack.append(tag)
        if tag == "tr":
            self._rows.append([])
        elif tag in ("td", "th"):
            self._cells.append([])
        elif tag == "pre":
            self._pre = []
        elif tag == "li":
            self._li = []

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag in ("td", "th"):
            self._rows[-1].append(" ".join("".join(self._cells.pop()).split()))
        elif tag == "tr":
            self.rows.append(self._rows.pop())
        elif tag == "pre":
            self.pres.append("".join(self._pre))
            self._pre = None
        elif tag == "li":
            self.items.append(" ".join("".join(self._li).split()))
            self._li = None

    def handle_data(self, data):
        self.text.append(data)
        for part in (*self._cells, self._pre, self._li):
            if part is not None:
                part.append(data)


def parse(markup: str) -> Page:
    page = Page()
    page.feed(markup)
    page.close()
    assert not page.errors, page.errors[:5]
    assert page.stack == [], f"unclosed: {page.stack}"
    page.alltext = " ".join("".join(page.text).split())
    return page


def assert_styles_inline_when_mailed(body: str) -> None:
    """A report body carries one <style> (the shared sheet) and classes; the mail
    built from it has every class written out as an inline style, and no <style>:
    mail clients drop style sheets."""
    from referee.render.renderer import inline_styles
    compact = parse(body)
    assert [t for t, _ in compact.tags].count("style") == 1
    assert not any("style" in attrs and "{{" not in attrs["style"] and ";" in attrs["style"]
                   and "background:" not in attrs["style"] for _, attrs in compact.tags), "styles by hand"
    mailed = parse(inline_styles(body))
    assert not any(t == "style" for t, _ in mailed.tags)
    classed = [attrs for _, attrs in mailed.tags if attrs.get("class")]
    assert classed and all(attrs.get("style") for attrs in classed), "a class without its inline style"
