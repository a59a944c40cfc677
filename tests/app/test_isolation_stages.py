"""Isolation: in every stage one item that raises is set aside (recorded,
counted, its GM told) and every other item is still done."""
from __future__ import annotations

import mailbox
import threading
import time
from datetime import UTC

import pytest
from seckit import SPEC, clock, hostile, keys_of, mail, order, outbox, ref, text_of, to, toy_registered  # noqa: F401

from referee.app.service import Service
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource


@pytest.fixture
def two(ref, outbox):
    """Two matches, toy1 and toy2, with the same players; returns their keys."""
    ref.create_match(SPEC)
    k1 = keys_of(outbox.flush())
    ref.create_match(dict(SPEC, id="toy2", gm="gm2@example.org"))
    k2 = keys_of(outbox.flush())
    return k1, k2


def break_state(ref, match: str) -> None:
    """A turn whose stored state the game cannot load: closing it raises."""
    ref.store._exec("UPDATE turns SET state='{\"broken\": true}' WHERE match=?", (match,))
    ref._states.clear()


def faults(ref, stage: str) -> list[str]:
    return [f["item"] for f in ref.store.faults() if f["stage"] == stage]


def test_isolation_intake_one_mail_that_breaks_the_handling_is_set_aside(ref, outbox, two, tmp_path, monkeypatch):
    k1, _ = two
    inbox = tmp_path / "in"
    source = MaildirSource(inbox)
    box = mailbox.Maildir(str(inbox))
    box.add(hostile("ann@example.org", order("ann", k1["ann"]), message_id="<a@x>"))
    box.add(hostile("bob@example.org", "poison", message_id="<poison@x>"))
    box.add(hostile("cyd@example.org", order("cyd", k1["cyd"]), message_id="<c@x>"))
    real = ref.archive.save_mail

    def save_mail(match_id, number, content_hash, raw):   # the disk refuses this one mail, every time
        if b"poison" in raw:
            raise RuntimeError("cannot keep this mail")
        return real(match_id, number, content_hash, raw)
    monkeypatch.setattr(ref.archive, "save_mail", save_mail)
    service = Service(ref, source, MaildirSink(tmp_path / "out"), address="referee@example.org")
    report = service.poll_once()
    assert report.mails == 3 and report.outcomes == {"processed": 2, "refused": 1}
    assert sorted(ref.store.submissions("toy1", 1)) == ["ann", "cyd"]
    assert len(faults(ref, "intake")) == 1
    assert [m for m in mailbox.Maildir(str(inbox)).keys()] == []   # nothing left to come back forever
    assert len(mailbox.Maildir(str(inbox / ".Refused"), create=False)) == 1


def test_isolation_close_one_broken_match_leaves_the_other_closing(ref, outbox, two, clock):
    break_state(ref, "toy2")
    clock.advance(hours=49)
    report = ref.tick()
    assert report.closed == [("toy1", 1)] and report.failed == [("toy2", 1)]
    ref.tick()   # tried again; the GM hears of it once
    sent = outbox.flush()
    [told] = [m for m in to(sent, "gm2@example.org") if "could not be resolved" in m["Subject"]]
    assert "turn 1 could not be resolved" in text_of(told)
    assert [f["count"] for f in ref.store.faults("toy2")] == [2]
    assert [r["faults"] for r in ref.overview() if r["id"] == "toy2"][0]


def test_isolation_close_fault_reaches_a_german_gm_in_german(ref, outbox, clock):
    ref.create_match(dict(SPEC, language="de"))
    outbox.flush()
    break_state(ref, "toy1")
    clock.advance(hours=49)
    ref.tick()
    [told] = to(outbox.flush(), "gm@example.org")
    assert "Zug 1 konnte nicht ausgewertet werden" in told["Subject"]


def test_isolation_archive_repair_one_unwritable_turn_leaves_the_others(ref, outbox, two, clock, tmp_path):
    clock.advance(hours=49)
    assert sorted(ref.tick().closed) == [("toy1", 1), ("toy2", 1)]
    # toy2's stored result is damaged (not a disk error: the repair used to catch only OSError)
    ref.store._exec("UPDATE turns SET archived=0, result='{}' WHERE match='toy2' AND number=1")
    ref.store._exec("UPDATE turns SET archived=0 WHERE match='toy1' AND number=1")
    (tmp_path / "turns" / "toy1" / "t001" / "turn.json").unlink()
    clock.advance(hours=49)
    report = ref.tick()
    assert (tmp_path / "turns" / "toy1" / "t001" / "turn.json").exists()
    assert ("toy1", 2) in report.closed and ("toy2", 2) in report.closed
    assert faults(ref, "archive") == ["toy2:1"]


def test_isolation_outbox_one_unbuildable_row_is_failed_and_the_rest_sent(ref, outbox, two):
    for n, data in enumerate((b'{"to": "x"}', b"not json", b'{"from": "referee@example.org", "to": "a@b\\r\\nBcc: c@d",'
                              b' "subject": "s", "text": "t", "html": null, "auto": "auto-generated", "message_id": "<m@x>",'
                              b' "date": "2026-03-02T09:00:00+00:00", "in_reply_to": null, "references": []}')):
        ref.store.enqueue(f"bad:{n}", "toy2", "x", data, ref.now())
    ref.force("toy1")
    sent = outbox.flush()
    assert len(to(sent, "ann@example.org")) == 1   # toy1's report still went out
    bad = [r for r in ref.store.outbox() if r["dedupe"].startswith("bad:")]
    assert [r["status"] for r in bad] == ["failed"] * 3
    assert sorted(faults(ref, "outbox")) == sorted(str(r["id"]) for r in bad)
    assert ref.set_aside()["outbox_failed"] == 3
    told = to(outbox.flush(), "gm2@example.org")   # toy2's GM hears of each row, once
    assert len(told) == 3 and all("could not be built or sent" in m["Subject"] for m in told)
    assert [r for r in ref.store.outbox() if r["status"] in ("sending", "queued")] == []


def test_isolation_reminders_one_player_who_cannot_be_reminded_leaves_the_other_match(ref, outbox, two, clock):
    ref.store._exec("UPDATE players SET lang=? WHERE match='toy2' AND id='ann'", ("de\x00",))   # as an old store may hold
    clock.advance(hours=37)   # 12 h before the deadline
    ref.tick()
    sent = outbox.flush()
    assert len([m for m in to(sent, "cyd@example.org") if "toy1" in m["Subject"]]) == 1
    assert len([m for m in to(sent, "ann@example.org") if "toy1" in m["Subject"]]) == 1
    assert faults(ref, "remind") == ["toy2:1.0"]


def test_isolation_next_due_one_match_beyond_the_calendar_leaves_the_others(ref, outbox, two, clock):
    from datetime import datetime, timezone
    ref.store.set_deadline("toy2", 1, datetime(9999, 12, 31, 23, 59, tzinfo=UTC))
    due = ref.next_due()
    assert due is not None and due.year == 2026
    assert faults(ref, "next_due") == ["toy2"]
    clock.advance(hours=49)
    assert ref.tick().closed == [("toy1", 1)]


def test_isolation_service_run_survives_an_error_outside_any_item(ref, outbox, two, tmp_path):
    k1, _ = two

    class Flaky(MaildirSource):
        fails = 1

        def fetch(self, limit=500):
            if Flaky.fails:
                Flaky.fails -= 1
                raise RuntimeError("a bug outside any one mail")
            return super().fetch(limit)
    inbox = tmp_path / "in"
    source = Flaky(inbox)
    service = Service(ref, source, MaildirSink(tmp_path / "out"), address="referee@example.org", poll_interval=0.2)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,), daemon=True)
    runner.start()
    try:
        mailbox.Maildir(str(inbox)).add(hostile("ann@example.org", order("ann", k1["ann"]), message_id="<late@x>"))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not ref.store.submissions("toy1", 1):
            time.sleep(0.1)
        assert runner.is_alive() and sorted(ref.store.submissions("toy1", 1)) == ["ann"]
    finally:
        stop.set()
        runner.join(timeout=10)
    assert not runner.is_alive()


def test_isolation_status_counts_what_was_set_aside(tmp_path, capsys, monkeypatch):
    from referee.app import cli
    from referee.app.config import load
    from referee.app.wiring import open_referee
    monkeypatch.chdir(tmp_path)
    assert cli.main(["init"]) == 0
    ref = open_referee(load(tmp_path / "referee.yaml"))
    ref.create_match(dict(SPEC, players=[dict(p, lang=None) for p in SPEC["players"]]))
    ref.store.enqueue("bad:0", "toy1", "x", b"not json", ref.now())
    break_state(ref, "toy1")
    from datetime import timedelta
    ref.store.set_deadline("toy1", 1, ref.now() - timedelta(hours=1))
    ref.tick()
    ref.send_pending(MaildirSink(tmp_path / "mail" / "out"))
    capsys.readouterr()
    assert cli.main(["status"]) == 0
    out = capsys.readouterr().out
    assert "FLAGGED: close toy1:1.0 (1x)" in out
    assert "set aside after errors: 1 close, 1 outbox, 1 outbox mails failed" in out
