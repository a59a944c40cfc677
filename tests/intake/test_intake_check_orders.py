"""check_orders: schema errors and game problems located and phrased in en and de."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.game_api.contract import Problem
from referee.intake import Document, check_orders, read_envelope, read_text


class Vote(BaseModel):
    """Stand-in order schema shaped like a Founding Fathers vote."""
    model_config = ConfigDict(extra="forbid")
    action: Literal["declare_vote", "snub"]
    state: str = Field(min_length=2, max_length=2)
    side: Literal["yea", "nay"]
    delegates: list[str] = Field(min_length=1, max_length=3)
    take: list[int] = []


class StandInRules:
    name = "standin"
    languages = ("en", "de")
    messages = {
        "standin.not_yours": {"en": "{who} is not one of your delegates.",
                              "de": "{who} gehört nicht zu deinen Delegierten."},
    }

    def __init__(self) -> None:
        self.validated = []

    def order_schema(self, state, stage):
        assert stage == "vote"
        return Vote

    def validate(self, state, player, orders):
        self.validated.append((player, orders))
        out = []
        for i, who in enumerate(orders.delegates):
            if who not in state["hand"]:
                out.append(Problem("standin.not_yours", f"delegates.{i}", params={"who": who}))
        if orders.side == "nay":
            out.append(Problem("standin.unpopular", "side", severity="warning", text="Nay is unpopular here."))
        return out


STATE = {"hand": ["ingersoll", "mifflin", "morris"]}
HEAD = "Hallo!\n\nmatch: ff\nplayer: madison\nturn: 3\norders:\n"


def run(orders_text: str, rules=None):
    doc = read_text(HEAD + orders_text + "\nGruß\n")
    assert isinstance(doc, Document), doc
    env = read_envelope(doc)
    return check_orders(rules or StandInRules(), STATE, "vote", "madison", env.orders, doc)


def test_valid_orders_give_the_model():
    model, problems = run("  action: declare_vote\n  state: PA\n  side: yea\n  delegates: [ingersoll, mifflin]\n")
    assert isinstance(model, Vote) and model.delegates == ["ingersoll", "mifflin"]
    assert problems == []


def test_schema_errors_are_all_reported_at_their_lines():
    model, problems = run("  action: vote\n  state: Pennsylvania\n  delegates: []\n  take: [x]\n  colour: red\n")
    assert model is None
    got = {(p.code, p.line, p.where) for p in problems}
    assert got == {
        ("orders.literal_error", 7, "orders.action"),
        ("orders.string_too_long", 8, "orders.state"),
        ("orders.missing", 6, "orders.side"),         # missing: placed at 'orders:'
        ("orders.too_short", 9, "orders.delegates"),
        ("orders.int_parsing", 10, "orders.take.0"),
        ("orders.extra_forbidden", 11, "orders.colour"),
    }
    assert [p.line for p in problems] == sorted(p.line for p in problems)


def test_schema_errors_are_phrased_for_players_in_both_languages():
    _, problems = run("  action: vote\n  state: PA\n  delegates: [ingersoll]\n  take: [x]\n")
    by_code = {p.code: p for p in problems}
    literal = by_code["orders.literal_error"]
    assert literal.text["en"] == "'vote' is not one of the allowed values: declare_vote or snub."
    assert literal.text["de"] == "'vote' ist keiner der erlaubten Werte: declare_vote oder snub."
    assert by_code["orders.missing"].text == {"en": "'side' is missing.", "de": "'side' fehlt."}
    assert by_code["orders.int_parsing"].text["de"] == "'take #1' muss eine ganze Zahl sein, nicht 'x'."
    assert literal.column == 11 and literal.snippet == "  action: vote"


def test_game_problems_are_phrased_by_the_game_and_located_by_where():
    rules = StandInRules()
    model, problems = run("  action: declare_vote\n  state: PA\n  side: yea\n  delegates: [ingersoll, franklin]\n",
                          rules)
    assert model is None
    [p] = problems
    assert (p.code, p.line, p.column, p.where) == ("standin.not_yours", 10, 26, "orders.delegates.1")
    assert p.text == {"en": "franklin is not one of your delegates.",
                      "de": "franklin gehört nicht zu deinen Delegierten."}
    assert rules.validated and rules.validated[0][0] == "madison"


def test_game_is_not_asked_when_the_shape_is_wrong():
    rules = StandInRules()
    run("  action: declare_vote\n", rules)
    assert rules.validated == []


def test_warnings_come_with_the_model():
    model, problems = run("  action: declare_vote\n  state: PA\n  side: nay\n  delegates: [morris]\n")
    assert isinstance(model, Vote)
    [p] = problems
    assert (p.severity, p.line, p.column) == ("warning", 9, 9)
    assert p.text["de"] == "Nay is unpopular here."   # untranslated game code: the game's fallback text


def test_discriminated_union_errors_skip_the_tag_in_the_path():
    class Pass(BaseModel):
        model_config = ConfigDict(extra="forbid")
        action: Literal["pass"]

    class Move(BaseModel):
        model_config = ConfigDict(extra="forbid")
        action: Literal["move"]
        to: int

    class Orders(BaseModel):
        order: Pass | Move = Field(discriminator="action")

    class UnionRules(StandInRules):
        def order_schema(self, state, stage):
            return Orders

    _, problems = run("  order:\n    action: move\n    to: north\n", UnionRules())
    [p] = problems
    assert (p.code, p.line, p.where) == ("orders.int_parsing", 9, "orders.order.to")
    _, problems = run("  order:\n    action: jump\n", UnionRules())
    assert problems[0].code == "orders.union_tag_invalid" and "'jump'" in problems[0].text["en"]
