"""Issue 33, item 7 for Nations: payment problems in whole sentences with the currency in
the reader's language, and the markers labelled apart from the dice in the picture and form."""
from ndkit import board, dice, game, markers, problems

from referee.game_api.contract import phrase
from referee_games.nations_dice import RULES
from referee_games.nations_dice.messages import say


def test_item7_a_short_payment_is_a_proper_sentence_in_both_languages():
    st = game(("a", "b"))
    board(st, ["granary", "aqueduct", "pyramids"], ["warriors", "sinai", "moses"], ["temple", "quarry", "archers"])
    dice(st, "a", ("white", {"food": 1}))
    markers(st, "a")
    (p,) = [x for x in problems(st, "a", steps=[{"buy": {"tile": "granary"}}, "pass"]) if x.code == "pay.short"]
    assert phrase(RULES, p, "de") == say(p, "de") == "Damit sind 0 von 1 Gold bezahlt."
    assert phrase(RULES, p, "en") == "That pays 0 of the 1 gold it costs."


def test_item7_the_picture_and_form_label_the_markers_as_available_of_held():
    st = game(("a", "b"))
    markers(st, "a", strength=1, reroll=1)
    view = RULES.view(st, "a")
    assert "Markers: available/held" in RULES.picture(view, "en")
    assert "Marker: verfügbar/gesamt" in RULES.picture(view, "de")
    form = RULES.order_form(st, "a", "en")
    assert "Your markers (available/held):" in form and "strength 1/1" in form
