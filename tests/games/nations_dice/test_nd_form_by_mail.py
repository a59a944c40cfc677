"""Issue 33 for Nations, through the mail intake: every stage's form sent back as it
came and with each commented example uncommented; give_back checked at submission;
the famine's trade: auto; keywords and tile names in any case."""
from __future__ import annotations

import copy
from importlib import resources

import pytest
import yaml
from formkit import Table, examples
from ndkit import board, dice, game, problems
from referee_kit import SPEC, clock, outbox, ref, toy_registered  # noqa: F401  (fixtures)

PLAYERS = [{"id": "ada", "name": "Ada", "email": "ada@example.org"},
           {"id": "bert", "name": "Bert", "email": "bert@example.org", "lang": "de"}]
STEP_KEYS = ("- buy", "- reroll", "- build", "- pass")


def _edition(white: list[dict], food: int) -> dict:
    ed = yaml.safe_load(resources.files("referee_games.nations_dice").joinpath("default_edition.yaml")
                        .read_text("utf-8"))
    ed = copy.deepcopy(ed)
    ed["dice"]["white"]["faces"] = white
    ed["dice"]["white"]["source"] = "test edition"
    for e in ed["events"]:
        e["food"] = food
    return ed


def _table(ref, outbox, clock, edition: dict | None = None, **more) -> Table:
    options = ({} if edition is None else {"edition": edition}) | more
    return Table.create(ref, outbox, dict(SPEC, id="nat", game="nations_dice", language="en", players=PLAYERS,
                                          options=options, observers=[]), clock)


def _lang(seat: str) -> str:
    return next(p.get("lang", "en") for p in PLAYERS if p["id"] == seat)


def _log(table: Table, kind: str) -> list[dict]:
    """The entries of ``kind`` in the log of the turn resolved last."""
    done = table.ref.store.turn(table.match, table.turn()["number"] - 1)
    return [e["data"] for e in done["result"]["log"] if e["kind"] == kind]


def _to_stage(table: Table, stage: str) -> str:
    """Everybody passes (books: spend all, famine: trade nothing) until ``stage`` is owed."""
    for _ in range(12):
        owed = table.turn()["awaiting"]
        seat = next((p for p, s in owed.items() if s == stage), None)
        if seat:
            return seat
        for p, s in owed.items():
            answer = {"plan": "steps: [pass]\n", "books": "hold: []\n", "famine": "trade: none\n"}[s]
            assert table.send(p, answer)[0] == "accepted"
        table.ref.tick()
    raise AssertionError(f"no {stage} stage came")


FAMINE = ([{"strength": 1}] * 5 + [{"gold": 1}], 1)   # strength dice only: the famine asks
BOOKS = ([{"book": 1}] * 5 + [{"gold": 1}], 1)        # book dice only: the books phase asks


def test_item4_plan_form_sent_back_unchanged_does_nothing_and_asks_again(ref, outbox, clock):
    table = _table(ref, outbox, clock)
    seat = next(iter(table.turn()["awaiting"]))
    lang = _lang(seat)
    form = table.form(seat, lang)
    assert ("as it came, nothing is done and you are asked again" in form if lang == "en"
            else "Unverändert zurückgeschickt geschieht nichts, und du wirst erneut gefragt" in form)
    before = table.state().d
    outcome, reply = table.send(seat, form)
    assert outcome == "accepted", reply
    assert ("you will be asked for new orders" in reply) if lang == "en" else ("du wirst um neue Befehle gebeten" in reply)
    ref.tick()
    after = table.state().d
    assert table.turn()["number"] == 2 and table.turn()["awaiting"] == {seat: "plan"}, "asked again"
    assert after["board"] == before["board"] and not after["p"][seat]["passed"], "nothing was done"
    assert after["age"] == before["age"] == 1


def test_item4_a_plan_with_no_step_at_all_is_refused(ref, outbox, clock):
    table = _table(ref, outbox, clock)
    seat = next(iter(table.turn()["awaiting"]))
    outcome, reply = table.send(seat, "steps:\n  # - pass\n")
    assert outcome != "accepted"
    assert ("No step is chosen" in reply) if _lang(seat) == "en" else ("Kein Schritt ist gewählt" in reply), reply


@pytest.mark.parametrize("variant", ["original", "accelerated"])
def test_item8_plan_each_commented_step_uncommented_is_accepted_and_runs(ref, outbox, clock, variant):
    table = _table(ref, outbox, clock, _edition([{"gold": 3}] * 6, 3), variant=variant)   # every tile affordable
    seat = next(iter(table.turn()["awaiting"]))
    for lang in ("en", "de"):   # the player writes in either: the examples are the same
        shown = examples(table.form(seat, lang), STEP_KEYS)
        kinds = {first.split(":")[0].split()[1] for first, _ in shown}
        assert {"buy", "pass"} <= kinds, shown
        assert any("give_back" in first for first, _ in shown), "the development shape is shown"
        assert any("food_trade" in first for first, _ in shown) == (variant == "accelerated")
        for first, form in shown:
            outcome, reply = table.send(seat, form)
            assert outcome == "accepted", (first, reply)
            assert "cannot be carried out" not in reply and "nicht ausführbar" not in reply, (first, reply)
            assert "would be carried out now" in reply or "würde Schritt 1 ausgeführt" in reply, (first, reply)


@pytest.mark.parametrize("stage,edition", [("books", BOOKS), ("famine", FAMINE)])
def test_item8_books_and_famine_forms_unchanged_are_accepted_and_do_what_they_say(ref, outbox, clock, stage, edition):
    table = _table(ref, outbox, clock, _edition(*edition))
    seat = _to_stage(table, stage)
    form = table.form(seat, "en")
    assert ("every book is spent" in form) if stage == "books" else ("you trade nothing" in form)
    outcome, reply = table.send(seat, table.form(seat, _lang(seat)))
    assert outcome == "accepted", reply
    ref.tick()
    if stage == "books":    # every book spent for culture, none held back
        (entry,) = [e for e in _log(table, "books") if e["player"] == seat]
        assert entry["books"] >= 1 and not entry["held"], entry
    else:                   # nothing traded, no famine VP
        (entry,) = [e for e in _log(table, "famine") if e["player"] == seat]
        assert entry["trades"] == [] and entry["vp"] == 0, entry


def test_item8_books_form_each_book_die_as_hold_is_accepted(ref, outbox, clock):
    table = _table(ref, outbox, clock, _edition(*BOOKS))
    seat = _to_stage(table, "books")
    st = table.state()
    books = [x[0] for x in st.d["p"][seat]["dice"] if not x[3] and st.ed.faces[x[1]][x[2]].get("book")]
    for die in books:
        outcome, reply = table.send(seat, f"hold: [{die.upper()}]\n")   # any case
        assert outcome == "accepted", reply


def test_item6_famine_trade_auto_trades_strength_dice_and_meets_the_demand(ref, outbox, clock):
    table = _table(ref, outbox, clock, _edition(*FAMINE))
    seat = _to_stage(table, "famine")
    form = table.form(seat, "de")
    auto = form.split("trade: auto tauscht ")[1].split(" und erfüllt")[0]
    assert auto not in ("none", "[]"), form
    outcome, reply = table.send(seat, "trade: AUTO\n")
    assert outcome == "accepted", reply
    ref.tick()
    (entry,) = [e for e in _log(table, "famine") if e["player"] == seat]
    assert entry["trades"] and entry["vp"] == 1 and entry["food"] >= entry["need"], entry


def test_item5_give_back_unknown_or_extra_dice_are_refused_at_submission(ref, outbox, clock):
    table = _table(ref, outbox, clock, _edition([{"gold": 3}] * 6, 3))
    seat = next(iter(table.turn()["awaiting"]))
    st = table.state()
    col, row = next((c + 1, r + 1) for c, column in enumerate(st.d["board"]) for r, t in enumerate(column)
                    if t and st.ed.tiles[t]["type"] in ("building", "military"))
    said = {"en": ("give_back: you have no die r1",
                   "give_back: w2 is one die too many; the replaced development shows 1 × white"),
            "de": ("give_back: du hast keinen Würfel r1",
                   "give_back: w2 ist ein Würfel zu viel; die ersetzte Entwicklung zeigt 1 × weiß")}[_lang(seat)]
    for give_back, words in zip(("[r1]", "[w1, w2]"), said):
        outcome, reply = table.send(seat, f"steps:\n  - buy: {{column: {col}, row: {row}, give_back: {give_back}}}\n")
        assert outcome != "accepted" and words in reply, reply


def test_item5_give_back_of_another_colour_is_refused():
    st = game(("a", "b"))
    board(st, ["granary", "aqueduct", "pyramids"], ["warriors", "sinai", "moses"], ["temple", "quarry", "archers"])
    dice(st, "a", ("white", {"gold": 1}), ("red", {"strength": 1}), ("white", {"gold": 1}))
    probs = problems(st, "a", steps=[{"buy": {"tile": "granary", "replace": 1, "give_back": ["r1"]}}])
    assert [(p.code, p.severity, p.where) for p in probs] == [("give_back.colour", "error", "steps.0.buy.give_back.0")]
    from referee.game_api.contract import phrase
    from referee_games.nations_dice import RULES
    assert phrase(RULES, probs[0], "de") == ("give_back: Würfel r1 ist rot, die ersetzte Entwicklung zeigt aber 1 × weiß: "
                                             "gib Würfel ihrer Farbe zurück.")
    ok = problems(st, "a", steps=[{"buy": {"tile": "granary", "replace": 1, "give_back": ["w2"]}}])
    assert not [p for p in ok if p.is_error]
    probs = problems(st, "a", steps=[{"buy": {"tile": "granary", "give_back": ["w1", "w1"]}}])
    assert [p.code for p in probs] == ["pay.twice"]


def test_item5_the_chosen_die_is_the_one_given_back():
    from ndkit import play
    st = game(("a", "b"))
    board(st, ["granary", "aqueduct", "pyramids"], ["warriors", "sinai", "moses"], ["temple", "quarry", "archers"])
    dice(st, "a", ("white", {"gold": 1}), ("white", {"gold": 1}, "spent"))
    st2, log = play(st, "a", steps=[{"buy": {"tile": "granary", "pay": ["w1"], "give_back": ["w1"]}}])
    assert next(e for e in log if e.kind == "development").data["returned"] == ["w1"]


def test_item2_keywords_and_tile_names_in_any_case_are_read(ref, outbox, clock):
    table = _table(ref, outbox, clock, _edition([{"gold": 3}] * 6, 3))
    seat = next(iter(table.turn()["awaiting"]))
    st = table.state()
    tile = next(t for column in st.d["board"] for t in column if t)
    name = st.ed.tiles[tile]["name"]["de"].upper()
    outcome, reply = table.send(seat, f"steps:\n  - buy: {{tile: {name}, pay: AUTO, trade: Auto}}\n  - Pass\n")
    assert outcome == "accepted", reply
    echo = reply.split("understood:" if _lang(seat) == "en" else "So verstanden:")[1].split("\n\n")[1]
    assert f"tile: {tile}" in echo and "pay: auto" not in echo and "- pass" in echo, echo
