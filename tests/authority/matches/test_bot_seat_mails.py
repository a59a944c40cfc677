"""Issue 35, what the people at a table with bots read, in English and German: the
welcome (and a newcomer's) names the bots' seats and says they read no table talk; a
dropout warning promises the bot that ``to_bot`` brings; the player whose seat the GM
gives a bot hears it went to a bot; a bot's seat staying a bot's tells no player; a
person taking a bot's seat plays it "again" only if a person played it before."""
from __future__ import annotations

import email
import mailbox
from email import policy

import pytest
from refkit import in_order
from seats_fixtures import seats_table, toy  # noqa: F401  (fixtures)
from seats_table import text

from referee.store import bots as bot_rows

PLAYERS = [{"id": "ann", "name": "Ann", "email": "ann@example.org"},
           {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"},
           {"id": "robo", "name": "Robo One", "bot": True},
           {"id": "fasty", "name": "Fasty", "bot": {"strength": "fast"}}]


def everything_to(t, address: str) -> list[str]:
    """Subject + text of every mail ``address`` got so far (the table's start read them already)."""
    t.ref.send_pending(t.sink)
    box = mailbox.Maildir(str(t.box), create=False)
    mails = [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in in_order(box)]
    return [m["Subject"] + "\n" + text(m) for m in mails if m["To"] == address]


def only(mails: list[str], words: str) -> str:
    [found] = [m for m in mails if words in m]
    return found


@pytest.fixture
def bots_table(seats_table):  # noqa: F811
    return lambda **extra: seats_table(players=PLAYERS, **extra)


def test_the_welcome_names_the_bots_and_that_they_read_no_table_talk(bots_table):
    t = bots_table(press="private")
    welcome = only(everything_to(t, "ann@example.org"), "Welcome to")
    assert "Played by a computer player (bot): Robo One, Fasty.\n" in welcome
    assert 'Bots read no table talk: a message to "robo" or "fasty" is refused.' in welcome
    willkommen = only(everything_to(t, "bob@example.org"), "Willkommen bei")
    assert "Von einem Computerspieler (Bot) gespielt: Robo One, Fasty.\n" in willkommen
    assert 'Bots lesen keine Tischgespräche: eine Nachricht an "robo" oder "fasty" wird abgelehnt.' in willkommen
    # a newcomer in a bot's seat is welcomed before its bot goes: the seat is theirs, not a bot's
    assert t.command("gm", "replace", seat="robo", email="rita@example.org", name="Rita").outcome == "processed"
    newcomer = only(everything_to(t, "rita@example.org"), "Welcome to")
    assert "Played by a computer player (bot): Fasty.\n" in newcomer and "Robo One" not in newcomer
    assert 'a message to "fasty" is refused' in newcomer


def test_a_welcome_without_bots_says_nothing_of_them(seats_table):  # noqa: F811
    welcome = only(everything_to(seats_table(press="private"), "ann@example.org"), "Welcome to")
    assert "Table talk:" in welcome
    assert "computer player" not in welcome and "Bots read" not in welcome


def test_a_welcome_without_table_talk_names_the_bots_alone(bots_table):
    welcome = only(everything_to(bots_table(), "ann@example.org"), "Welcome to")
    assert "Played by a computer player (bot): Robo One, Fasty." in welcome and "table talk" not in welcome


def test_the_dropout_warning_promises_the_bot_that_to_bot_brings(seats_table):  # noqa: F811
    t = seats_table(dropouts={"warn_after": 1, "abandon_after": 2, "to_bot": True})
    t.mails()
    t.bid("ann")   # bob (de) and cyd (en) stay silent
    t.pass_deadline()
    mails = t.mails()
    warning = only(mails["cyd@example.org"], "in a row")
    assert ("One more missed turn and a computer player (bot) takes over your\n"
            "seat until the game master gives it to a person.") in warning
    assert "offered to the game master" not in warning
    warnung = only(mails["bob@example.org"], "in Folge verpasst")
    assert ("Noch ein verpasster Zug, und ein Computerspieler (Bot) übernimmt\n"
            "deinen Platz, bis die Spielleitung ihn einer Person gibt.") in warnung
    assert "Neubesetzung" not in warnung
    t.bid("ann")
    t.pass_deadline()
    assert {"bob", "cyd"} <= set(bot_rows.bots(t.ref.store, "toy1")), "the promise kept: a bot has the seats"


def test_the_player_whose_seat_goes_to_a_bot_is_told_so(seats_table):  # noqa: F811
    t = seats_table()
    t.mails()
    assert t.command("gm", "replace", seat="bob", bot="true").outcome == "processed"
    assert t.command("gm", "replace", seat="cyd", bot="true").outcome == "processed"
    mails = t.mails()
    bob = only(mails["bob@example.org"], "Du spielst bob nicht mehr")
    assert 'hat deinen Platz\n"bob" einem Computerspieler (einem Bot) gegeben.' in bob
    assert "jemand anderen" not in bob
    cyd = only(mails["cyd@example.org"], "You no longer play cyd")
    assert 'has given your seat\n"cyd" to a computer player (a bot).' in cyd and "another player" not in cyd
    # a seat given to a person still says so
    assert t.command("gm", "replace", seat="ann", email="amy@example.org").outcome == "processed"
    assert '"ann" to another player.' in only(t.mails()["ann@example.org"], "You no longer play ann")


def test_a_bot_seat_given_to_a_bot_again_tells_no_player_but_the_gm(bots_table):
    t = bots_table()
    t.mails()
    said = t.ref.gm_command("toy1", "replace", {"seat": "fasty", "bot": True})
    assert said == "fasty is still played by a bot, now default (was fast); the players are not told"
    assert bot_rows.bots(t.ref.store, "toy1")["fasty"]["strength"] == "default"
    assert bot_rows.bots(t.ref.store, "toy1")["fasty"]["why"] == "file", "why it is a bot's stays"
    said = t.ref.gm_command("toy1", "replace", {"seat": "fasty", "bot": True})
    assert said == "fasty is played by a bot already (default): nothing changed"
    assert t.command("gm", "replace", seat="robo", bot="fast").outcome == "processed"
    mails = t.mails()
    assert set(mails) == {"gm@example.org"}, mails
    assert "robo is still played by a bot, now fast (was default)" in mails["gm@example.org"][0]


def test_a_person_plays_a_bot_seat_again_only_if_a_person_played_it_before(bots_table):
    t = bots_table()
    t.mails()
    assert t.command("gm", "replace", seat="robo", email="rita@example.org", name="Rita").outcome == "processed"
    mails = t.mails()
    first = only(mails["ann@example.org"], "robo")
    assert first.startswith("[toy1] Seat robo is now played by a person\n")
    assert 'is now played by a person:\nRita takes it over from the computer player (the bot)' in first
    assert "again" not in first
    erst = only(mails["bob@example.org"], "robo")
    assert erst.startswith("[toy1] Platz robo wird jetzt von einer Person gespielt\n") and "wieder" not in erst
    # bob's seat goes to a bot and back to a person: that is "again"
    assert t.command("gm", "replace", seat="bob", bot="true").outcome == "processed"
    t.mails()
    assert t.command("gm", "replace", seat="bob", email="bea@example.org", name="Bea").outcome == "processed"
    back = only(t.mails()["ann@example.org"], "bob")
    assert back.startswith("[toy1] Seat bob is played by a person again\n")
    assert 'is played by a person again:\nBea takes it over' in back


def test_an_observer_the_gm_adds_later_is_told_which_seats_bots_play(bots_table):
    t = bots_table()
    assert t.command("gm", "observer", email="fan@example.org").outcome == "processed"
    [welcome] = everything_to(t, "fan@example.org")
    assert "Played by a computer player (bot): Robo One, Fasty.\n" in welcome
