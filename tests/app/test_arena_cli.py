"""Issue 35: ``referee arena GAME`` plays bots against random legal players in process and
prints, per seat and strategy, the win rate with a 95% Wilson interval, the game length and
the time per decision, in English or German; hostile arguments get a clear usage error."""
from __future__ import annotations

import re

import pytest

from referee.app.arena import lineup, play_match, wilson
from referee.app.cli import main
from referee.game_api import registry


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(["arena", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_arena_prints_win_rates_per_seat_and_strategy(capsys):
    code, out, _ = run(capsys, "revolution_1848", "--games", "2", "--strength", "fast", "--seed", "t", "--lang", "en")
    assert code == 0
    assert "1848: 2 matches, 2 players, bot strength fast against random legal players" in out
    rows = re.findall(r"^(\S+)\s+(bot:fast|random)\s+(\d+)\s+(\d+)\s+([\d.]+)%\s+([\d.]+)% – ([\d.]+)%$", out, re.M)
    seats = {(r[0], r[1]) for r in rows}
    assert {("1", "bot:fast"), ("2", "bot:fast"), ("1", "random"), ("2", "random"), ("all", "bot:fast")} <= seats
    total = next(r for r in rows if r[:2] == ("all", "bot:fast"))
    assert total[2] == "2" and float(total[5]) <= float(total[4]) <= float(total[6])
    assert re.search(r"game length: mean [\d.]+ turns", out)
    assert re.search(r"bot:fast: \d+ decisions, [\d.]+ s mean, [\d.]+ s max per decision", out)


def test_arena_prints_the_final_scores_in_both_languages(capsys):
    code, out, _ = run(capsys, "revolution_1848", "--games", "2", "--strength", "fast", "--seed", "t", "--lang", "en")
    assert code == 0
    found = re.findall(r"^(bot:fast|random): final score ([\d.-]+) mean \(95% interval ([\d.-]+) – ([\d.-]+)\) "
                       r"of 2 final scores \(one a seat and match\)$", out, re.M)
    assert {f[0] for f in found} == {"bot:fast", "random"}
    assert all(float(lo) <= float(mean) <= float(hi) for _, mean, lo, hi in found)
    _, aus, _ = run(capsys, "revolution_1848", "--games", "2", "--strength", "fast", "--seed", "t", "--lang", "de")
    assert re.search(r"^zufall: Endstand im Mittel [\d,-]+ \(95%-Intervall [\d,-]+ – [\d,-]+\) aus 2 Endständen "
                     r"\(einer je Platz und Partie\)$", aus, re.M)


ONE_FF_MATCH = ("founding_fathers", "--players", "3", "--games", "1", "--strength", "fast", "--seed", "s1")


def test_arena_counts_final_scores_not_matches_and_names_a_lone_one(capsys):
    """Three seats, one match: the two random seats give two final scores of that one match,
    and the bot's single score is shown without an interval."""
    code, out, _ = run(capsys, *ONE_FF_MATCH, "--lang", "en")
    assert code == 0
    assert out.startswith("Founding Fathers: 1 match, 3 players")
    assert re.search(r"^random: final score [\d.]+ mean \(95% interval [\d.-]+ – [\d.]+\) of 2 final scores", out, re.M)
    assert re.search(r"^bot:fast: final score [\d.]+ \(one seat in one match\)$", out, re.M)


def test_arena_writes_german_numbers_with_a_decimal_comma(capsys):
    code, out, _ = run(capsys, *ONE_FF_MATCH, "--lang", "de")
    assert code == 0
    assert out.startswith("Founding Fathers: 1 Partie, 3 Spieler")
    assert re.search(r"^alle\s+bot:fast\s+1\s+1\s+100,0%\s+20,7% – 100,0%$", out, re.M)
    assert re.search(r"^Spieldauer: im Mittel \d+,\d Züge", out, re.M)
    assert not re.search(r"\d\.\d", out.split("\n", 1)[1]), "a decimal point in the German figures"


def test_a_solo_bot_plays_for_its_score_not_blind():
    """With one seat there is no rival to rank against: the bot is led by its own score (it used
    to value every position alike and played worse than chance)."""
    rules = registry.get("nations_dice")
    bot, rnd = [], []
    for i in range(2):
        bot.append(play_match(rules, lineup(1, i, "default", "random"), f"solo:{i}")[0]["scores"]["seat1"])
        rnd.append(play_match(rules, lineup(1, i, "random", "random"), f"solo:{i}")[0]["scores"]["seat1"])
    assert sum(bot) > sum(rnd) + 10, (bot, rnd)


def test_arena_says_how_often_no_player_won_in_both_languages(capsys):
    """Twelve Ratsspiel players lose most matches together (Korruption 13): the win rates alone
    would hide it."""
    args = ["perricumer_ratsspiel", "--players", "12", "--games", "3", "--strength", "fast", "--seed", "none"]
    code, out, _ = run(capsys, *args, "--lang", "en")
    assert code == 0
    found = re.search(r"^no player won (\d) of 3 matches \((\d+)%\): a common defeat, or a non-player's win$", out, re.M)
    assert found and int(found[1]) >= 1 and int(found[2]) == round(100 * int(found[1]) / 3)
    wins = re.search(r"^all\s+bot:fast\s+3\s+(\d+)", out, re.M)
    rivals = re.search(r"^all\s+random\s+33\s+(\d+)", out, re.M)
    assert int(wins[1]) + int(rivals[1]) + int(found[1]) == 3, "each match: a player first, or none"
    _, aus, _ = run(capsys, *args, "--lang", "de")
    assert re.search(rf"^{found[1]} von 3 Partien \(\d+%\) gewann kein Spieler: gemeinsame Niederlage oder Sieg "
                     r"einer Nichtspielerfigur$", aus, re.M)


def test_arena_speaks_german(capsys):
    code, out, _ = run(capsys, "revolution_1848", "--games", "1", "--strength", "fast", "--lang", "de")
    assert code == 0
    assert "1 Partie, 2 Spieler, Bot-Stärke fast gegen zufällige legale Spieler" in out
    assert "Spieldauer: im Mittel" in out and "zufall" in out


def test_arena_same_seed_same_figures(capsys):
    args = ("founding_fathers", "--players", "3", "--games", "1", "--strength", "fast", "--seed", "s")
    first = run(capsys, *args)[1]
    second = run(capsys, *args)[1]
    cut = lambda text: [line for line in text.splitlines() if " s mean" not in line]  # noqa: E731
    assert cut(first) == cut(second)


@pytest.mark.parametrize("args,lang,words", [
    (["nosuchgame"], "en", "unknown game 'nosuchgame'"),
    (["nosuchgame", "--lang", "de"], "de", "unbekanntes Spiel 'nosuchgame'"),
    (["founding_fathers", "--games", "-3"], "en", "--games must be between 1 and 100000, not -3"),
    (["founding_fathers", "--games", "0", "--lang", "de"], "de", "--games muss zwischen 1 und 100000 liegen, nicht 0"),
    (["founding_fathers", "--players", "9"], "en", "Founding Fathers is played by 3 to 5 players, not 9"),
    (["founding_fathers", "--players", "1", "--lang", "de"], "de", "Founding Fathers ist für 3 bis 5 Spieler, nicht 1"),
    (["founding_fathers", "--seed", "x" * 201], "en", "--seed is too long (201 characters, at most 200)"),
    (["founding_fathers", "--strength", "godlike"], "en", "Invalid value for '--strength'"),
    (["founding_fathers", "--games", "many"], "en", "Invalid value for '--games'"),
])
def test_arena_refuses_hostile_arguments(capsys, args, lang, words):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert words in err and not out


def test_wilson_interval():
    low, high = wilson(150, 200)
    assert round(low, 3) == 0.686 and round(high, 3) == 0.805
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_bot_seat_rotates_and_every_bot_order_is_accepted():
    assert [lineup(3, i, "fast", "random").index("bot:fast") for i in range(4)] == [0, 1, 2, 0]
    assert lineup(2, 0, "default", "fast") == ["bot:default", "bot:fast"]
    rules = registry.get("nations_dice")
    outcome, turns, times, refused = play_match(rules, ["bot:fast", "random"], "rotate")
    assert outcome is not None and turns > 0 and refused == 0
    assert times["seat1"] and not times["seat2"]


@pytest.mark.parametrize("content", [
    "id: try\ngame: nations_dice\noptions:\n  variant: accelerated\n",
    "id: try\ngame: nations_dice\n",   # no options: the game's own, as `referee new` plays it
])
def test_arena_plays_the_options_of_a_match_file(capsys, tmp_path, content):
    match = tmp_path / "match.yaml"
    match.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "nations_dice", "--games", "1", "--strength", "fast", "--options", str(match))
    assert code == 0, err
    assert "bot:fast" in out


@pytest.mark.parametrize("content,lang,words", [
    ("options:\n  variant: backwards\n", "en", "the options do not suit Nations: The Dice Game"),
    ("options:\n  variant: backwards\n", "de", "die Optionen passen nicht zu Nations: The Dice Game"),
    ("options: [1, 2\n", "en", "cannot be used: Line 1, column 10: YAML syntax error: did not find expected ',' or ']'."),
    ("options: [1, 2\n", "de", "ist nicht verwendbar: Zeile 1, Spalte 10: YAML-Syntaxfehler: ein ',' oder ']' fehlt."),
    ("just words\n", "de", "ist nicht verwendbar: sie ist keine Partiedatei (Zeilen Name: Wert)"),
    ("options: 5\n", "en", "cannot be used: its options: are not a mapping"),
    ("options:\n  x: " + "y" * 600_000 + "\n", "en", "cannot be used: The document is 512001 bytes long; at most 512000 are accepted.\n"),
    (b"\xff\xfe", "en", "cannot be used: it is not UTF-8 text"),
    (b"\xff\xfe", "de", "ist nicht verwendbar: sie ist kein UTF-8-Text"),
])
def test_arena_refuses_a_hostile_options_file(capsys, tmp_path, content, lang, words):
    match = tmp_path / "match.yaml"
    match.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, out, err = run(capsys, "nations_dice", "--games", "1", "--options", str(match), "--lang", lang)
    assert code == 2 and words in err and not out, err


def test_arena_refuses_a_missing_options_file(capsys, tmp_path):
    code, _, err = run(capsys, "nations_dice", "--options", str(tmp_path / "nope.yaml"))
    assert code == 2 and "cannot be used: there is no such file" in err
    code, _, err = run(capsys, "nations_dice", "--options", str(tmp_path), "--lang", "de")
    assert code == 2 and "ist nicht verwendbar: sie ist nicht lesbar (ein Ordner, oder nicht erlaubt)" in err
