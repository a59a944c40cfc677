"""Table talk relayed at once: signed or unsigned, to seats or to all, answered by
replying to the relayed mail; no address is ever shown; the GM gets a copy; every
message is archived with its turn and public talk appears in the next public report."""
from __future__ import annotations

import pytest
import yaml
from talk_table import TalkTable


@pytest.fixture
def table(tmp_path):
    t = TalkTable(tmp_path, press="anonymous")
    yield t
    t.close()


def test_a_private_message_reaches_its_seats_signed_and_without_addresses(table):
    done = table.send("ann", press={"to": ["bob"], "text": "Shall we share the harbour?"})
    assert done.outcome == "processed"
    sent = table.mails()
    (relayed,) = table.to(sent, "bob")
    assert "Tischgespräch von Ann" in relayed.subject and "Shall we share the harbour?" in relayed.text
    assert relayed.msg["From"] == "referee@example.org"
    for m in sent:
        assert "ann@example.org" not in m.text and "bob@example.org" not in m.text
    assert table.to(sent, "cat") == [] and table.to(sent, "obs") == []
    (copy,) = table.to(sent, "gm")
    assert "Copy of table talk 1" in copy.subject and "Ann (ann)" in copy.text
    (receipt,) = table.to(sent, "ann")
    assert "went to Bob" in receipt.text


def test_an_answer_by_reply_goes_back_to_the_writer_alone(table):
    table.send("ann", press={"to": "bob", "text": "Harbour?"})
    relayed = table.to(table.mails(), "bob")[0]
    done = table.answer("bob@example.org", relayed, "Ja, gern. Aber nur bis Zug 3.")
    assert done.outcome == "processed" and done.reason == "press.answer"
    sent = table.mails()
    (back,) = table.to(sent, "ann")
    assert "Answer from Bob" in back.subject
    assert "Ja, gern. Aber nur bis Zug 3." in back.text and "Harbour?" not in back.text, "quoted lines stay out"
    assert "answering message 1" in back.text
    # and ann answers that answer: the conversation goes on through the referee
    done = table.answer("ann@example.org", back, "Agreed.")
    assert done.outcome == "processed"
    assert "Agreed." in table.to(table.mails(), "bob")[0].text


def test_an_unsigned_message_names_nobody_and_its_answer_does_not_reveal_the_writer(table):
    table.send("cat", press={"to": ["ann", "bob"], "text": "Beware of Bob.", "anonymous": True})
    sent = table.mails()
    to_ann = table.to(sent, "ann")[0]
    assert "(unsigned)" in to_ann.subject and "Cat" not in to_ann.text and "cat" not in to_ann.subject
    assert "Cat (cat)" in table.to(sent, "gm")[0].text, "the GM knows who wrote it"
    table.answer("ann@example.org", to_ann, "Who are you?")
    sent = table.mails()
    assert "Who are you?" in table.to(sent, "cat")[0].text
    receipt = table.to(sent, "ann")[0]
    assert "went to its writer" in receipt.text and "Cat" not in receipt.text


def test_public_talk_goes_to_every_seat_and_into_the_next_public_report_and_the_archive(table):
    table.send("bob", press="Ich biete allen Frieden an.", to="all")
    sent = table.mails()
    assert {m.to for m in sent} == {"ann", "cat", "gm", "bob"}
    table.ref.close_turn("talk1")
    reports = table.mails()
    (public,) = table.to(reports, "obs")
    assert "Table talk to everyone" in public.text and "Bob: Ich biete allen Frieden an." in public.text
    assert "Ich biete" not in table.to(reports, "ann")[0].text, "players had it at once"
    archived = yaml.safe_load((table.turns / "talk1" / "t001" / "private" / "press.yaml").read_text())
    assert archived == [{"number": 1, "sent": archived[0]["sent"], "from": "bob", "to": "all", "anonymous": False,
                         "text": "Ich biete allen Frieden an."}]
    assert yaml.safe_load((table.turns / "talk1" / "t001" / "press.yaml").read_text()) == archived
    assert "Ich biete allen Frieden an." in (table.turns / "talk1" / "t001" / "reports" / "_public.en.txt").read_text()


def test_private_talk_is_archived_with_its_turn_but_not_shown_in_the_public_report(table):
    table.send("ann", press={"to": "cat", "text": "Secret plan."})
    table.ref.close_turn("talk1")
    table.send("cat", press={"to": "ann", "text": "Second turn's note."})
    table.mails()
    assert "Secret plan." in (table.turns / "talk1" / "t001" / "private" / "press.yaml").read_text()
    assert not (table.turns / "talk1" / "t001" / "press.yaml").exists(), "the public part holds no private talk"
    second = yaml.safe_load((table.turns / "talk1" / "t002" / "private" / "press.yaml").read_text())
    assert [m["text"] for m in second] == ["Second turn's note."] and second[0]["to"] == ["ann"]
    assert "Secret plan." not in (table.turns / "talk1" / "t001" / "reports" / "_public.en.txt").read_text()
