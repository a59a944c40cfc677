"""The site's rules page: the game's rules for players (``RULES.<lang>.md`` in its package, found by
``registry.player_rules``) as HTML, at the address the welcome mails link (``order_mail.rules_page_name``).

The page renders the small part of Markdown the rules texts use — headings, paragraphs, lists
(nested by indentation), tables, fenced code and ``code``/**bold**/*emphasis* inside a line —
and nothing else: every character of the text is escaped first, so a game's text can never put
markup, script or a link of its own into the page.
"""
from __future__ import annotations

import re

from markupsafe import Markup, escape

_INLINE = [(re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
           (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>")]
_ITEM = re.compile(r"^( *)(\*|-|\d+\.) +(.*)$")


def _inline(text: str) -> str:
    """One line's text: escaped, then code spans (kept whole), bold and emphasis."""
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"<code>{escape(part[1:-1])}</code>")
            continue
        html = str(escape(part))
        for pattern, repl in _INLINE:
            html = pattern.sub(repl, html)
        out.append(html)
    return "".join(out)


def _table(rows: list[str]) -> str:
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    body = [r for r in cells[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
    head = "".join(f"<th>{_inline(c)}</th>" for c in cells[0])
    rows_html = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows_html}</tbody></table>"


def _list(lines: list[str]) -> str:
    """A list block.  An item's content starts after its marker; a deeper item nests in the item
    whose content it reaches, and an unmarked line continues the innermost item whose content it
    reaches (after a blank line, as a paragraph of its own — below that item's nested list)."""
    roots: list[dict] = []
    stack: list[dict] = []   # the open items, outermost first
    blank = False
    for line in lines:
        if not line.strip():
            blank = True
            continue
        indent = len(line) - len(line.lstrip())
        m = _ITEM.match(line)
        while stack and (stack[-1]["content"] > indent if not m else stack[-1]["indent"] >= indent
                         and stack[-1]["content"] > indent):
            stack.pop()
        if m:
            node = {"indent": indent, "content": indent + len(m[2]) + 1,
                    "tag": "ol" if m[2][0].isdigit() else "ul", "parts": [m[3]]}
            (stack[-1]["parts"] if stack else roots).append(node)
            stack.append(node)
        elif stack:
            parts = stack[-1]["parts"]
            if blank or not isinstance(parts[-1], str):
                parts.append(line.strip())
            else:
                parts[-1] += " " + line.strip()
        blank = False
    return _items(roots)


def _items(nodes: list) -> str:
    """Sibling items (runs of one kind in one list), each with its text, paragraphs and sublists."""
    out, i = [], 0
    while i < len(nodes):
        tag, j = nodes[i]["tag"], i
        while j < len(nodes) and nodes[j]["tag"] == tag:
            j += 1
        out.append(f"<{tag}>")
        for node in nodes[i:j]:
            first, rest = node["parts"][0], node["parts"][1:]
            html = [_inline(first)]
            k = 0
            while k < len(rest):
                if isinstance(rest[k], str):
                    html.append(f"<p>{_inline(rest[k])}</p>")
                    k += 1
                else:
                    run = k
                    while k < len(rest) and not isinstance(rest[k], str):
                        k += 1
                    html.append(_items(rest[run:k]))
            out.append("<li>" + "".join(html) + "</li>")
        out.append(f"</{tag}>")
        i = j
    return "".join(out)


def render(text: str) -> Markup:
    """The rules text as HTML (see the module's docstring for what is understood)."""
    lines, out, i = text.splitlines(), [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append(f"<pre><code>{escape(chr(10).join(lines[i + 1:j]))}</code></pre>")
            i = j + 1
        elif m := re.match(r"^(#{1,4}) +(.*)$", line):
            level = len(m[1])
            out.append(f"<h{level}>{_inline(m[2])}</h{level}>")
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out.append(_table(lines[i:j]))
            i = j
        elif _ITEM.match(line):
            j = i + 1
            while j < len(lines) and (lines[j].startswith(" ") and lines[j].strip() or _ITEM.match(lines[j])
                                      or (not lines[j].strip() and j + 1 < len(lines)
                                          and lines[j + 1].startswith("  "))):
                j += 1
            out.append(_list(lines[i:j]))
            i = j
        elif line.strip():
            j = i
            while (j < len(lines) and lines[j].strip() and not lines[j].startswith(("```", "#", "|"))
                   and not _ITEM.match(lines[j])):
                j += 1
            out.append("<p>" + " ".join(_inline(x.strip()) for x in lines[i:j]) + "</p>")
            i = j
        else:
            i += 1
    return Markup("\n".join(out))
