"""Issue 33, the intake for every game: every problem of a mail at once, no program text
(one shape per value, words a player writes), did-you-mean at every depth, words in any
letter case, and a value starting with '@' answered with its quoted line."""
from __future__ import annotations

import random
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict

from referee.game_api.contract import Problem
from referee.intake import Document, check_orders, read_text

SEATS = ["madison", "hamilton"]


class Buy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    column: int
    row: int


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid")
    buy: Buy | None = None
    card: str | None = None


class Orders(BaseModel):
    model_config = ConfigDict(extra="forbid")
    side: Literal["yea", "nay"] | None = None
    player: str | None = None
    draw: Literal["person", "zusatz"] | None = None
    steps: list[Literal["pass", "ask"] | Step] = []


class Rules:
    """A stand-in game: the player must be seated, a step's card must be known."""
    name, languages = "toy", ("en", "de")
    messages = {"player.unknown": {"en": "{player} is not playing ({choices}).",
                                   "de": "{player} spielt nicht mit ({choices})."},
                "card.unknown": {"en": "{card} is no card.", "de": "{card} ist keine Karte."}}

    def order_schema(self, state, stage):
        return Orders

    def validate(self, state, player, model):
        out = []
        if model.player is not None and model.player not in SEATS:
            out.append(Problem("player.unknown", "player", params={"player": model.player, "choices": ", ".join(SEATS)}))
        for i, s in enumerate(model.steps):
            if isinstance(s, Step) and s.card is not None and s.card not in ("ace", "king"):
                out.append(Problem("card.unknown", f"steps.{i}.card", params={"card": s.card, "choices": ["ace", "king"]}))
        return out


def run(orders: str):
    doc = read_text("match: m\nplayer: madison\norders:\n" + orders)
    assert isinstance(doc, Document), doc
    return check_orders(Rules(), None, "main", "madison", doc.data["orders"], doc)


def test_item1_a_shape_problem_does_not_hide_the_games_problem_elsewhere():
    model, problems = run("  side: ja\n  player: hamliton\n")
    assert model is None
    assert [(p.where, p.line) for p in problems] == [("orders.side", 4), ("orders.player", 5)]
    assert "Did you mean 'hamilton'?" in problems[1].text["en"]


def test_item1_a_faulty_list_item_leaves_the_others_checked_where_they_were_written():
    _, problems = run("  steps:\n    - {buy: {colum: 2, row: 1}}\n    - {card: quen}\n    - pas\n    - {card: ace}\n")
    assert [(p.where, p.line) for p in problems] == [
        ("orders.steps.0.buy.colum", 5), ("orders.steps.1.card", 6), ("orders.steps.2", 7)]
    assert "Meintest du 'king'?" not in problems[1].text["de"]   # 'quen' is near no card of the two


def test_item2_a_mapping_is_answered_by_its_keys_not_as_a_word_and_never_in_python():
    _, problems = run("  steps:\n    - {buy: {colum: 2, row: 2}}\n")
    [p] = problems
    assert p.text["en"] == "'colum' is not allowed here. Did you mean 'column'? Allowed: column, row."
    assert p.text["de"] == "'colum' ist hier nicht erlaubt. Meintest du 'column'? Erlaubt: column, row."


def test_item2_a_word_is_answered_with_every_shape_in_words_and_the_near_one():
    _, problems = run("  steps: [pas]\n  draw: persn\n")
    texts = {p.where: p.text for p in problems}
    assert "Did you mean 'pass'?" in texts["orders.steps.0"]["en"] and "or indented 'name: value' lines (buy, card)" \
        in texts["orders.steps.0"]["en"]
    assert texts["orders.draw"]["de"] == "'persn' ist keiner der erlaubten Werte: person oder zusatz. Meintest du 'person'?"
    _, problems = run("  draw: {a: [1, true]}\n")
    assert problems[0].text["en"].startswith("'{a: [1, true]}' ")


def test_item5_words_in_any_letter_case_where_one_fits():
    model, problems = run("  draw: Zusatz\n  side: NAY\n  steps: [Pass, ASK]\n")
    assert problems == [] and (model.draw, model.side, model.steps) == ("zusatz", "nay", ["pass", "ask"])


def test_item5_a_word_that_fits_two_spellings_is_not_guessed():
    class Two(BaseModel):
        pick: Literal["Ab", "AB"]

    class TwoRules(Rules):
        def order_schema(self, state, stage):
            return Two

    doc = read_text("match: m\nplayer: madison\norders:\n  pick: ab\n")
    model, problems = check_orders(TwoRules(), None, "main", "madison", doc.data["orders"], doc)
    assert model is None and problems[0].code == "orders.literal_error"


@pytest.mark.parametrize("line,fixed", [
    ("player: @gm", 'player: "@gm"'),
    ("player: `gm` # me", 'player: "`gm`" # me'),
    ("orders: {steps: [@x, pass]}", 'orders: {steps: ["@x", pass]}'),
    ('player: @g"m', 'player: "@g\\"m"'),
])
def test_item4_a_value_starting_with_a_reserved_character_is_answered_with_the_quoted_line(line, fixed):
    [p] = read_text(f"match: m\n{line}\ncommand: status\n")
    assert (p.code, p.line) == ("yaml.reserved", 2)
    assert p.text["en"].endswith(f"Write line 2 like this: {fixed}") and "must be written in quotes" in p.text["en"]
    assert p.text["de"].endswith(f"Schreibe Zeile 2 so: {fixed}") and "Anführungszeichen" in p.text["de"]


def test_item4_hostile_reserved_lines_are_answered_not_raised():
    for text in ("player: @" + "x" * 60_000, "player: @\n", "@", "- [{@", "a: b\n  @c: d"):
        found = read_text(text + "\n")
        assert isinstance(found, (list, Document))


def test_item1_item2_hostile_orders_never_raise():
    """Random nestings of words, numbers, lists and mappings under every key: the intake answers."""
    rng = random.Random(33)

    def value(depth=0):
        kind = rng.randrange(6 if depth < 4 else 3)
        return (lambda: rng.choice(["pass", "PASS", "x", "@"]), lambda: rng.randrange(-3, 5), lambda: None,
                lambda: [value(depth + 1) for _ in range(rng.randrange(3))],
                lambda: {rng.choice(["buy", "card", "colum", "row", "column", 1]): value(depth + 1)
                         for _ in range(rng.randrange(3))},
                lambda: {"buy": {"column": value(depth + 1), "row": value(depth + 1)}})[kind]()

    import yaml
    for _ in range(300):
        orders = {rng.choice(["side", "player", "draw", "steps", "extra"]): value() for _ in range(rng.randrange(1, 4))}
        doc = read_text(yaml.safe_dump({"match": "m", "player": "p", "orders": orders}))
        if isinstance(doc, Document):
            model, problems = check_orders(Rules(), None, "main", "p", doc.data["orders"], doc)
            assert model is not None or problems
