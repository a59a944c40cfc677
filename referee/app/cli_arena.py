"""``referee arena GAME``: bots against random legal players (or against bots) in
process, and the figures per seat and strategy, in English or German: a GM's way to try
an edition, a variant or the bot itself (issue 35)."""
from __future__ import annotations

import statistics

import click

from referee.app.arena import RANDOM, ArenaResult, mean_interval, run_arena, wilson
from referee.app.cli_errors import Usage
from referee.bots import STRENGTHS
from referee.game_api import registry

MAX_GAMES = 100_000
MAX_SEED = 200

# every line a GM reads, in both languages (key -> {lang: text}; a pair is (what, what to do))
WORDS = {
    "unknown_game": {
        "en": ("unknown game {game!r}", "installed: {names} (`referee games`)"),
        "de": ("unbekanntes Spiel {game!r}", "installiert: {names} (`referee games`)"),
    },
    "games": {
        "en": ("--games must be between 1 and {max}, not {n}", "give the number of matches to play"),
        "de": ("--games muss zwischen 1 und {max} liegen, nicht {n}", "gib die Zahl der Partien an"),
    },
    "players": {
        "en": ("{game} is played by {lo} to {hi} players, not {n}", "give --players between {lo} and {hi}"),
        "de": ("{game} ist für {lo} bis {hi} Spieler, nicht {n}", "gib --players zwischen {lo} und {hi} an"),
    },
    "seed": {
        "en": ("--seed is too long ({n} characters, at most {max})", "give a shorter seed"),
        "de": ("--seed ist zu lang ({n} Zeichen, höchstens {max})", "gib einen kürzeren Seed an"),
    },
    "options_file": {
        "en": ("{file} cannot be used: {why}", "give a match file (YAML) whose options: (and edition:) to play with"),
        "de": ("{file} ist nicht verwendbar: {why}", "gib eine Partiedatei (YAML) an, deren options: (und edition:) gespielt werden sollen"),
    },
    "options_not_mapping": {
        "en": "its options: are not a mapping (name: value lines)",
        "de": "ihre options: sind keine Zuordnung (Zeilen Name: Wert)",
    },
    "no_match_file": {
        "en": "it is no match file (name: value lines)",
        "de": "sie ist keine Partiedatei (Zeilen Name: Wert)",
    },
    "no_file": {
        "en": "there is no such file",
        "de": "diese Datei gibt es nicht",
    },
    "unreadable": {
        "en": "it cannot be read (a folder, or not allowed)",
        "de": "sie ist nicht lesbar (ein Ordner, oder nicht erlaubt)",
    },
    "not_text": {
        "en": "it is not UTF-8 text",
        "de": "sie ist kein UTF-8-Text",
    },
    "options_bad": {
        "en": ("the options do not suit {game}: {why}", "correct the options in the file"),
        "de": ("die Optionen passen nicht zu {game}: {why}", "berichtige die Optionen in der Datei"),
    },
    "head": {
        "en": "{title}: {games} {matches}, {players} players, bot strength {strength} against {against}, seed {seed!r}",
        "de": "{title}: {games} {matches}, {players} Spieler, Bot-Stärke {strength} gegen {against}, Seed {seed!r}",
    },
    "cols": {
        "en": "seat  strategy          games   wins  win rate  95% interval",
        "de": "Platz Strategie         Partien Siege Siegquote 95%-Intervall",
    },
    "all": {
        "en": "all",
        "de": "alle",
    },
    "length": {
        "en": "game length: mean {mean} turns (min {lo}, max {hi}){stopped}",
        "de": "Spieldauer: im Mittel {mean} Züge (mindestens {lo}, höchstens {hi}){stopped}",
    },
    "stopped": {
        "en": "; {n} stopped after the turn limit, won by nobody",
        "de": "; {n} beim Zuglimit abgebrochen, ohne Sieger",
    },
    "unwon": {
        "en": "no player won {n} of {games} matches ({rate}): a common defeat, or a non-player's win",
        "de": "{n} von {games} Partien ({rate}) gewann kein Spieler: gemeinsame Niederlage oder Sieg einer Nichtspielerfigur",
    },
    "timing": {
        "en": "{strategy}: {n} decisions, {mean} s mean, {max} s max per decision (CPU time, one core)",
        "de": "{strategy}: {n} Entscheidungen, im Mittel {mean} s, höchstens {max} s je Entscheidung (CPU-Zeit, ein Kern)",
    },
    "matches": {
        "en": ("match", "matches"),
        "de": ("Partie", "Partien"),
    },
    # one final score per seat and match: a strategy in two seats of each match has twice as many
    "score": {
        "en": "{strategy}: final score {mean} mean (95% interval {lo} – {hi}) of {n} final scores (one a seat and match)",
        "de": "{strategy}: Endstand im Mittel {mean} (95%-Intervall {lo} – {hi}) aus {n} Endständen (einer je Platz und Partie)",
    },
    "one_score": {
        "en": "{strategy}: final score {mean} (one seat in one match)",
        "de": "{strategy}: Endstand {mean} (ein Platz in einer Partie)",
    },
    "refused": {
        "en": "the game refused {n} bot orders (replaced by its default orders): a fault of the bot",
        "de": "das Spiel wies {n} Befehle des Bots zurück (durch seine Standardbefehle ersetzt): ein Fehler des Bots",
    },
    "fair": {
        "en": "a fair share would be {share} for each seat",
        "de": "ein gerechter Anteil wäre {share} je Platz",
    },
    "random": {
        "en": "random legal players",
        "de": "zufällige legale Spieler",
    },
}
LANGS = ("en", "de")


def texts(lang: str) -> dict:
    return {"lang": lang, **{key: words[lang] for key, words in WORDS.items()}}



def _strategy(name: str, lang: str) -> str:
    return name if name != RANDOM else ("zufall" if lang == "de" else "random")


def num(value: float, spec: str, lang: str) -> str:
    """``value`` formatted by ``spec`` (``.1f``, ``.0%``), with German's decimal comma."""
    text = format(value, spec)
    return text.replace(".", ",") if lang == "de" else text


def _row(seat: str, strategy: str, games: int, wins: float, lang: str) -> str:
    low, high = wilson(wins, games)
    return (f"{seat:5} {strategy:17} {games:6} {wins:6.0f}  {num(wins / games, '7.1%', lang)}   "
            f"{num(low, '.1%', lang)} – {num(high, '.1%', lang)}")


def report(res: ArenaResult, lang: str, head: str) -> list[str]:
    t = texts(lang)
    lines = [head, t["cols"]]
    for (seat, how), tally in sorted(res.by_seat.items()):
        lines.append(_row(str(seat), _strategy(how, lang), tally.games, tally.wins, lang))
    for how in res.strategies:
        tally = res.by_strategy[how]
        lines.append(_row(t["all"], _strategy(how, lang), tally.games, tally.wins, lang))
    lines.append(t["fair"].format(share=num(1 / res.players, ".0%", lang)))
    stopped = t["stopped"].format(n=res.unfinished) if res.unfinished else ""
    lines.append(t["length"].format(mean=num(statistics.mean(res.lengths), ".1f", lang), lo=min(res.lengths),
                                    hi=max(res.lengths), stopped=stopped))
    if res.unwon:
        games = len(res.lengths)
        lines.append(t["unwon"].format(n=res.unwon, games=games, rate=num(res.unwon / games, ".0%", lang)))
    for how in res.strategies:
        times = res.by_strategy[how].times
        if times:
            lines.append(t["timing"].format(strategy=how, n=len(times), mean=num(statistics.mean(times), ".3f", lang),
                                            max=num(max(times), ".3f", lang)))
    for how in res.strategies:
        scores = res.by_strategy[how].scores
        mean = num(statistics.mean(scores), ".1f", lang) if scores else ""
        if len(scores) >= 2:
            lo, hi = mean_interval(scores)
            lines.append(t["score"].format(strategy=_strategy(how, lang), mean=mean, lo=num(lo, ".1f", lang),
                                           hi=num(hi, ".1f", lang), n=len(scores)))
        elif scores:
            lines.append(t["one_score"].format(strategy=_strategy(how, lang), mean=mean))
    if res.refused:
        lines.append(t["refused"].format(n=res.refused))
    return lines


def output_lang(rules, lang: str | None) -> str:
    """The asked language, else the game's first (as `referee rules`), else English."""
    return lang or (rules.languages[0] if rules.languages[0] in LANGS else "en")


def read_options(path: str | None, t: dict) -> dict:
    """``options:`` of a match file (its edition file read in, as `referee new` does), capped
    and loaded with the referee's YAML limits; {} without a file."""
    if path is None:
        return {}
    from pathlib import Path

    from referee.authority.matches.edition_file import MAX_EDITION_BYTES, inline_edition
    from referee.authority.matches.match_file import MatchError
    from referee.intake.problems import message_only
    from referee.intake.safe_yaml import YamlRefused, load_checked

    what, todo = t["options_file"]
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_EDITION_BYTES + 1).decode("utf-8")
        data = inline_edition(text, Path(path).resolve().parent)
        if isinstance(data, str):
            data = load_checked(data, max_bytes=MAX_EDITION_BYTES).data
    except FileNotFoundError:
        raise Usage(what.format(file=path, why=t["no_file"]), todo) from None
    except OSError:
        raise Usage(what.format(file=path, why=t["unreadable"]), todo) from None
    except UnicodeDecodeError:
        raise Usage(what.format(file=path, why=t["not_text"]), todo) from None
    except YamlRefused as e:
        why = message_only(e.code, e.line, e.column, e.params, t["lang"])
        raise Usage(what.format(file=path, why=why), todo) from None
    except MatchError as e:
        raise Usage(what.format(file=path, why=e.said(t["lang"])[:300]), todo) from None
    if not isinstance(data, dict):
        raise Usage(what.format(file=path, why=t["no_match_file"]), todo)
    options = data.get("options", {})   # a match file without options: plays the game's own, as `referee new`
    if not isinstance(options, dict):
        raise Usage(what.format(file=path, why=t["options_not_mapping"]), todo)
    return options


def check_args(game: str, players: int | None, games: int, seed: str, lang: str | None):
    """The rules and the player count, or a Usage error in the asked language."""
    names = registry.names()
    t = texts(lang or "en")
    if game not in names:   # no game yet to take the language from: English unless asked
        what, todo = t["unknown_game"]
        raise Usage(what.format(game=game), todo.format(names=", ".join(names)))
    rules = registry.get(game)
    t = texts(output_lang(rules, lang))
    if not 1 <= games <= MAX_GAMES:
        what, todo = t["games"]
        raise Usage(what.format(max=MAX_GAMES, n=games), todo)
    if len(seed) > MAX_SEED:
        what, todo = t["seed"]
        raise Usage(what.format(n=len(seed), max=MAX_SEED), todo)
    lo, hi = rules.min_players, rules.max_players
    n = players if players is not None else max(lo, min(2, hi))
    if not lo <= n <= hi:
        what, todo = t["players"]
        raise Usage(what.format(game=rules.title, lo=lo, hi=hi, n=n), todo.format(lo=lo, hi=hi))
    return rules, n


def check_options(rules, n: int, options: dict, lang: str) -> None:
    from referee.app.arena import seat_names
    from referee.game_api.contract import phrase

    errors = [p for p in rules.check_options(seat_names(n), options) if p.is_error]
    if errors:
        what, todo = texts(lang)["options_bad"]
        raise Usage(what.format(game=rules.title, why="; ".join(phrase(rules, p, lang) for p in errors[:3])), todo)


@click.command()
@click.argument("game")
@click.option("--players", type=int, default=None, help="players per match (default: 2, or the game's least)")
@click.option("--games", type=int, default=20, show_default=True, help="matches to play")
@click.option("--seed", default="arena", show_default=True, help="the same seed plays the same matches")
@click.option("--strength", type=click.Choice(list(STRENGTHS)), default="default", show_default=True,
              help="the bot's strength (its budget of play-outs)")
@click.option("--against", type=click.Choice([RANDOM, *STRENGTHS]), default=RANDOM, show_default=True,
              help="the other seats: random legal players, or bots of this strength")
@click.option("--options", "options_file", metavar="FILE", default=None,
              help="a match file whose options: (a variant, an edition: file) the matches are played with")
@click.option("--lang", type=click.Choice(list(LANGS)), default=None,
              help="language of the output (default: the game's first language)")
def arena(game, players, games, seed, strength, against, options_file, lang):
    """Play bots against random legal players (or bots) in GAME and print win rates.

    \b
    One bot sits in each match, in seat 1, 2, ... in turn; the other seats are random
    legal players (or bots, with --against).  Per seat and strategy the table gives
    the matches, the wins (a shared first place counts for each who shares it), the
    win rate and its 95% interval (Wilson).  A fair share is 1 / players; a strong bot
    wins at least twice that.  Then the game length, how often no player won, the CPU
    time per decision and the mean final scores.  'fast' decides in a few hundredths
    of a second, 'default' in up to about 2 s (one core)."""
    rules, n = check_args(game, players, games, seed, lang)
    lang = output_lang(rules, lang)
    t = texts(lang)
    options = read_options(options_file, t)
    check_options(rules, n, options, lang)
    res = run_arena(rules, n, games, seed, strength, against, options=options)
    who = t["random"] if against == RANDOM else f"bot:{against}"
    head = t["head"].format(title=rules.title, games=games, matches=t["matches"][games != 1], players=n,
                            strength=strength, against=who, seed=seed)
    click.echo("\n".join(report(res, lang, head)))
