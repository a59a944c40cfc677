"""Issue 33 for Founding Fathers: every problem of a mail at once (a wrong word in one part
does not hide the game's refusal of another), with the near word; values in any letter case
(and yea/nay in German) read as the game spells them."""
import pytest
from ffkit import board
from test_ff_reports_read_well import _text

from referee.game_api.contract import LogEntry
from referee.intake import Document, check_orders, read_text
from referee_games.founding_fathers import RULES

SEATS = ("madison", "hamilton", "paterson")


def checked(st, player, orders_yaml: str):
    doc = read_text(f"match: m\nplayer: {player}\norders:\n{orders_yaml}")
    assert isinstance(doc, Document), doc
    return check_orders(RULES, st, "action", player, doc.data["orders"], doc)


def test_item1_a_wrong_word_and_a_misspelt_player_come_back_in_one_reply():
    st = board(SEATS, hands={"madison": ["madison", "bassett"], "hamilton": ["hamilton", "king"]})
    model, problems = checked(st, "madison", "  action: event\n  card: bassett\n  side: jaa\n"
                                             "  player: hamliton\n  position: 1\n")
    assert model is None
    by_where = {p.where: p for p in problems}
    assert set(by_where) == {"orders.side", "orders.player"}, [p.text["en"] for p in problems]
    assert by_where["orders.side"].line == 6 and by_where["orders.player"].line == 7
    assert "Did you mean 'hamilton'?" in by_where["orders.player"].text["en"]
    assert "Meintest du 'hamilton'?" in by_where["orders.player"].text["de"]
    assert "yea or nay" in by_where["orders.side"].text["en"] and "yea oder nay" in by_where["orders.side"].text["de"]


def test_item5_values_in_any_letter_case_and_german_sides():
    st = board(SEATS, hands={"madison": ["madison", "bassett"], "hamilton": ["hamilton", "king"]})
    model, problems = checked(st, "madison", "  action: Event\n  card: Bassett\n  player: Hamilton\n  position: 1\n")
    assert not [p for p in problems if p.is_error], [p.text["en"] for p in problems]
    assert (model.action, model.card, model.player) == ("event", "bassett", "hamilton")
    model, _ = checked(st, "madison", "  action: VOTE\n  state: de\n  side: Ja\n  delegates: [Bassett]\n")
    assert model is not None and (model.action, model.state, model.side, model.delegates) == ("vote", "DE", "yea", ["bassett"])


@pytest.mark.parametrize("lang,one,two", [
    ("en", "Madison snubs 1 delegate: ", "Madison snubs 2 delegates: "),
    ("de", "Madison wirft 1 Delegierten ab: ", "Madison wirft 2 Delegierte ab: ")])
def test_item8_plurals_written_out(lang, one, two):
    st = board(SEATS)
    log = [LogEntry("snub", {"player": "madison", "cards": ["king"]}),
           LogEntry("snub", {"player": "madison", "cards": ["king", "wythe"]}),
           LogEntry("scored", {"player": "madison", "points": 1})]
    text = _text(st, "madison", lang, log=log)
    assert one in text and two in text and "(s)" not in text and "(n)" not in text and "(e)" not in text
