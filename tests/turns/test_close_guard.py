"""The close guard: a turn about to close with many more players missing than
usual is held and the GM asked (en + de) to close it as it stands or extend."""
from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from hardkit import (
    SPEC,
    START,
    Outbox,
    clock,
    create,
    inbound,
    make_referee,
    outbox,
    ref,
    send_orders,
    text_of,
    to,
    toy_registered,
)

from referee.app.cli import main
from referee.authority.matches.match_file import MatchError

GRACE = timedelta(minutes=30)


def past_deadline(ref, clock, match="toy1") -> None:
    clock.t = datetime.fromisoformat(ref.store.current_turn(match)["deadline"]) + GRACE + timedelta(minutes=1)


def full_first_turn(ref, outbox, clock, spec=SPEC) -> dict:
    keys = create(ref, outbox, spec)
    send_orders(ref, spec["id"], keys, ["ann", "bob", "cyd"], 1)
    assert ref.tick().closed == [(spec["id"], 1)]     # everyone in: closed early
    outbox.flush()
    return keys


def held_rows(ref) -> list[dict]:
    return [f for f in ref.store.faults() if f["stage"] == "held"]


def test_two_of_three_missing_after_a_full_turn_holds_the_close_and_asks_the_gm(ref, outbox, clock):
    keys = full_first_turn(ref, outbox, clock)
    send_orders(ref, "toy1", keys, ["ann"], 2)
    outbox.flush()
    past_deadline(ref, clock)
    assert ref.tick().closed == []
    assert ref.store.current_turn("toy1")["status"] == "open"
    (ask,) = outbox.flush()                            # the GM alone is asked; the players hear nothing
    assert ask["To"] == "gm@example.org"
    assert "Turn 2 held: 2 of 3 players sent no orders" in ask["Subject"]
    body = text_of(ask)
    assert "Bob, Cyd" in body and "command: close" in body and "referee gm toy1 close" in body and "by: 24h" in body
    # `referee status` shows the hold; a second tick asks nobody again
    (row,) = [r for r in ref.overview() if r["id"] == "toy1"]
    assert [f["stage"] for f in row["faults"]] == ["held"]
    assert ref.close_guard.held("toy1")["missing"] == ["bob", "cyd"]
    clock.advance(hours=3)
    assert ref.tick().closed == [] and outbox.flush() == []
    # the GM confirms: the turn closes as it stands, the hold is gone
    assert ref.gm_command("toy1", "close", {}) == "turn 2 closed"
    assert ref.store.turn("toy1", 2)["result"]["missing"] == ["bob", "cyd"]
    assert held_rows(ref) == [] and ref.close_guard.held("toy1") is None


def test_the_gm_confirms_by_mail(ref, outbox, clock):
    keys = full_first_turn(ref, outbox, clock)
    past_deadline(ref, clock)
    ref.tick()
    outbox.flush()
    mail = f"match: toy1\nplayer: gm\nkey: {keys['@gm']}\ncommand: close\n"
    assert ref.handle(inbound("gm@example.org", mail)).outcome == "processed"
    assert ref.store.turn("toy1", 2)["status"] == "resolved"
    assert held_rows(ref) == []


def test_extending_releases_the_hold_and_a_new_deadline_asks_again(ref, outbox, clock):
    keys = full_first_turn(ref, outbox, clock)
    past_deadline(ref, clock)
    ref.tick()
    assert len(outbox.flush()) == 1
    ref.gm_command("toy1", "extend", {"by": "24h"})
    outbox.flush()
    ref.tick()
    assert held_rows(ref) == []                        # the deadline moved: no hold stands
    send_orders(ref, "toy1", keys, ["ann", "bob"], 2)  # two came in meanwhile: one of three missing
    past_deadline(ref, clock)
    assert ref.tick().closed == [("toy1", 2)]          # 1 of 3 missing is not "more than half": closes


def test_still_missing_at_the_extended_deadline_is_held_again(ref, outbox, clock):
    full_first_turn(ref, outbox, clock)
    past_deadline(ref, clock)
    ref.tick()
    ref.gm_command("toy1", "extend", {"by": "24h"})
    outbox.flush()
    past_deadline(ref, clock)
    assert ref.tick().closed == []
    asks = [m for m in outbox.flush() if "held" in m["Subject"]]
    assert len(asks) == 1 and len(held_rows(ref)) == 1


def test_the_gm_of_a_german_match_is_asked_in_german(ref, outbox, clock):
    full_first_turn(ref, outbox, clock, dict(SPEC, language="de"))
    past_deadline(ref, clock)
    ref.tick()
    (ask,) = outbox.flush()
    assert "Zug 2 angehalten: 3 von 3 ohne Befehle" in ask["Subject"]
    assert "Im letzten Zug waren alle Befehle da" in text_of(ask)
    assert "referee gm toy1 close" in text_of(ask)


def test_no_hold_where_the_last_turn_had_gaps_too_or_on_the_first_turn(ref, outbox, clock):
    keys = create(ref, outbox)
    past_deadline(ref, clock)
    assert ref.tick().closed == [("toy1", 1)]          # turn 1: nothing to compare with
    send_orders(ref, "toy1", keys, ["ann"], 2)
    past_deadline(ref, clock)
    assert ref.tick().closed == [("toy1", 2)]          # turn 1 had everyone missing: usual
    assert held_rows(ref) == []


def test_half_missing_is_not_more_than_half(ref, outbox, clock):
    spec = dict(SPEC, players=SPEC["players"] + [{"id": "dan", "name": "Dan", "email": "dan@example.org"}])
    keys = create(ref, outbox, spec)
    send_orders(ref, "toy1", keys, ["ann", "bob", "cyd", "dan"], 1)
    ref.tick()
    send_orders(ref, "toy1", keys, ["ann", "bob"], 2)
    past_deadline(ref, clock)
    assert ref.tick().closed == [("toy1", 2)]


def test_a_stricter_share_holds_one_missing_of_three(tmp_path, clock):
    ref = make_referee(tmp_path, clock)
    outbox = Outbox(ref, tmp_path / "out")
    keys = full_first_turn(ref, outbox, clock, dict(SPEC, close_guard={"missing_share": 0.3}))
    send_orders(ref, "toy1", keys, ["ann", "bob"], 2)
    past_deadline(ref, clock)
    assert ref.tick().closed == []                     # 1 of 3 = 33 % > 30 %
    assert len(held_rows(ref)) == 1


def test_a_stage_awaiting_one_player_is_not_held_for_that_one(ref, outbox, clock):
    """A stage that awaits only some of the table (one player's plan in nations_dice,
    a retreat): the share missing is of the whole table, so one silent player of
    three closes as usual after a full turn."""
    full_first_turn(ref, outbox, clock)
    with ref.store.transaction():   # turn 2 awaits bob alone, as such a game's stage would
        ref.store._exec("UPDATE turns SET awaiting=? WHERE match=? AND number=?", (json.dumps({"bob": "bid"}), "toy1", 2))
    past_deadline(ref, clock)
    assert ref.tick().closed == [("toy1", 2)]
    assert held_rows(ref) == []


def test_a_match_may_switch_the_guard_off(ref, outbox, clock):
    full_first_turn(ref, outbox, clock, dict(SPEC, close_guard={"hold": False}))
    past_deadline(ref, clock)
    assert ref.tick().closed == [("toy1", 2)]


def test_force_is_never_held(ref, outbox, clock):
    full_first_turn(ref, outbox, clock)
    assert ref.force("toy1") == "turn 2 closed"


def test_the_gm_cli_closes_a_held_turn(tmp_path, clock, monkeypatch, capsys):
    (tmp_path / "referee.yaml").write_text(
        "address: referee@example.org\nstore: referee.sqlite\narchive: turns\n"
        "mail_in:\n  maildir: mail/in\nmail_out:\n  maildir: mail/out\nbackups:\n  before_close: false\n")
    ref = make_referee(tmp_path, clock)
    outbox = Outbox(ref, tmp_path / "out")
    full_first_turn(ref, outbox, clock)
    past_deadline(ref, clock)
    ref.tick()
    ref.store.close()
    monkeypatch.chdir(tmp_path)
    assert main(["--config", str(tmp_path / "referee.yaml"), "status"]) == 0
    assert "FLAGGED: held toy1:2.0" in capsys.readouterr().out
    assert main(["--config", str(tmp_path / "referee.yaml"), "gm", "toy1", "close"]) == 0
    assert "toy1: turn 2 closed" in capsys.readouterr().out
    assert main(["--config", str(tmp_path / "referee.yaml"), "gm", "toy1", "close", "now=1"]) == 2
    assert "close takes no arguments" in capsys.readouterr().err


@pytest.mark.parametrize("guard, said", [
    ({"missing_share": 2}, "close_guard.missing_share"),
    ({"missing_share": "most"}, "close_guard.missing_share"),
    ({"usual_missing": -1}, "close_guard.usual_missing"),
    ({"usual_missing": 10 ** 30}, "close_guard.usual_missing"),
    ({"hold": "maybe"}, "close_guard.hold"),
    ({"holdd": True}, "unknown field 'holdd' (did you mean 'hold'?)"),
    ("always", "close_guard"),
])
def test_hostile_guard_options_are_refused_at_the_door(ref, guard, said):
    with pytest.raises(MatchError) as caught:
        ref.create_match(dict(SPEC, close_guard=guard))
    assert said in " ".join(caught.value.problems)


def test_a_match_made_before_the_guard_existed_gets_the_defaults(ref, outbox, clock):
    keys = full_first_turn(ref, outbox, clock)
    match = ref.store.match("toy1")
    spec = {k: v for k, v in match["spec"].items() if k not in ("close_guard", "outage")}
    with ref.store.transaction():
        ref.store._db.execute("UPDATE matches SET spec=? WHERE id='toy1'", (__import__("json").dumps(spec),))
    past_deadline(ref, clock)
    assert ref.tick().closed == []
    assert START < clock.t and keys
