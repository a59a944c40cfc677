"""Issue 35, bot seats on the toy game: a bot's seat has no address and is never
mailed; its bot decides once when the turn opens, through the intake's checks, so the
humans alone close a turn early; a bot that fails never holds the close (defaults, the GM
told); the GM gives a seat to a bot and back; hostile bot options and GM arguments are
refused in English and German."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import toygame
import yaml
from seats_fixtures import seats_table, toy  # noqa: F401  (fixtures)

from referee.archive.record import replay
from referee.authority.matches.match_file import MatchError, load_spec
from referee.authority.wording import Refusal
from referee.bots import decide
from referee.game_api import registry
from referee.game_api.contract import derive_seed
from referee.store import bots as bot_rows

PLAYERS = [{"id": "ann", "name": "Ann", "email": "ann@example.org"},
           {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"},
           {"id": "robo", "name": "Robo", "bot": True}]


class PlayingToy(type(toygame.RULES)):
    """The toy game with a random legal bid, for the bot to play."""

    def random_orders(self, state, player, rng) -> dict:
        return {"bid": rng.below(min(4, state["budget"][player]) + 1)}


class RefusingToy(PlayingToy):
    """Whatever the seat 'robo' bids is refused: its bot can only fail."""

    def validate(self, state, player, orders):
        from referee.game_api.contract import Problem
        if player == "robo":
            return [Problem("toy.over_budget", where="bid", params={"bid": orders.bid, "left": -1})]
        return super().validate(state, player, orders)


@pytest.fixture
def bot_table(seats_table):  # noqa: F811
    def make(rules=PlayingToy, **extra):
        registry.register(rules())
        return seats_table(players=PLAYERS, **extra)
    return make


def test_a_bot_seat_has_no_address_and_is_never_mailed(bot_table):
    t = bot_table()
    assert t.ref.store.player("toy1", "robo")["email"] == ""
    assert set(t.keys) == {"ann", "bob"}, "welcomes go to the people only"
    for _ in range(3):
        t.ref.tick()
        t.bid("ann")
        t.bid("bob")
        t.ref.tick()
    mails = t.mails()
    assert "" not in mails and not t.ref.store._all("SELECT id FROM outbox WHERE recipient=''")
    [report] = [m for m in mails["ann@example.org"] if m.startswith("[toy1] Report")][-1:]
    assert "Played by a computer player (bot): Robo" in report
    [bericht] = [m for m in mails["bob@example.org"] if m.startswith("[toy1] Bericht")][-1:]
    assert "Von einem Computerspieler (Bot) gespielt: Robo" in bericht


def test_the_bot_decides_once_when_the_turn_opens_and_the_humans_close_early(bot_table, tmp_path):
    t = bot_table()
    t.ref.tick()
    subs = t.ref.store.submissions("toy1", 1)
    assert list(subs) == ["robo"] and subs["robo"]["message_id"].startswith("bot:")
    t.ref.tick()
    assert t.ref.store.submissions("toy1", 1)["robo"]["received"] == subs["robo"]["received"], "decided once"
    t.bid("ann")
    t.bid("bob")
    t.ref.tick()   # the humans are in: an early close, before any deadline
    assert t.ref.store.current_turn("toy1")["number"] == 2
    used = yaml.safe_load((tmp_path / "turns" / "toy1" / "t001" / "orders.yaml").read_text())
    assert used["robo"]["source"] == "bot" and used["ann"]["source"] == "player"
    assert used["robo"]["orders"] == subs["robo"]["orders"]
    assert replay(tmp_path / "turns" / "toy1").ok


def test_no_close_waits_for_the_search_of_a_bot_whose_turn_waits_for_people(bot_table):
    t = bot_table()
    t.ref.tick(bots=False)   # ann and bob owe orders: the bot's search is not the pass's business
    assert "robo" not in t.ref.store.submissions("toy1", 1)
    assert t.ref.play_bots().bots == 1, "after the pass's closes (and their reports) the bot decides"
    t.bid("ann")
    t.bid("bob")
    assert t.ref.tick(bots=False).closed == [("toy1", 1)]
    assert "robo" not in t.ref.store.submissions("toy1", 2), "the close that opened turn 2 did not wait for its bot"
    assert t.ref.tick().bots == 1 and "robo" in t.ref.store.submissions("toy1", 2)


def test_a_turn_past_its_deadline_or_waiting_only_for_bots_has_them_decide_in_the_pass(bot_table, tmp_path):
    t = bot_table()
    t.bid("ann")
    t.bid("bob")
    assert t.ref.tick(bots=False).closed == [("toy1", 1)], "only the bot was owed: it decides, the turn closes early"
    assert t.ref.store.submissions("toy1", 1)["robo"]["message_id"].startswith("bot:")
    t.bid("ann")   # bob stays silent: the turn waits for a person until its deadline
    assert t.ref.tick(bots=False).closed == [] and "robo" not in t.ref.store.submissions("toy1", 2)
    t.now = datetime.fromisoformat(t.ref.store.current_turn("toy1")["deadline"]) + timedelta(days=1)
    assert t.ref.tick(bots=False).closed == [("toy1", 2)], "past the deadline the bot decides before the close"
    used = yaml.safe_load((tmp_path / "turns" / "toy1" / "t002" / "orders.yaml").read_text())
    assert used["robo"]["source"] == "bot"


def test_the_bot_draws_from_the_match_seed(bot_table):
    t = bot_table()
    t.ref.tick()
    match, turn = t.ref.store.match("toy1"), t.ref.store.current_turn("toy1")
    rules = registry.get("toybid")
    expected = decide(rules, rules.load(turn["state"]), "robo", seed=derive_seed(match["seed"], "bot:1:robo"))
    assert t.ref.store.submissions("toy1", 1)["robo"]["orders"] == expected


def test_a_failing_bot_never_holds_the_close_defaults_and_the_gm_is_told(bot_table, tmp_path):
    t = bot_table(rules=RefusingToy)
    t.ref.tick()
    t.bid("ann")
    t.bid("bob")
    t.ref.tick()   # the bot failed, its seat counts as in: the humans close the turn early
    assert t.ref.store.current_turn("toy1")["number"] == 2
    used = yaml.safe_load((tmp_path / "turns" / "toy1" / "t001" / "orders.yaml").read_text())
    assert used["robo"]["source"] == "default"
    [gm] = [m for m in t.mails()["gm@example.org"] if "bot in a seat could not decide turn 1" in m]
    assert "seat robo" in gm and "default orders are used for that seat" in gm


def test_the_gm_gives_a_seat_to_a_bot_and_back_to_a_person(bot_table):
    t = bot_table()
    t.mails()
    assert t.command("gm", "replace", seat="bob", bot="true").outcome == "processed"
    assert bot_rows.bots(t.ref.store, "toy1")["bob"]["why"] == "gm"
    mails = t.mails()
    assert any("Du spielst" in m or "no longer" in m or "nicht mehr" in m for m in mails["bob@example.org"])
    assert any("Seat bob is now played by a bot" in m for m in mails["ann@example.org"])
    t.ref.tick()
    assert t.ref.store.submissions("toy1", 1)["bob"]["message_id"].startswith("bot:")
    assert t.command("gm", "replace", seat="bob", email="bob2@example.org", name="Bea").outcome == "processed"
    assert "bob" not in bot_rows.bots(t.ref.store, "toy1")
    mails = t.mails()
    assert any("Welcome" in m or "Willkommen" in m for m in mails["bob2@example.org"])
    assert any("is played by a person again" in m for m in mails["ann@example.org"])


@pytest.mark.parametrize("value", ["maybe", "x" * 5000, "[1, 2]", "{strength: {deep: 1}}", "7"])
def test_hostile_bot_arguments_of_replace_are_refused_in_both_languages(bot_table, value):
    t = bot_table()
    with pytest.raises(Refusal) as said:
        t.ref.gm_command("toy1", "replace", {"seat": "bob", "bot": yaml.safe_load(value)})
    assert "is not true, false or a bot strength" in said.value.said("en")
    assert "weder true noch false noch eine Spielstärke" in said.value.said("de")
    assert len(said.value.said("en")) < 300, "a hostile value is echoed capped"
    assert "bob" not in bot_rows.bots(t.ref.store, "toy1")


def test_replace_with_a_bot_and_an_address_is_refused(bot_table):
    t = bot_table()
    with pytest.raises(Refusal) as said:
        t.ref.gm_command("toy1", "replace", {"seat": "bob", "bot": True, "email": "x@example.org"})
    assert "either to a bot" in said.value.said("en") and "entweder einem Bot" in said.value.said("de")


BASE = """id: m1
game: toybid
gm: gm@example.org
players:
  - {id: ann, name: Ann, email: ann@example.org}
  - %s
"""


@pytest.mark.parametrize("seat, en, de", [
    ("{id: robo, name: Robo, bot: yes-please}", "bot is true, false or {strength: ...}", "bot ist true, false oder"),
    ("{id: robo, name: Robo, bot: 12}", "bot is true, false or {strength: ...}", "bot ist true, false oder"),
    ("{id: robo, name: Robo, bot: {strength: default, budget: 99}}", "bot is true, false", "bot ist true, false"),
    ("{id: robo, name: Robo, bot: {strength: [1, 2]}}", "bot is true, false", "bot ist true, false"),
    ("{id: robo, name: Robo, bot: true, email: r@example.org}", "a bot seat has no mail address",
     "ein Bot-Platz hat keine Mailadresse"),
    ("{id: robo, name: Robo}", "email is missing (only a bot seat", "email fehlt (nur ein Bot-Platz"),
    ("{id: robo, name: Robo, bot: %s}" % ("z" * 20000), "bot is true, false", "bot ist true, false"),
])
def test_hostile_bot_options_in_a_match_file_are_refused_in_both_languages(toy, seat, en, de):  # noqa: F811
    with pytest.raises(MatchError) as said:
        load_spec(BASE % seat)
    assert "line 6: players[2]" in said.value.said("en") and en in said.value.said("en")
    assert "Zeile 6: players[2]" in said.value.said("de") and de in said.value.said("de")
    assert len(said.value.said("en")) < 400


def test_dropouts_to_bot_is_checked_too(toy):  # noqa: F811
    with pytest.raises(MatchError) as said:
        load_spec(BASE % "{id: bob, name: Bob, email: bob@example.org}" + "dropouts: {to_bot: sometimes}\n")
    assert "to_bot is true, false or a strength" in said.value.said("en")
    assert "to_bot ist true, false oder eine Spielstärke" in said.value.said("de")
    spec = load_spec(BASE % "{id: bob, name: Bob, email: bob@example.org}" + "dropouts: {to_bot: true}\n")
    assert spec.dropouts.to_bot == "default"


def test_a_hostile_bot_argument_by_mail_is_refused_in_the_match_language(bot_table):
    t = bot_table(language="de")
    t.mails()
    assert t.command("gm", "replace", seat="bob", bot="'" + "y" * 3000 + "'").outcome == "refused"
    [refusal] = t.mails()["gm@example.org"]
    assert "ist weder true noch false noch eine Spielstärke (fast, default)" in refusal and len(refusal) < 3000
    assert "bob" not in bot_rows.bots(t.ref.store, "toy1")
