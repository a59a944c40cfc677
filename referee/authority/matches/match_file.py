"""A match file loaded and checked (size, depth, aliases; every problem at once with its line),
the errors that say why a file cannot become a match, and what creating one returns."""
from __future__ import annotations

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
        return "; ".join(self.german if lang == "de" and self.german else self.problems)


@dataclass
class Created:
    match: str
    gm_key: str


class MatchFileRefused(MatchError):
    """A match file the capped YAML loader refused (too large, too deep, too many
    values, an alias or a tag); ``problem`` says so in every language."""

    def __init__(self, problem: Located) -> None:
        super().__init__([problem.text["en"]])
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


def load_spec(source: str | Mapping, now: datetime | None = None) -> MatchSpec:
    """A match file (YAML text, on disk or mailed, or a mapping already read),
    loaded with the limits of an order document: size, depth, number of values,
    no anchors, aliases or tags; then checked in one pass (``spec_check``), every
    problem at once with its line.  With ``now``, the schedule too."""
    marks = None
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
