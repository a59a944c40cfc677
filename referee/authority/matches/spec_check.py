"""A match file checked in one pass: every problem at once, each with its line,
in the GM's words (not pydantic's).  The fields, the game and its options, the
players (ids and addresses unique) and the schedule (a first deadline in the
past is refused, not moved) are all looked at, whichever of them fails."""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from datetime import datetime

from pydantic import ValidationError

from referee.authority.bot_words import SPEC_TEXTS as BOT_SPEC_TEXTS
from referee.authority.matches.spec import (
    AbsenceSpec,
    BotProblem,
    CloseGuardSpec,
    DropoutSpec,
    MatchSpec,
    ObserverSpec,
    OutageSpec,
    PlayerSpec,
)
from referee.authority.matches.talk_spec import PressSpec
from referee.bots import STRENGTHS
from referee.game_api import registry
from referee.game_api.contract import phrase
from referee.game_api.schema_words import place
from referee.intake import checks

MAX_PROBLEMS = 40
_FIELDS = {"": MatchSpec, "players": PlayerSpec, "observers": ObserverSpec, "press": PressSpec,
           "dropouts": DropoutSpec, "absence": AbsenceSpec}   # the last two: issue 18, seats
# -- hardening (issue 13, ops): the outage and close guard options' own fields
_FIELDS.update({"outage": OutageSpec, "close_guard": CloseGuardSpec})


def check_spec(data, marks: Mapping[tuple, tuple] | None, now: datetime | None = None,
               timing_of=None, german: list[str] | None = None) -> tuple[MatchSpec | None, list[str]]:
    """(the spec, []) or (None, every problem as "line N: what is wrong").
    ``marks``: path -> (key mark, value mark, ...) from the YAML loader (None for
    a mapping given directly).  With ``now`` and ``timing_of(schedule, tz,
    early_close)`` (the match's Timing), the file is checked as a match about to
    be created: the game installed, its options, the schedule.  ``german``: filled with
    the same problems in German (a check's own message, or a schedule's, in English)."""
    marks = marks or {}
    found: list[tuple[int, str, str]] = []

    def add(path: tuple, text: str, text_de: str | None = None) -> None:
        found.append((_line(marks, path), text, text_de or text))

    if not isinstance(data, dict):
        return None, ["a match file is a list of 'name: value' lines (id:, game:, players:, gm: ...)"]
    spec = None
    try:
        spec = MatchSpec.model_validate(data)
    except ValidationError as e:
        for err in e.errors():
            if "must be unique" in err["msg"]:
                continue   # said below, seat by seat
            path = tuple(err["loc"])
            error = err.get("ctx", {}).get("error")
            if isinstance(error, BotProblem):   # issue 35: said in en and de
                en, de = BOT_SPEC_TEXTS[error.code]
                if error.code in _ALSO:
                    en, de = en + _ALSO[error.code][0], de + _ALSO[error.code][1]
                where, known, one = place(path) or "the file", ", ".join(STRENGTHS), next(iter(STRENGTHS))
                add(path, en.format(where=where, known=known, one=one), de.format(where=where, known=known, one=one))
                continue
            add(path, *_said(err, path))
    players = data.get("players") if isinstance(data.get("players"), list) else []
    _unique(players, add)
    rules = _game(data.get("game"), add) if now is not None else None
    if rules is not None and isinstance(players, list):
        ids = [p.get("id") for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
        if spec is not None:   # issue 18: an open match is checked with its seats all taken
            ids += spec.free_seats()
        options = dict(data.get("options") or {}) if isinstance(data.get("options"), dict) else {}
        if data.get("edition") is not None:
            options.setdefault("edition", data["edition"])
        try:
            for problem in rules.check_options(ids, options):
                if problem.is_error and problem.code != "options.players_unique":   # said seat by seat
                    add(("options",) if problem.where.startswith("options") else ("players",), phrase(rules, problem, "en"),
                        phrase(rules, problem, "de"))
        except Exception as e:  # a game's check that breaks on odd options still gets its line
            add(("options",), f"options: the game could not read them ({e.__class__.__name__})")
    if now is not None and timing_of is not None:
        _schedule(data, now, timing_of, add)
    if not found and spec is not None:
        return spec, []
    found.sort(key=lambda f: f[0])
    texts = [f"line {line}: {text}" if line else text for line, text, _ in found]
    if german is not None:
        german[:] = [f"Zeile {line}: {text}" if line else text for line, _, text in found][:MAX_PROBLEMS]
    if len(texts) > MAX_PROBLEMS:
        texts = texts[:MAX_PROBLEMS] + [f"... and {len(texts) - MAX_PROBLEMS} more"]
    return None, texts or ["the match file could not be read"]


def _line(marks, path: tuple) -> int:
    """The 1-based line of ``path`` or of the nearest enclosing value that is there."""
    path = tuple(path)
    while path:
        mark = marks.get(path)
        if mark is not None:
            at = mark[0] or mark[1]
            return at[0] + 1
        path = path[:-1]
    return 0


# a form of a bot option the file may use that its words (bot_words.SPEC_TEXTS) leave out
_ALSO = {"bot.value": ("; a strength alone works too (bot: {one})", "; eine Spielstärke allein geht auch (bot: {one})")}
_WANTED = {"list_type": ("a list", "eine Liste"), "dict_type": ("a mapping", "eine Zuordnung (name: wert)"),
           "string_type": ("text", "ein Text"), "bool_type": ("true or false", "true oder false"),
           "model_type": ("a mapping", "eine Zuordnung (name: wert)")}


def _said(err: dict, path: tuple) -> tuple[str, str]:
    """A pydantic error as the GM would say it, in English and German (a check's
    own message, the last case, has English words only)."""
    where = place(path) or "the file"
    kind = err["type"]
    if kind == "missing":
        return f"{where} is missing", f"{where} fehlt"
    if kind == "extra_forbidden":
        model = _FIELDS.get(str(path[0]) if len(path) > 1 and not isinstance(path[0], int) else "", MatchSpec)
        if len(path) > 2 and path[0] in ("players", "observers"):
            model = _FIELDS[path[0]]
        known = sorted({f.alias or n for n, f in model.model_fields.items()})
        near = difflib.get_close_matches(str(path[-1]), known, n=1)
        inside = f"{place(path[:-1])}: " if len(path) > 1 else ""
        if near:
            return (f"{inside}unknown field '{path[-1]}' (did you mean '{near[0]}'?)",
                    f"{inside}unbekanntes Feld '{path[-1]}' (meintest du '{near[0]}'?)")
        return (f"{inside}unknown field '{path[-1]}' (known: {', '.join(known)})",
                f"{inside}unbekanntes Feld '{path[-1]}' (bekannt: {', '.join(known)})")
    if kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "").replace(chr(39), "")
        given = repr(checks.echo(err.get("input")))
        return f"{where}: {given} is not one of {expected}", f"{where}: {given} ist keiner der Werte {expected}"
    if kind in _WANTED:
        en, de = _WANTED[kind]
        return f"{where} must be {en}", f"{where} muss {de} sein"
    message = err["msg"].removeprefix("Value error, ")
    # the checks name the field themselves ("name: holds a control character"): the path says it better
    for own in (f"{path[-1]}:" if path else "", "address:", "text:"):
        if own and message.startswith(own):
            message = message[len(own):].strip()
            break
    return f"{where}: {message}", f"{where}: {message}"


def _unique(players: list, add) -> None:
    seen_ids: dict[str, int] = {}
    seen_mail: dict[str, int] = {}
    for index, p in enumerate(players):
        if not isinstance(p, dict):
            continue
        pid, mail = p.get("id"), p.get("email")
        if isinstance(pid, str):
            if pid in seen_ids:
                add(("players", index, "id"), f"players[{index + 1}]: the id '{checks.echo(pid)}' is taken by "
                                              f"players[{seen_ids[pid] + 1}]; every seat needs an id of its own",
                    f"players[{index + 1}]: die ID '{checks.echo(pid)}' hat schon players[{seen_ids[pid] + 1}]; "
                    "jeder Platz braucht eine eigene")
            seen_ids.setdefault(pid, index)
        if isinstance(mail, str):
            mail = mail.strip().lower()
            if mail in seen_mail:
                add(("players", index, "email"), f"players[{index + 1}]: {checks.echo(mail)} already plays "
                                                 f"players[{seen_mail[mail] + 1}]; one address, one seat",
                    f"players[{index + 1}]: {checks.echo(mail)} spielt schon players[{seen_mail[mail] + 1}]; "
                    "eine Adresse, ein Platz")
            seen_mail.setdefault(mail, index)


def _game(name, add):
    if not isinstance(name, str):
        return None
    try:
        return registry.get(name)
    except LookupError:
        near = difflib.get_close_matches(name, registry.names(), n=1)
        add(("game",), f"no game '{checks.echo(name)}' is installed" +
            (f" (did you mean '{near[0]}'?)" if near else f" (installed: {', '.join(registry.names())})"),
            f"das Spiel '{checks.echo(name)}' ist nicht installiert" +
            (f" (meintest du '{near[0]}'?)" if near else f" (installiert: {', '.join(registry.names())})"))
        return None


def _schedule(data: dict, now: datetime, timing_of, add) -> None:
    schedule = data.get("schedule") or {}
    if not isinstance(schedule, dict):
        return   # already said: schedule must be a mapping
    tz = data.get("timezone", "UTC")
    try:
        timing = timing_of(schedule, tz if isinstance(tz, str) else "UTC", data.get("early_close", True) is not False)
    except ValidationError as e:
        for err in e.errors():
            field = [str(p) for p in err["loc"]]
            path = ("schedule", *field) if field and field[0] in schedule else (("timezone",) if "timezone" in field else ("schedule",))
            where = f"schedule{'.' + '.'.join(field) if field else ''}: "
            german = getattr((err.get("ctx") or {}).get("error"), "german", None)   # a ScheduleError's
            add(path, where + err["msg"].removeprefix("Value error, "), where + german if german else None)
        return
    except Exception as e:
        add(("schedule",), f"schedule: {checks.echo(str(e), 200)}")
        return
    first = timing.schedule.first_deadline
    if first is not None and first <= now:
        add(("schedule", "first_deadline"),
            f"schedule.first_deadline {first:%Y-%m-%d %H:%M} ({tz}) has passed; give a later one, "
            "or leave it out to start the clock now",
            f"schedule.first_deadline {first:%Y-%m-%d %H:%M} ({tz}) ist schon vorbei; gib einen späteren an "
            "oder lass ihn weg, dann läuft die Frist ab jetzt")
        return
    try:
        for name in ("period", "grace", "min_turn"):
            if getattr(timing.schedule, name, None) is not None:
                checks.duration(getattr(timing.schedule, name), name)
        for offset in timing.schedule.reminders:
            checks.duration(offset, "reminders")
        checks.moment(timing.first_deadline(now), now, "first_deadline")
    except checks.Invalid as e:
        add(("schedule",), f"schedule: {e}")
