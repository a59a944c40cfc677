"""Issue 18, dropouts: missed turns in a row are counted at each close; the match
file's ``dropouts`` warns after N, then marks the seat abandoned, asks the GM to
replace it and tells the others; the GM's status lists missed turns per seat."""
from __future__ import annotations

from seats_fixtures import seats_table, toy  # noqa: F401  (fixtures)

from referee.app.cli_gm import COMMANDS  # noqa: F401  (the CLI's status is the same template: see test_cli_status)
from referee.store import seats as seat_rows

RULE = {"dropouts": {"warn_after": 1, "abandon_after": 2}}


def only_ann_and_bob_play(t, turns: int) -> list[dict[str, list[str]]]:
    """``turns`` turns in which cyd sends nothing; what each close mailed."""
    out = []
    for _ in range(turns):
        t.bid("ann")
        t.bid("bob")
        t.mails()
        t.pass_deadline()
        out.append(t.mails())
    return out


def test_a_warning_then_the_seat_is_abandoned_and_the_gm_asked_to_replace_it(seats_table):
    t = seats_table(**RULE)
    first, second = only_ann_and_bob_play(t, 2)
    [warning] = [m for m in first["cyd@example.org"] if "in a row" in m.splitlines()[0]]
    assert "One more missed turn and your seat is offered to the game master" in warning
    assert not any("abandoned after" in m for m in first.get("gm@example.org", []))
    [gm] = [m for m in second["gm@example.org"] if "abandoned after" in m.splitlines()[0]]
    assert "command: replace\nseat: cyd" in gm and "referee gm toy1 replace seat=cyd" in gm
    [ann] = [m for m in second["ann@example.org"] if "abandoned after" in m.splitlines()[0]]
    assert "Cyd (\"cyd\") has sent no orders for 2 turns in a row" in ann
    [bob] = [m for m in second["bob@example.org"] if "verlassen" in m.splitlines()[0]]
    assert "Züge in Folge keine Befehle" in bob
    assert any("Your seat is marked abandoned" in m for m in second["cyd@example.org"])
    assert seat_rows.seat_status(t.ref.store, "toy1")["cyd"]["mark"] == "abandoned"
    # a third missed turn: defaults go on, nobody is told again
    third, = only_ann_and_bob_play(t, 1)
    assert not any("abandoned after" in m or "in a row" in m for ms in third.values() for m in ms)


def test_the_gm_status_lists_missed_turns_per_seat_by_mail(seats_table):
    t = seats_table(**RULE)
    only_ann_and_bob_play(t, 2)
    assert t.command("gm", "status").reason == "status"
    [status] = t.mails()["gm@example.org"]
    assert "Missed turns in a row, by seat:" in status
    assert "  ann (Ann): 0\n" in status and "  cyd (Cyd): 2 (abandoned" in status


def test_orders_again_clear_the_warning_and_the_count(seats_table):
    t = seats_table(dropouts={"warn_after": 1, "abandon_after": 3})
    only_ann_and_bob_play(t, 1)
    assert seat_rows.seat_status(t.ref.store, "toy1")["cyd"]["mark"] == "warned"
    for p in ("ann", "bob", "cyd"):
        t.bid(p)
    t.ref.tick()   # all in: an early close
    assert seat_rows.seat_status(t.ref.store, "toy1") == {}
    assert seat_rows.streaks(t.ref.store, "toy1")["cyd"] == 0


def test_replacing_the_abandoned_seat_starts_it_afresh_and_the_newcomer_plays(seats_table):
    t = seats_table(**RULE)
    only_ann_and_bob_play(t, 2)
    assert t.command("gm", "replace", seat="cyd", email="dora@example.org", name="Dora").reason == "replace"
    sent = t.mails()
    [welcome] = [m for m in sent["dora@example.org"] if "Welcome" in m]
    assert "THE POSITION AS YOU TAKE OVER" in welcome
    assert any("no longer play" in m for m in sent["cyd@example.org"])
    assert seat_rows.streaks(t.ref.store, "toy1").get("cyd", 0) == 0
    assert seat_rows.seat_status(t.ref.store, "toy1") == {}
    import re
    key = re.search(r"Your key: (\S+)", welcome).group(1)
    assert t.bid("cyd", 1, key=key, sender="dora@example.org").reason == "accepted"


def test_without_a_dropouts_rule_nobody_is_warned_but_the_gm_sees_the_count(seats_table):
    t = seats_table()
    closes = only_ann_and_bob_play(t, 3)
    assert not any("in a row" in m or "abandoned after" in m for c in closes for ms in c.values() for m in ms)
    assert seat_rows.streaks(t.ref.store, "toy1")["cyd"] == 3


def test_a_rollback_and_a_second_close_count_the_turn_once(seats_table):
    t = seats_table(dropouts={"warn_after": 2, "abandon_after": 3})
    only_ann_and_bob_play(t, 1)
    t.ref.rollback("toy1")
    t.ref.resume("toy1")
    t.pass_deadline()
    assert seat_rows.streaks(t.ref.store, "toy1")["cyd"] == 1


def test_the_cli_status_lists_the_seats(seats_table):
    t = seats_table(**RULE)
    only_ann_and_bob_play(t, 1)
    match = t.ref.store.match("toy1")
    _, text = t.ref.renderer.mail("gm_done", "de", **t.ref.notices.status_ctx(match, None), command="status",
                                  done="status")
    assert "Verpasste Züge in Folge, je Platz:" in text and "  cyd (Cyd): 1 (gewarnt)" in text


def test_the_gm_hears_when_an_abandoned_seat_is_played_again(seats_table):
    t = seats_table(**RULE)
    only_ann_and_bob_play(t, 2)
    for p in ("ann", "bob", "cyd"):
        t.bid(p)
    t.ref.tick()   # all in: an early close
    [back] = [m for m in t.mails()["gm@example.org"] if "played again" in m.splitlines()[0]]
    assert 'Cyd ("cyd") has sent orders again' in back
    assert seat_rows.seat_status(t.ref.store, "toy1") == {}
