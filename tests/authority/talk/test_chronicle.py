"""The chronicle heads the next report of every player and observer (or of named seats
only) and is archived; players' letters wait for the GM's approve or decline, and an
approved letter is published the same way.  Bad input changes nothing."""
from __future__ import annotations

import pytest
import yaml
from talk_table import TalkTable

from referee.authority.wording import Refusal
from referee.mail.inbound import parse_inbound
from referee.store.talk import TalkRecords


@pytest.fixture
def table(tmp_path):
    t = TalkTable(tmp_path)
    yield t
    t.close()


def reports(table) -> dict[str, str]:
    table.ref.close_turn("talk1")
    return {m.to: m.text for m in table.mails() if "Report" in m.subject or "Bericht" in m.subject}


def test_the_gms_chronicle_heads_every_next_report_and_is_archived(table):
    done = table.send("gm", command="chronicle", title="The thaw", text="Ice breaks in the harbour.\n\nBoats return.")
    assert done.outcome == "processed"
    (said,) = table.mails()
    assert said.to == "gm" and "heads the reports of turn 1" in said.text
    got = reports(table)
    assert set(got) == {"ann", "bob", "cat", "obs", "gm"}
    for who, text in got.items():
        assert text.startswith(("The chronicle: The thaw", "Die Chronik: The thaw")), (who, text[:80])
        assert "Boats return." in text
    record = yaml.safe_load((table.turns / "talk1" / "t001" / "private" / "chronicle.yaml").read_text())
    assert record == [{"number": 1, "kind": "chronicle", "by": "@gm", "for": "all", "title": "The thaw",
                       "text": "Ice breaks in the harbour.\n\nBoats return."}]
    html = (table.turns / "talk1" / "t001" / "reports" / "_public.en.html").read_text()
    assert "Ice breaks in the harbour." in html and "The chronicle" in html
    assert "Ice breaks" not in reports(table)["ann"], "it heads one report, not every one after"


def test_a_chronicle_for_named_seats_reaches_only_them_and_the_gm(table):
    table.ref.gm_command("talk1", "chronicle", {"text": "Ann dreams of a crown.", "seats": "ann"})
    got = reports(table)
    assert "Ann dreams" in got["ann"] and "Ann dreams" in got["gm"]
    assert all("Ann dreams" not in got[w] for w in ("bob", "cat", "obs"))


def test_a_markdown_attachment_is_the_chronicle(table):
    doc = table.doc("gm", command="chronicle")
    raw = (f"From: gm@example.org\r\nTo: referee@example.org\r\nSubject: chronicle\r\nMessage-ID: <md1@example.org>\r\n"
           "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
           f"Content-Type: text/plain; charset=utf-8\r\n\r\n{doc}\r\n--b\r\n"
           "Content-Type: text/markdown; charset=utf-8\r\nContent-Disposition: attachment; filename=winter.md\r\n\r\n"
           "# Winter\r\n\r\nDer Schnee f\u00e4llt.\r\n--b--\r\n").encode()
    assert table.ref.handle(parse_inbound(raw)).outcome == "processed"
    assert "Der Schnee fällt." in reports(table)["bob"]


def test_a_letter_waits_for_the_gm_and_is_published_once_approved(table):
    done = table.send("ann", command="letter", title="To the council", text="Friends, the harbour is ours.")
    assert done.outcome == "processed"
    sent = table.mails()
    (held,) = table.to(sent, "gm")
    assert "Letter 1 from Ann waits for your decision" in held.subject and "command: approve" in held.text
    assert "held as letter 1" in table.to(sent, "ann")[0].text
    assert "the harbour is ours" not in reports(table)["bob"], "not published while held"
    assert table.ref.gm_command("talk1", "approve", {"number": 1}).startswith("letter 1 heads the reports of turn 2")
    (told,) = table.mails()
    assert told.to == "ann" and "approved" in told.subject
    got = reports(table)
    assert got["bob"].startswith("Ein Brief von Ann: To the council") and "the harbour is ours" in got["obs"]
    record = yaml.safe_load((table.turns / "talk1" / "t002" / "private" / "chronicle.yaml").read_text())
    assert record[0]["kind"] == "letter" and record[0]["by"] == "ann"


def test_a_declined_letter_is_never_published_and_its_writer_hears_why(table):
    table.send("bob", command="letter", text="Alle Macht dem Rat!")
    table.mails()
    table.send("gm", command="decline", number=1, reason="zu kurz")
    sent = table.mails()
    told = table.to(sent, "bob")[0]
    assert "abgelehnt" in told.subject and "Die Begründung: zu kurz" in told.text
    assert all("Alle Macht" not in text for text in reports(table).values())
    with pytest.raises(Refusal):   # decided once: no second decision
        table.ref.gm_command("talk1", "approve", {"number": 1})


def nothing_stored(table):
    records = TalkRecords(table.ref.store)
    assert records.published("talk1", 1) == [] and records.held("talk1") == []


@pytest.mark.parametrize("args, code", [
    ({}, "chronicle.no_text"),
    ({"text": "x" * 20_001}, "chronicle.too_long"),
    ({"text": "ok", "seats": ["ann", "zed"]}, "press.bad_seats"),
    ({"text": "ok", "title": "a\nb"}, "chronicle.bad_title"),
    ({"text": {"nested": "map"}}, "chronicle.no_text"),
    ({"text": "for Ann only", "seat": "ann"}, "talk.unknown_key"),
])
def test_a_bad_chronicle_is_refused_and_stores_nothing(table, args, code):
    with pytest.raises(Refusal) as e:
        table.ref.gm_command("talk1", "chronicle", args)
    assert e.value.code == code
    done = table.send("gm", command="chronicle", **args)
    assert (done.outcome, done.reason) == ("refused", "command.failed")
    assert "Not accepted" in table.mails()[0].subject
    nothing_stored(table)


@pytest.mark.parametrize("number", [7, "x", -1, 10**30, None])
def test_approving_what_is_no_held_letter_is_refused(table, number):
    table.ref.gm_command("talk1", "chronicle", {"text": "A chronicle is no letter."})
    with pytest.raises(Refusal) as e:
        table.ref.gm_command("talk1", "approve", {"number": number})
    assert e.value.code in ("letter.none", "letter.bad_number")
    with pytest.raises(Refusal):
        table.ref.gm_command("talk1", "approve", {"number": 1})   # number 1 is the chronicle
    assert TalkRecords(table.ref.store).entry("talk1", 1)["status"] == "published"


def test_bad_letters_are_refused_and_stored_nowhere(table):
    done = table.send("ann", command="letter", text="x" * 4001)
    assert done.reason == "chronicle.too_long" and "at most 4000" in table.mails()[0].text
    done = table.send("ann", command="letter")
    assert done.reason == "chronicle.no_text"
    done = table.send("ann", sender="eve@evil.example", key="WRNG-KEYS-2222", command="letter", text="spam")
    assert done.outcome == "refused"
    table.mails()
    nothing_stored(table)
    for _ in range(3):
        assert table.send("cat", command="letter", text="patience").outcome == "processed"
    done = table.send("cat", command="letter", text="one too many")
    assert done.reason == "letter.too_many"
    assert len(TalkRecords(table.ref.store).held("talk1")) == 3


def test_a_non_gm_cannot_approve_and_an_ended_match_takes_no_chronicle(table):
    table.send("ann", command="letter", text="Mine.")
    done = table.send("ann", command="approve", number=1)
    assert done.reason == "command.unknown"
    assert TalkRecords(table.ref.store).entry("talk1", 1)["status"] == "held"
    table.ref.end("talk1")
    with pytest.raises(Refusal) as e:
        table.ref.gm_command("talk1", "chronicle", {"text": "Too late."})
    assert e.value.code == "chronicle.ended"


@pytest.mark.parametrize("part, words", [
    ("Content-Type: text/markdown; charset=x-no-such-charset", "is not plain text or Markdown"),
    ("Content-Type: text/markdown; charset=utf-8", "larger than 64000 bytes"),
])
def test_a_bad_markdown_attachment_is_refused_and_stores_nothing(table, part, words):
    body = "x" * 70_000 if "utf-8" in part else "Schnee"
    doc = table.doc("gm", command="chronicle")
    raw = (f"From: gm@example.org\r\nTo: referee@example.org\r\nSubject: chronicle\r\nMessage-ID: <md2@example.org>\r\n"
           "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
           f"Content-Type: text/plain; charset=utf-8\r\n\r\n{doc}\r\n--b\r\n"
           f"{part}\r\nContent-Disposition: attachment; filename=big.md\r\n\r\n{body}\r\n--b--\r\n").encode()
    done = table.ref.handle(parse_inbound(raw))
    assert (done.outcome, done.reason) == ("refused", "command.failed")
    (said,) = table.mails()
    assert "'big.md'" in said.text and words in said.text
    nothing_stored(table)
