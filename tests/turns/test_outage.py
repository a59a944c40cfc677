"""A deadline the referee (or its mailbox) was down across is moved, not closed blindly;
everyone is told, in their language.  All on the injected clock."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import refkit
from hardkit import SPEC, START, Outbox, clock, create, inbound, make_referee, send_orders, text_of, to, toy_registered

from referee.app.service import Service
from referee.authority.matches.match_file import MatchError
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource
from referee.store.meta import MetaFacts

DEADLINE = START + timedelta(hours=48)
GRACE = timedelta(minutes=30)


ref, outbox = refkit.referee_fixtures(lambda root, clock: make_referee(root, clock, watch_outages=True))


def deadline(ref, match="toy1") -> datetime:
    return datetime.fromisoformat(ref.store.current_turn(match)["deadline"])


def tick_every(ref, clock, until: datetime, step=timedelta(minutes=20), read_mail=True) -> list:
    """A service that is up: a tick (and a full mailbox read) every ``step`` until ``until``."""
    closed = []
    while clock.t < until:
        clock.t = min(clock.t + step, until)
        if read_mail:
            ref.mail_read()
        closed += ref.tick().closed
    return closed


def test_down_across_the_deadline_moves_it_by_the_outage_plus_grace_and_tells_everyone(ref, outbox, clock):
    keys = create(ref, outbox)
    send_orders(ref, "toy1", keys, ["ann"], 1)
    outbox.flush()
    ref.mail_read()
    assert ref.tick().closed == []                 # the service is up at START ...
    clock.t = DEADLINE + timedelta(hours=12)       # ... and down for 60 hours, across the deadline
    assert ref.tick().closed == []                 # not closed blindly
    assert deadline(ref) == DEADLINE + timedelta(hours=60) + GRACE
    sent = outbox.flush()
    assert sorted(m["To"] for m in sent) == ["ann@example.org", "bob@example.org", "cyd@example.org",
                                            "gm@example.org", "watcher@example.org"]
    (ann,), (bob,) = to(sent, "ann@"), to(sent, "bob@")
    assert "Deadline moved: the referee was down" in ann["Subject"]
    assert "was not running\n  from " in text_of(ann) and "across the deadline of turn 1" in text_of(ann)
    assert "Frist verschoben" in bob["Subject"] and "außer Betrieb" in text_of(bob)   # Bob reads German
    assert "Awaited: Bob, Cyd" in text_of(ann)
    assert ann.get_body(("plain",)) is not None and any(p.get_content_type() == "text/calendar" for p in ann.walk())
    assert ref.store.submissions("toy1", 1).keys() == {"ann"}   # orders in before stay
    # the next tick sees a live service: nothing moves again, nobody is told twice
    clock.advance(minutes=5)
    assert ref.tick().closed == [] and outbox.flush() == []
    assert deadline(ref) == DEADLINE + timedelta(hours=60) + GRACE
    # with the service up, the moved deadline closes the turn as usual
    closed = tick_every(ref, clock, deadline(ref) + GRACE + timedelta(minutes=1))
    assert closed == [("toy1", 1)]
    assert ref.store.turn("toy1", 1)["result"]["missing"] == ["bob", "cyd"]


def test_a_mailbox_unread_for_longer_than_the_grace_before_the_deadline_moves_it_too(ref, outbox, clock):
    create(ref, outbox)
    outbox.flush()
    ref.mail_read()
    ref.tick()
    clock.t = DEADLINE - timedelta(hours=3)
    ref.mail_read()                                 # the last time the mailbox could be read
    read_at = clock.t
    # the service ticks on, but every read of the mailbox fails
    closed = tick_every(ref, clock, DEADLINE + GRACE + timedelta(minutes=5), read_mail=False)
    assert closed == []
    moved_at = DEADLINE                             # the first tick at or after the deadline
    assert deadline(ref) == DEADLINE + (moved_at - read_at) + GRACE
    sent = outbox.flush()
    assert len(sent) == 5
    assert "could not read its mail" in to(sent, "ann@")[0]["Subject"]
    assert "konnte sein Postfach nicht lesen" in text_of(to(sent, "bob@")[0])
    # the mailbox still cannot be read: nothing more until the moved deadline has passed too
    closed = tick_every(ref, clock, deadline(ref) - timedelta(minutes=1), read_mail=False)
    assert closed == [] and outbox.flush() == []
    # the mailbox is back: the turn closes at the moved deadline
    closed = tick_every(ref, clock, deadline(ref) + GRACE + timedelta(minutes=1))
    assert closed == [("toy1", 1)]


def test_short_gaps_are_no_outage_the_turn_closes_at_deadline_plus_grace(ref, outbox, clock):
    create(ref, outbox)
    ref.mail_read()
    ref.tick()
    clock.t = DEADLINE - timedelta(minutes=10)
    ref.mail_read()
    ref.tick()
    closed = tick_every(ref, clock, DEADLINE + GRACE + timedelta(minutes=1), step=timedelta(minutes=25))
    assert closed == [("toy1", 1)]
    assert not any("moved" in m["Subject"] for m in outbox.flush())


def test_everyone_in_before_the_outage_closes_without_moving(ref, outbox, clock):
    keys = create(ref, outbox)
    ref.mail_read()
    ref.tick()
    # early close off: the turn waits for its deadline though everyone is in
    ref.store.set_wait("toy1", 1, "ann", False)
    send_orders(ref, "toy1", keys, ["ann", "bob", "cyd"], 1)
    clock.t = DEADLINE + timedelta(hours=5)
    assert ref.tick().closed == [("toy1", 1)]      # closed early (or now): nobody lost anything


def test_a_match_may_switch_the_watch_off(ref, outbox, clock):
    create(ref, outbox, dict(SPEC, outage={"extend": False}))
    ref.mail_read()
    ref.tick()
    clock.t = DEADLINE + timedelta(hours=12)
    assert ref.tick().closed == [("toy1", 1)]


def test_a_longer_threshold_in_the_match_file_tolerates_a_cron_tick(ref, outbox, clock):
    create(ref, outbox, dict(SPEC, outage={"after": "2h"}))
    ref.mail_read()
    ref.tick()
    closed = tick_every(ref, clock, DEADLINE + GRACE + timedelta(minutes=5), step=timedelta(minutes=90))
    assert closed == [("toy1", 1)]


def test_a_simulated_clock_is_not_watched(tmp_path, clock):
    ref = make_referee(tmp_path, clock)            # Settings default: the demo and most tests jump in time
    out = Outbox(ref, tmp_path / "out")
    create(ref, out)
    ref.tick()
    clock.t = DEADLINE + timedelta(hours=12)
    assert ref.tick().closed == [("toy1", 1)]


def test_the_service_loop_records_the_mailbox_read_and_the_tick(ref, outbox, clock, tmp_path):
    create(ref, outbox)
    service = Service(ref, MaildirSource(tmp_path / "in"), MaildirSink(tmp_path / "svc-out"), address="referee@example.org")
    service.cycle()
    beats = ref.outages.beats()
    assert beats == {"last_tick": START, "last_mail_read": START}
    clock.advance(hours=1)
    service.poll_once()
    assert ref.outages.beats()["last_mail_read"] == START + timedelta(hours=1)


@pytest.mark.parametrize("options, said", [
    ({"outage": {"after": "soon"}}, "outage.after is a duration"),
    ({"outage": {"after": "0m"}}, "between 1m and 7d"),
    ({"outage": {"after": "99999d"}}, "between 1m and 7d"),
    ({"outage": {"extend": "perhaps"}}, "outage.extend"),
    ({"outage": {"nap": True}}, "unknown field 'nap' (known: after, extend)"),
    ({"outage": "x" * 100_000}, "outage"),
])
def test_hostile_outage_options_are_refused_at_the_door(ref, options, said):
    with pytest.raises(MatchError) as caught:
        ref.create_match(dict(SPEC, **options))
    assert said in " ".join(caught.value.problems)
    assert ref.store.match("toy1") is None


def test_a_broken_heartbeat_row_is_no_outage_and_no_failure(ref, outbox, clock):
    create(ref, outbox)
    with ref.store.transaction():
        MetaFacts(ref.store).set("last_tick", "not a time \x00")
    clock.t = DEADLINE + timedelta(hours=1)
    assert ref.tick().closed == [("toy1", 1)]
    assert ref.outages.beats()["last_tick"] == clock.t


def test_orders_sent_during_the_outage_are_taken_when_read(ref, outbox, clock):
    keys = create(ref, outbox)
    ref.mail_read()
    ref.tick()
    clock.t = DEADLINE + timedelta(hours=2)        # the service comes back; the mail waited at the server
    ref.tick()                                     # the tick moves the deadline ...
    assert ref.handle(inbound("bob@example.org",  # ... so the mail read next is on time
                              f"match: toy1\nplayer: bob\nkey: {keys['bob']}\nturn: 1\norders:\n  bid: 2\n")).reason == "accepted"
