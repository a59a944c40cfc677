"""``Located``: one problem as the player will read it, and how to make one."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .messages import MESSAGES, WHERE

LANGS = ("en", "de")


class _Blank(dict):
    """Format mapping that leaves unknown ``{names}`` visible instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(template: str, params: Mapping[str, Any]) -> str:
    try:
        return template.format_map(_Blank(params))
    except (ValueError, IndexError, AttributeError):
        return template


@dataclass(frozen=True)
class Located:
    """One problem: ``code`` (referee code or a game's), ``severity``
    ("error" | "warning"), 1-based ``line``/``column`` in the text as sent
    (None when the problem has no place), ``where`` (dotted path such as
    ``orders.delegates.1``), ``params`` and ``text`` ({lang: phrased text}).

    ``snippet`` (added field) is the offending line as sent, with any key
    value masked, so a reply can show it; "" when there is no line."""

    code: str
    severity: str
    line: int | None
    column: int | None
    where: str
    params: dict
    text: dict[str, str]
    snippet: str = field(default="", compare=False)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def describe(self, lang: str) -> str:
        """The text with its place in front: ``Line 7, column 3: ...``."""
        body = self.text.get(lang) or self.text.get("en") or self.code
        forms = WHERE.get(lang, WHERE["en"])
        if self.line is None:
            return body
        if self.column is None:
            return forms["line"].format(line=self.line) + ": " + body
        return forms["line_col"].format(line=self.line, column=self.column) + ": " + body


def referee_problem(code: str, *, line: int | None = None, column: int | None = None,
                    where: str = "", severity: str = "error", snippet: str = "",
                    **params: Any) -> Located:
    """A problem with one of the referee's own codes, phrased in every language."""
    table = MESSAGES[code]
    values = dict(params, line=line if line is not None else "?",
                  column=column if column is not None else "?")
    text = {}
    for lang in LANGS:
        message, hint = table[lang]
        text[lang] = fill(message, values) + " " + fill(hint, values)
    return Located(code, severity, line, column, where, dict(params), text, snippet)


def message_only(code: str, line: int | None, column: int | None, params: Mapping[str, Any] | None,
                 lang: str) -> str:
    """One of the referee's problems as its message alone, with its place in front and no hint
    (the hints speak of order mails; this is for a file a GM named: a match or edition file).
    ``line`` and ``column`` are 0-based, as the YAML loader gives them."""
    place = {"line": None if line is None else line + 1, "column": None if column is None else column + 1}
    text = fill(MESSAGES[code][lang][0], {**place, **(params or {})})
    return Located(code, "error", place["line"], place["column"], "", {}, {lang: text}).describe(lang)


def errors_only(problems: list[Located]) -> list[Located]:
    return [p for p in problems if p.is_error]


def by_place(problems: list[Located]) -> list[Located]:
    """Problems in reading order (unplaced ones last)."""
    return sorted(problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0))
