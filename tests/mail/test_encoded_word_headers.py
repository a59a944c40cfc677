"""Issue 32 item 1: encoded words never become header lines.  Through the command
line as an operator runs it (``referee init``, ``new``, mails dropped into
mail/in, ``poll --once``), every mail in mail/out is read as bytes: its header
section holds only the fields the referee writes, however a joiner names
himself, whatever a player's In-Reply-To holds, and also for a name an older
release let in (stored before the door refused it)."""
from __future__ import annotations

import json
import os
import re
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
import yaml
from maildesk import Desk, read, text_of
from seckit import SPEC, clock, outbox, ref, toy_registered  # noqa: F401  (fixtures)

from referee.app.cli import main

CODE = re.compile(r"^code: (\S+)$", re.M)
HOSTILE_NAME = "=?utf-8?q?Eve=0D=0AReply-To:_eve=40evil.test=0D=0AX-A:?="
HOSTILE_ID = "<=?utf-8?q?x=0D=0AX-Injected:_1?=@a.test>"
WRITTEN = {"from", "to", "cc", "subject", "date", "message-id", "in-reply-to", "references", "auto-submitted",
           "x-auto-response-suppress", "content-type", "content-transfer-encoding", "mime-version"}
LOBBY = """\
id: lobby
game: founding_fathers
lang: en
gm: gm@example.org
timezone: Europe/Berlin
schedule: {period: 48h}
press: private
absence: {policy: extend, max_days: 7}
players:
  - {id: ann, name: Ann, email: ann@example.org}
seats: 3
"""


def fields(raw: bytes) -> list[str]:
    """The names of the top-level header fields of a raw mail, as a mail server reads them."""
    head = raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0].decode("ascii")
    return [line.split(":", 1)[0].lower() for line in head.split("\n") if line and line[0] not in " \t"]


def assert_only_written_fields(mails: list[bytes]) -> None:
    for raw in mails:
        assert set(fields(raw)) <= WRITTEN, fields(raw)
        assert len(fields(raw)) == len(set(fields(raw))), fields(raw)   # no second Subject, To ...


def join(desk: Desk, sender: str, name: str) -> None:
    desk.mail(sender, yaml.safe_dump({"match": "lobby", "player": "any", "command": "join", "name": name}))


def seated(desk: Desk, sender: str, name: str) -> list[bytes]:
    """A join proved with the code mailed back (issue 32 item 2); the mails sent on the way."""
    join(desk, sender, name)
    sent = desk.sent()
    [code] = [m.group(1) for raw in sent if read(raw)["To"] == sender and (m := CODE.search(text_of(raw)))]
    desk.mail(sender, yaml.safe_dump({"match": "lobby", "player": "any", "command": "join", "code": code}))
    return sent + desk.sent()


@pytest.fixture
def desk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # strangers answered: the refusal is read below
    return Desk(tmp_path, LOBBY, "strangers:\n  answer: all\n")


def test_item1_a_joiner_named_in_encoded_words_is_refused_at_the_door(desk):
    desk.sent()
    join(desk, "eve@evil.test", HOSTILE_NAME)
    mails = desk.sent()
    assert_only_written_fields(mails)
    [refusal] = [read(m) for m in mails]          # only the answer to eve: no "joined" mail to the GM
    assert refusal["To"] == "eve@evil.test"
    assert "without '=?'" in refusal.get_body(("plain",)).get_content()
    assert main(["gm", "lobby", "status"]) == 0   # and no seat taken


def test_item1_a_name_stored_before_the_door_check_never_makes_a_header_line(desk, tmp_path):
    """The GM's "joined" mail, table talk from the seat and "Deadline moved: ... is away"."""
    desk.sent()
    mails = seated(desk, "dan@example.org", "Dan") + seated(desk, "fay@example.org", "Fay")   # full: it starts
    assert_only_written_fields(mails)
    dan = desk.key(mails, "dan@example.org")
    db = sqlite3.connect(tmp_path / "referee.sqlite")   # as a release without the door check stored it
    with db:
        db.execute("UPDATE players SET name=? WHERE match='lobby' AND email='dan@example.org'", (HOSTILE_NAME,))
    db.close()
    seat = {"match": "lobby", "player": "seat1", "key": dan}
    desk.mail("dan@example.org", yaml.safe_dump(seat | {"press": {"to": "ann", "text": "Hello Ann."}}))
    today = datetime.now(UTC).date()
    desk.mail("dan@example.org", yaml.safe_dump(seat | {"command": "absent", "from": str(today + timedelta(days=1)),
                                                        "until": str(today + timedelta(days=3))}))
    mails = desk.sent()
    assert_only_written_fields(mails)
    subjects = [read(m)["Subject"] for m in mails]
    assert any(s.startswith("[lobby] Table talk from " + HOSTILE_NAME) for s in subjects), subjects
    assert any(s == f"[lobby] Deadline moved: {HOSTILE_NAME} is away" for s in subjects), subjects
    assert b"\nReply-To:" not in b"".join(mails).replace(b"\r\n", b"\n")


def test_item1_an_encoded_word_in_in_reply_to_stays_out_of_the_reply(desk):
    desk.sent()
    mid = desk.mail("ann@example.org", "match: lobby\nplayer: ann\nkey: WRONG-KEY\ncommand: status\n",
                    extra=f"In-Reply-To: {HOSTILE_ID}\r\nReferences: {HOSTILE_ID}\r\n")
    mails = desk.sent()
    assert mails
    assert_only_written_fields(mails)
    for raw in mails:
        msg = read(raw)
        assert "=?" not in str(msg["In-Reply-To"] or "") + str(msg["References"] or "")
    assert any(read(m)["In-Reply-To"] == mid for m in mails)   # still threaded on his own


def test_item1_a_queued_mail_whose_header_cannot_be_written_is_held_as_an_outbox_fault(ref, outbox):
    """Rows an older release queued: a subject with a line break, a reply threaded on an id
    holding an encoded word.  Neither is sent; each is an outbox fault the GM hears of; the
    mail queued after them goes out."""
    ref.create_match(SPEC)
    outbox.flush()
    ref.mail_queue.queue("legacy:subject", "toy1", "ann@example.org", "[toy1] Hi\r\nBcc: all@evil.test", "text")
    row = {"from": "referee@example.org", "to": "bob@example.org", "subject": "Re: status", "text": "t", "html": None,
           "auto": "auto-replied", "date": "2026-03-02T09:00:00+00:00", "message_id": "<r1.toy1@example.org>",
           "in_reply_to": HOSTILE_ID, "references": [HOSTILE_ID]}
    with ref.store.transaction():
        ref.store.enqueue("legacy:reply", "toy1", "bob@example.org", json.dumps(row).encode(), ref.now())
    ref.mail_queue.queue("after", "toy1", "cyd@example.org", "[toy1] Still sent", "text")
    sent = outbox.flush()
    assert {m["To"]: m["Subject"] for m in sent if m["To"] != "gm@example.org"} == {"cyd@example.org": "[toy1] Still sent"}
    assert {r["dedupe"]: r["status"] for r in ref.store.outbox("toy1") if r["dedupe"].startswith("legacy")} == \
        {"legacy:subject": "failed", "legacy:reply": "failed"}
    assert {f["item"] for f in ref.store.faults("toy1") if f["stage"] == "outbox"} and \
        all("HeaderFault" in f["error"] for f in ref.store.faults("toy1"))
    assert any(m["To"] == "gm@example.org" and "could not be built" in m["Subject"] for m in outbox.flush())   # GM told
    assert_only_written_fields([(outbox.path / "new" / f).read_bytes() for f in os.listdir(outbox.path / "new")])
