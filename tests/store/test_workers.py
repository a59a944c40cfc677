"""Several ``referee run`` workers on one PostgreSQL store and one IMAP
mailbox, with real processes: one is SIGKILLed in the middle of a close
(holding the match), another in the middle of handling a mail (holding it);
a burst of orders and many matches due at once; the database restarted under
them.  Afterwards every order is stored once and answered once, every turn
resolved once, every report sent once (but for what sending at least once allows: a mail a
killed worker had handed to the server, not yet recorded as sent, comes again as the same mail)."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Set

import pytest
from pg import PgServer
from workers import PLAYERS, Campaign

DUE = 100     # matches whose deadline has passed when the workers start (issue 12: 100 at once)
ORDERING = 10  # matches whose three players all send orders in a burst (30 order mails)
RESTART_DUE = 12   # the restart test's: it is about reconnecting, not about size


def _unarchived(store) -> list[dict]:
    """Read only (``store.take_unarchived`` would take them for this process)."""
    return store._all("SELECT match, number FROM turns WHERE status='resolved' AND archived=0")


def _turn_closed(names):
    return lambda store: all(store.turn(m, 1)["status"] == "resolved" for m in names) and not _unarchived(store)


# headers the receiving server adds: they differ between two deliveries of one message
SERVER_HEADERS = {"received", "return-path", "delivered-to", "x-original-to"}


def _as_sent(m) -> bytes:
    """The message as the referee sent it: its own headers and body."""
    own = "".join(f"{k}: {v}\n" for k, v in m.items() if k.lower() not in SERVER_HEADERS)
    return own.encode() + m.as_bytes().split(b"\n\n", 1)[1]


def _once_each(delivered: list, in_flight: Set[str], senders: int) -> list:
    """One of each delivered Message-ID.  Sending is at least once (referee/outbox/sender.py): a
    worker killed after the server took a mail and before it recorded so leaves it to be sent again,
    as the very same message.  A stop-group freezes every thread of a worker wherever it is, a send
    included; so a second copy is allowed only of a mail the killed workers held claimed for sending
    (``in_flight``), identical, and one at most for each of their ``senders`` (sending processes)."""
    by_id = defaultdict(list)
    for m in delivered:
        by_id[m["Message-ID"]].append(m)
    twice = {mid: copies for mid, copies in by_id.items() if len(copies) > 1}
    for mid, copies in twice.items():
        assert mid in in_flight, f"{mid}: sent twice, and no killed worker was sending it"
        assert len(copies) == 2 and _as_sent(copies[0]) == _as_sent(copies[1]), f"{mid}: sent twice, not as one message"
    assert len(twice) <= senders, f"sent twice: {sorted(twice)}"
    return [copies[0] for copies in by_id.values()]


def _check(c: Campaign, due: list[str], mails: list[str], in_flight: Set[str] = frozenset(),
           senders: int = 0) -> None:
    ref = c.referee()
    try:
        store = ref.store
        # every order stored once: one processed record each, accepted, and the orders kept
        for mid in mails:
            assert store.processed(mid, _hash_of(store, mid)) == "processed", mid
        for mid, (player, match) in c.sent.items():
            assert store.submissions(match, 1)[player]["message_id"] == mid   # all in: the turn closed early
        # every turn resolved once: turn 1 of each due match resolved, turn 2 open, no close set aside
        for m in due:
            assert [(t["number"], t["status"], t["rev"]) for t in store.turns(m)] == [(1, "resolved", 0), (2, "open", 0)]
        assert [f for f in store.faults() if f["stage"] in ("close", "intake", "tick", "archive")] == []
        # every closed turn archived (a closer killed after its commit left its archive to another)
        assert _unarchived(store) == []
        assert [m for m in due if not (c.folder / "turns" / m / "t001" / "turn.json").exists()] == []
        assert {r["status"] for r in store.outbox()} == {"sent"}, \
            [(r["dedupe"], r["status"], r.get("last_error")) for r in store.outbox() if r["status"] != "sent"]
    finally:
        store.close()
    delivered = _once_each(c.delivered(), in_flight, senders)
    # every order answered once
    answers = Counter(m["In-Reply-To"] for m in delivered if m["In-Reply-To"])
    assert {mid: answers[mid] for mid in mails} == {mid: 1 for mid in mails}
    # every report sent once: one per seat and one for the GM, for each due match
    reports = Counter((m["To"].split("@")[0], _tag(m["Subject"])) for m in delivered
                      if "Report, turn 1" in (m["Subject"] or ""))
    for match in due:
        for who in (*PLAYERS, "gm"):
            assert reports[(who, match)] == 1, (who, match, reports)


def _tag(subject: str | None) -> str | None:
    import re
    hit = re.search(r"\[([a-z0-9-]+)\]", subject or "")
    return hit.group(1) if hit else None


def _hash_of(store, message_id: str) -> str:
    rows = store._all("SELECT content_hash FROM processed WHERE message_id=?", (message_id,))
    assert len(rows) == 1, (message_id, rows)
    return rows[0]["content_hash"]


@pytest.mark.parametrize("workers", [2, 3])
def test_workers_killed_mid_close_and_mid_intake_leave_nothing_twice_and_nothing_out(
        workers, mailservers, postgres, tmp_path):
    c = Campaign(mailservers, postgres.new_database(), tmp_path)
    due = [f"due{i:03}" for i in range(DUE)]
    ordering = [f"ord{i:02}" for i in range(ORDERING)]
    c.make_due(due)
    c.make_matches(ordering, due=False)
    keys = c.keys()
    try:
        # one worker stops inside its first close, holding that match; SIGKILL it there
        closer = c.start(stop_at="close.before_commit")
        c.wait_stopped(closer)
        # another stops right after a close's commit, before its archive: that turn's archive is left
        archiver = c.start(stop_at="close.committed")
        c.wait_stopped(archiver)
        # another stops inside handling its first order mail, holding that mail
        taker = c.start(stop_at="intake.before_commit")
        mails = c.burst(ordering[: ORDERING // 2], keys, "a")
        c.wait_stopped(taker)
        for _ in range(workers):
            c.start()   # these wait on the held mail and pass over the held match
        in_flight = c.sending([closer, archiver, taker])   # frozen: what they hold stays theirs
        c.kill(closer)
        c.kill(archiver)
        c.kill(taker)
        mails += c.burst(ordering[ORDERING // 2:], keys, "b")
        # the ordering matches close early once all are in: wait for those closes too, or their
        # reports may be queued only after the check for an empty outbox
        c.wait_quiet(lambda store: _turn_closed(due + ordering)(store) and all(
            store.processed(mid, _hash_of(store, mid)) not in (None, "taken")
            for mid in mails if store._one("SELECT 1 AS x FROM processed WHERE message_id=?", (mid,))) and
            len(store._all("SELECT message_id FROM processed WHERE message_id LIKE '<%'")) >= len(mails))
    finally:
        logs = c.stop_all()
    assert closer.returncode == archiver.returncode == taker.returncode == -9
    assert "Traceback" not in logs, logs
    # each killed worker sent from two processes: itself and its close worker (close_workers: 1)
    _check(c, due, mails, in_flight, senders=2 * 3)


def test_a_worker_killed_after_the_server_took_a_mail_before_recording_it_leaves_that_mail_sent_again_as_the_same_mail(
        mailservers, postgres, tmp_path):
    """The one gap sending at least once leaves, with real processes: the mail comes twice, as one
    message (mail clients fold the two), and it alone."""
    c = Campaign(mailservers, postgres.new_database(), tmp_path)
    c.make_matches(["ord00"], due=False)   # welcome mails to send
    try:
        sender = c.start(stop_at="outbox.after_send")   # frozen right after the server's 250
        c.wait_stopped(sender)
        in_flight = c.sending([sender])
        assert len(in_flight) >= 1
        c.kill(sender)
        c.start()
        c.wait_quiet(lambda store: True)
    finally:
        logs = c.stop_all()
    assert "Traceback" not in logs, logs
    delivered = c.delivered()
    twice = {mid for mid, n in Counter(m["Message-ID"] for m in delivered).items() if n > 1}
    assert len(twice) == 1 and twice <= in_flight
    assert len(_once_each(delivered, in_flight, senders=2)) == len(delivered) - 1


def test_workers_carry_on_when_the_database_restarts_under_them(mailservers, tmp_path):
    server = PgServer()   # its own server: restarting it disturbs no other test
    try:
        c = Campaign(mailservers, server.new_database(), tmp_path)
        due = [f"due{i:02}" for i in range(RESTART_DUE)]
        ordering = [f"ord{i:02}" for i in range(ORDERING)]
        c.make_matches(due, due=True)
        c.make_matches(ordering, due=False)
        keys = c.keys()
        try:
            c.start()
            c.start()
            mails = c.burst(ordering[: ORDERING // 2], keys, "a")
            mailservers.wait_messages("alice", 1, timeout=60)   # the workers are under way
            server.restart()
            mails += c.burst(ordering[ORDERING // 2:], keys, "b")
            c.wait_quiet(lambda store: _turn_closed(due + ordering)(store) and
                         len(store._all("SELECT message_id FROM processed WHERE outcome='processed'")) >= len(mails))
        finally:
            logs = c.stop_all()
        assert all(p.returncode == 0 for p in c.workers), logs
        assert "the store" in logs or "cycle failed" in logs or "set aside" not in logs
        _check(c, due, mails)
    finally:
        server.remove()
