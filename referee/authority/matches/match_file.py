"""A match file loaded and checked (size, depth, aliases; every problem at once with its line),
the errors that say why a file cannot become a match, and what creating one returns."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from referee.authority.matches.spec import MatchSpec
from referee.authority.matches.spec_check import check_spec
from referee.authority.timing import Timing
from referee.intake import checks
from referee.intake.problems import Located, referee_problem
from referee.intake.safe_yaml import YamlRefused, load_checked


class MatchError(ValueError):
    """A match file that cannot become a match; ``problems`` says why, line by line."""

    def __init__(self, problems: list[str], german: list[str] | None = None) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
        self.german = german or None   # the same in German where they have German words (issue 35)

    def said(self, lang: str) -> str:
        """The problems in ``lang`` (English where a problem has no German words)."""
        return "; ".join(self.lines(lang))

    def lines(self, lang: str) -> list[str]:
        """The problems in ``lang``, one a line (``referee new`` prints them so)."""
        return self.german if lang == "de" and self.german else self.problems


@dataclass
class Created:
    match: str
    gm_key: str


class MatchFileRefused(MatchError):
    """A match file the capped YAML loader refused (too large, too deep, too many
    values, an alias or a tag); ``problem`` says so in every language."""

    def __init__(self, problem: Located) -> None:
        super().__init__([problem.text["en"]], [problem.text["de"]] if "de" in problem.text else None)
        self.problem = problem


_IN_MATCH_FILE = {"en": ("In the match file: ", "In the match file, l"), "de": ("In der Partiedatei: ", "In der Partiedatei, Z")}


def _refused(err: YamlRefused) -> MatchFileRefused:
    line = err.line + 1 if err.line is not None else None
    column = err.column + 1 if err.column is not None else None
    said = referee_problem(err.code, line=line, column=column, **(err.params or {}))
    text = {}
    for lang in said.text:
        plain, placed = _IN_MATCH_FILE.get(lang, _IN_MATCH_FILE["en"])
        body = said.describe(lang)
        text[lang] = placed + body[1:] if line is not None else plain + body   # "Line 2: ..." -> ", line 2: ..."
    return MatchFileRefused(Located(err.code, "error", None, None, "", dict(err.params or {}), text))


def load_spec(source: str | Mapping, now: datetime | None = None, marks: dict | None = None) -> MatchSpec:
    """A match file (YAML text, on disk or mailed, or a mapping already read),
    loaded with the limits of an order document: size, depth, number of values,
    no anchors, aliases or tags; then checked in one pass (``spec_check``), every
    problem at once with its line (of a mapping: by ``marks``, see ``marks_within``).
    With ``now``, the schedule too."""
    if isinstance(source, str):
        try:
            loaded = load_checked(source)
        except YamlRefused as err:
            raise _refused(err) from None
        data, marks = loaded.data, loaded.marks
    else:
        data = dict(source)
    german: list[str] = []
    spec, problems = check_spec(data, marks, now, Timing, german)
    if problems:
        raise MatchError(problems, german)
    return spec


def within_the_calendar(timing, now) -> None:
    """Every span of a schedule and its first deadline within a year, so that no
    deadline, grace or reminder computed from them can leave the calendar."""
    schedule = timing.schedule
    for name in ("period", "grace", "min_turn"):
        if getattr(schedule, name) is not None:
            checks.duration(getattr(schedule, name), name)
    for offset in schedule.reminders:
        checks.duration(offset, "reminders")
    checks.moment(timing.first_deadline(now), now, "first_deadline")


_LANG_LINE = re.compile(r"^lang(?:uage)?[ \t]*:[ \t]*[\"']?(\w+)", re.M)


def file_lang(source) -> str | None:
    """The language a match file names (``lang:``), read even from a file that is
    otherwise wrong, so that its problems are said in it; None if it names none."""
    data = source
    if isinstance(source, str):
        try:
            data = load_checked(source).data
        except YamlRefused:   # unreadable as YAML: its own top-level line, if there is one
            found = _LANG_LINE.search(source[:65536])   # a file too large is refused anyway
            data = {"lang": found.group(1)} if found else None
    if not isinstance(data, Mapping):
        return None
    lang = data.get("lang", data.get("language"))
    return lang if isinstance(lang, str) and lang in checks.LANGUAGES else None


def marks_within(doc, keys: tuple[str, ...]) -> dict | None:
    """A match file mailed as a mapping under one of ``keys`` of the mail's document:
    the places of its values, by their path within the file, as lines of the mail as
    sent (0-based, as the YAML loader's), so its problems keep the lines the GM sees."""
    marks = getattr(doc, "marks", None) or {}
    top = next((p for p in marks if len(p) == 1 and str(p[0]).strip().lower() in keys), None)
    if top is None:
        return None

    def sent(mark):
        line, column = doc.to_source(*mark)
        return (line - 1, column - 1)
    return {path[1:]: (sent(key) if key is not None else None, sent(value), collection)
            for path, (key, value, collection) in marks.items() if path[:1] == top and len(path) > 1}

