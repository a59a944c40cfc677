"""MaildirSource and MaildirSink: the embedded default needs no server."""
from __future__ import annotations

import mailbox
import threading
import time
from datetime import UTC

import pytest
from mail_samples import ORDERS, SAMPLES, simple

from referee.mail.compose import compose
from referee.mail.inbound import parse_inbound
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource


def _drop(path, raw: bytes) -> str:
    return mailbox.Maildir(str(path), factory=None, create=True).add(raw)


def test_fetch_returns_new_and_cur_until_done(tmp_path):
    source = MaildirSource(tmp_path / "in")
    first = _drop(tmp_path / "in", simple(msgid="<1@x>"))
    time.sleep(0.01)
    second = _drop(tmp_path / "in", simple(msgid="<2@x>"))
    box = mailbox.Maildir(str(tmp_path / "in"), factory=None)
    msg = box.get_message(second)
    msg.set_subdir("cur")  # a mail client already looked at it
    box[second] = msg
    got = source.fetch()
    assert [parse_inbound(raw).message_id for _, raw in got] == ["<1@x>", "<2@x>"]
    assert [ref for ref, _ in source.fetch()] == [ref for ref, _ in got]  # not done: seen again
    assert source.fetch(limit=1) == got[:1]
    source.done(got[0][0], "processed")
    source.done(got[1][0], "refused")
    source.done(got[1][0], "refused")  # repeating is harmless
    assert source.fetch() == []
    processed = mailbox.Maildir(str(tmp_path / "in"), factory=None).get_folder("Processed")
    refused = mailbox.Maildir(str(tmp_path / "in"), factory=None).get_folder("Refused")
    assert [m["Message-ID"] for m in processed] == ["<1@x>"]
    assert [m["Message-ID"] for m in refused] == ["<2@x>"]
    assert "S" in next(iter(processed)).get_flags()
    assert first == got[0][0]


def test_done_rejects_unknown_outcome(tmp_path):
    source = MaildirSource(tmp_path / "in")
    ref = _drop(tmp_path / "in", simple())
    with pytest.raises(ValueError):
        source.done(ref, "lost")
    source.done(ref, "ignored")
    assert len(mailbox.Maildir(str(tmp_path / "in"), factory=None).get_folder("Ignored")) == 1


def test_raw_bytes_are_kept_exactly(tmp_path):
    source = MaildirSource(tmp_path / "in")
    for build in SAMPLES.values():
        _drop(tmp_path / "in", build())
    raws = sorted(raw for _, raw in source.fetch())
    assert raws == sorted(build() for build in SAMPLES.values())


def test_wait_returns_early_on_new_mail_and_times_out(tmp_path):
    source = MaildirSource(tmp_path / "in", poll_interval=0.02)
    start = time.monotonic()
    source.wait(0.2)
    assert 0.18 <= time.monotonic() - start < 1.0
    timer = threading.Timer(0.1, _drop, (tmp_path / "in", simple()))
    timer.start()
    start = time.monotonic()
    source.wait(10)
    assert time.monotonic() - start < 2.0 and len(source.fetch()) == 1
    timer.join()
    start = time.monotonic()
    source.wait(10)  # mail still waits: no blocking at all
    assert time.monotonic() - start < 0.1


def test_sink_writes_one_file_per_message_readable_by_source(tmp_path):
    sink = MaildirSink(tmp_path / "out")
    for n in range(3):
        sink.send(compose("referee@referee.test", "alice@players.test", f"Bericht {n} – Zölle",
                          ORDERS, "<p>html</p>", domain="referee.test", auto="auto-generated"))
    files = list((tmp_path / "out" / "new").iterdir())
    assert len(files) == 3 and all(b"\r\n" not in f.read_bytes() for f in files)
    mails = [parse_inbound(raw) for _, raw in MaildirSource(tmp_path / "out").fetch()]
    assert sorted(m.subject for m in mails) == [f"Bericht {n} – Zölle" for n in range(3)]
    assert all(m.text == ORDERS for m in mails)


def test_sink_takes_a_message_reparsed_from_crlf_bytes(tmp_path):
    from email import message_from_bytes, policy
    stored = compose("referee@referee.test", "alice@players.test", "Zölle", ORDERS, "<p>ö</p>",
                     domain="referee.test").as_bytes(policy=policy.SMTP)
    MaildirSink(tmp_path / "out").send(message_from_bytes(stored, policy=policy.SMTP))
    data, = [f.read_bytes() for f in (tmp_path / "out" / "new").iterdir()]
    assert b"\r" not in data and data.replace(b"\n", b"\r\n") == stored


def test_incoming_gives_size_delivery_time_and_only_the_head_of_an_over_size_mail(tmp_path):
    import os
    from datetime import datetime, timezone
    source = MaildirSource(tmp_path / "in")
    small = _drop(tmp_path / "in", simple(msgid="<small@x>"))
    big_raw = simple(msgid="<big@x>", body="x" * 300_000 + "\r\n")
    big = _drop(tmp_path / "in", big_raw)
    delivered = datetime(2026, 3, 4, 8, 0, tzinfo=UTC)
    os.utime(tmp_path / "in" / "new" / big, (delivered.timestamp(), delivered.timestamp()))
    got = {m.ref: m for m in source.incoming(max_bytes=256_000)}
    assert got[big].size == len(big_raw) and got[big].arrived == delivered
    assert got[big].raw == big_raw[:big_raw.index(b"\r\n\r\n") + 4]   # the header section only
    assert got[small].raw == simple(msgid="<small@x>") and got[small].arrived is not None


def test_a_source_with_only_fetch_still_feeds_the_service(tmp_path):
    from referee.mail.source import incoming_of

    class Old:
        def fetch(self, limit=500):
            return [("r1", simple(msgid="<old@x>"))][:limit]

    [item] = list(incoming_of(Old(), 10, 256_000))
    assert (item.ref, item.size, item.arrived) == ("r1", len(simple(msgid="<old@x>")), None)


def _files(path) -> list:
    return sorted(p.name for sub in ("new", "cur") for p in (path / sub).iterdir())


def test_sink_second_delivery_of_a_message_id_is_a_no_op(tmp_path, monkeypatch):
    """Issue 32 item 12: the outbox's repeat after a kill writes nothing twice, also once a mail
    client has moved the first copy to cur/ or deleted it; found without listing the folder."""
    import os
    out = tmp_path / "out"
    sink = MaildirSink(out)
    msg = compose("referee@referee.test", "alice@players.test", "Re: [k3] Orders accepted", ORDERS, None,
                  domain="referee.test", message_id="<abc.k3@referee.test>")
    wire = msg.as_bytes(policy=__import__("email").policy.SMTP)

    def no_listing(*_):
        raise AssertionError("the sink listed a folder")
    monkeypatch.setattr(os, "listdir", no_listing)
    monkeypatch.setattr(os, "scandir", no_listing)
    sink.send_bytes(wire, "referee@referee.test", ["alice@players.test"])
    sink.send(msg)                                    # the same Message-ID by the other path
    MaildirSink(out).send_bytes(wire, "referee@referee.test", ["alice@players.test"])   # another worker
    monkeypatch.undo()
    [first] = _files(out)
    assert (out / "new" / first).read_bytes() == wire.replace(b"\r\n", b"\n")
    box = mailbox.Maildir(str(out), factory=None)
    [key] = box.keys()
    moved = box.get_message(key)
    moved.set_subdir("cur")
    moved.add_flag("S")
    box[key] = moved                                   # a mail client read it
    sink.send_bytes(wire, "referee@referee.test", ["alice@players.test"])
    assert len(_files(out)) == 1
    box.remove(box.keys()[0])                           # and deleted it
    sink.send_bytes(wire, "referee@referee.test", ["alice@players.test"])
    assert _files(out) == [] and list((out / "tmp").iterdir()) == []
    other = compose("referee@referee.test", "alice@players.test", "Re: [k3] Orders accepted", ORDERS, None,
                    domain="referee.test", message_id="<abd.k3@referee.test>")
    sink.send(other)
    assert [m["Message-ID"] for m in mailbox.Maildir(str(out), factory=None)] == ["<abd.k3@referee.test>"]


def test_sink_writes_a_message_without_message_id_every_time(tmp_path):
    raw = simple().replace(b"Message-ID: <simple@players.test>\r\n", b"")
    sink = MaildirSink(tmp_path / "out")
    sink.send_bytes(raw, "a@x", ["b@x"])
    sink.send_bytes(raw, "a@x", ["b@x"])
    assert len(_files(tmp_path / "out")) == 2


@pytest.mark.parametrize("msgid", ["<../../evil@x>", "</etc/passwd>", "<a:2,S@x>", "<" + "x" * 5000 + "@x>",
                                   "<ü@x>", "  <folded@x>\r\n  ", "<nul\x00@x>"])
def test_sink_names_a_hostile_message_id_by_its_digest_inside_new(tmp_path, msgid):
    """Hostile input: whatever a Message-ID holds, the file is named by a digest of it, in new/."""
    raw = simple(msgid=msgid)
    sink = MaildirSink(tmp_path / "out")
    sink.send_bytes(raw, "a@x", ["b@x"])
    sink.send_bytes(raw, "a@x", ["b@x"])
    [name] = _files(tmp_path / "out")
    assert name.startswith("mid-") and len(name) == 44 and name.isascii()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
