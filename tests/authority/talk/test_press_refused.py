"""Hostile and mistaken table talk is refused, says why (English and German), and
changes nothing: no message stored, relayed or archived."""
from __future__ import annotations

import pytest
from talk_table import TalkTable

from referee.store.talk import TalkRecords


@pytest.fixture
def make(tmp_path):
    made = []

    def build(press="private", **spec):
        t = TalkTable(tmp_path / str(len(made)), press=press, **spec)
        made.append(t)
        return t
    yield build
    for t in made:
        t.close()


def refused(table, player, code, done, words):
    """The mail was refused with ``code``; only the sender heard of it, saying ``words``."""
    assert (done.outcome, done.reason) == ("refused", code), done
    sent = table.mails()
    assert {m.to for m in sent} <= {player}, [(m.to, m.subject) for m in sent]
    if words:
        assert words in sent[0].text, sent[0].text
    assert TalkRecords(table.ref.store).press_of_turn("talk1", 1) == []
    assert not (table.turns / "talk1" / "t001" / "press.yaml").exists()


def test_too_long_text_is_refused_naming_the_limit(make):
    t = make({"allow": "private", "max_chars": 100})
    refused(t, "ann", "press.too_long", t.send("ann", press={"to": "bob", "text": "x" * 101}),
            "The text has 101 characters; this match allows at most 100")
    refused(t, "bob", "press.too_long", t.send("bob", press={"to": "ann", "text": "ü" * 5000}),
            "Der Text hat 5000 Zeichen; diese Partie erlaubt höchstens 100")


def test_bad_seat_ids_are_named_and_nothing_goes_to_the_good_ones(make):
    t = make()
    refused(t, "ann", "press.bad_seats", t.send("ann", press={"to": ["bob", "zed", "@gm"], "text": "hi"}),
            "no seat 'zed', '@gm'; its seats are: ann, bob, cat")
    refused(t, "ann", "press.no_to", t.send("ann", press={"to": {"bob": 1}, "text": "hi"}), "to: all")
    refused(t, "ann", "press.only_self", t.send("ann", press={"to": "ann", "text": "hi"}), "nobody but you")
    refused(t, "ann", "press.no_text", t.send("ann", press={"to": "bob", "text": {"a": 1}}), "'text:'")
    refused(t, "ann", "press.no_text", t.send("ann", press={"to": "bob"}), "'text:'")


def test_press_when_the_match_has_none_or_while_a_closed_stage_runs(make):
    t = make("none")
    refused(t, "bob", "press.none", t.send("bob", press={"to": "ann", "text": "hi"}), "keine Tischgespräche")
    t = make({"allow": "private", "closed": ["bid"]})
    refused(t, "ann", "press.closed", t.send("ann", press={"to": "all", "text": "hi"}), "closed while this turn's bid")


def test_what_the_match_does_not_allow(make):
    t = make("public")
    refused(t, "ann", "press.public_only", t.send("ann", press={"to": "bob", "text": "psst"}), "write 'to: all'")
    t = make("private")
    refused(t, "ann", "press.no_anonymous", t.send("ann", press={"to": "bob", "text": "?", "anonymous": True}),
            "unsigned")


def test_a_non_player_or_a_wrong_key_relays_nothing(make):
    t = make()
    done = t.send("ann", sender="eve@evil.example", key="WRNG-KEYS-2222", press={"to": "all", "text": "spam"})
    assert done.outcome == "refused"
    assert all("spam" not in m.text for m in t.mails())
    assert TalkRecords(t.ref.store).press_of_turn("talk1", 1) == []


def test_the_daily_limit_stops_a_flood_and_says_when_the_next_may_go(make):
    t = make({"allow": "private", "per_day": 2})
    for _ in range(2):
        assert t.send("ann", press={"to": "bob", "text": "again"}).outcome == "processed"
    t.mails()
    done = t.send("ann", press={"to": "bob", "text": "again"})
    assert (done.outcome, done.reason) == ("refused", "press.rate")
    sent = t.mails()
    assert [m.to for m in sent] == ["ann"] and "You have sent 2 messages in a day" in sent[0].text
    assert len(TalkRecords(t.ref.store).press_of_turn("talk1", 1)) == 2


def test_a_forged_reply_token_is_refused_and_relays_nothing(make):
    t = make()
    t.send("ann", press={"to": "bob", "text": "Harbour?"})
    relayed = t.to(t.mails(), "bob")[0]
    forged = relayed.subject.replace(relayed.subject[-9:], "2222-2222")
    done = t.answer("bob@example.org", relayed, "yes", keep_refs=False, subject="Re: " + forged)
    assert (done.outcome, done.reason) == ("refused", "press.bad_token")
    sent = t.mails()
    assert [m.to for m in sent] == ["bob"] and "#T-2222-2222" in sent[0].text
    # a stranger with a token learns nothing (the short fixed answer)
    done = t.answer("eve@evil.example", relayed, "hello", keep_refs=False, subject="Re: " + forged)
    assert done.outcome == "refused"
    assert all("talk1" not in m.text for m in t.mails())
    assert len(TalkRecords(t.ref.store).press_of_turn("talk1", 1)) == 1


def test_only_the_seat_a_mail_went_to_may_answer_through_it(make):
    t = make()
    t.send("ann", press={"to": "bob", "text": "Harbour?"})
    relayed = t.to(t.mails(), "bob")[0]
    done = t.answer("cat@example.org", relayed, "I read bob's mail")    # bob forwarded it to cat
    assert (done.outcome, done.reason) == ("refused", "press.not_yours")
    assert [m.to for m in t.mails()] == ["cat"]
    done = t.answer("eve@evil.example", relayed, "forged sender")
    assert done.outcome == "refused" and done.reason == "press.not_yours"
    assert all("forged sender" not in m.text for m in t.mails())
    done = t.answer("bob@example.org", relayed, "")     # only the quote
    assert (done.outcome, done.reason) == ("refused", "press.empty_reply")
    assert "keinen eigenen Text" in t.mails()[0].text
    assert len(TalkRecords(t.ref.store).press_of_turn("talk1", 1)) == 1


def test_an_answer_in_a_public_only_match_is_refused(make):
    t = make("public")
    t.send("ann", press={"to": "all", "text": "Peace?"})
    relayed = t.to(t.mails(), "cat")[0]
    # issue 33: the relayed mail itself says a reply is not relayed here, instead of offering one
    assert "alone, reply to this mail" not in relayed.text and "allein zu antworten" not in relayed.text
    assert "a reply to this mail is not relayed" in relayed.text or "wird nicht weitergegeben" in relayed.text
    done = t.answer("cat@example.org", relayed, "only to you")
    assert (done.outcome, done.reason) == ("refused", "press.public_reply")


def test_a_private_match_still_offers_the_answer_by_reply(make):
    t = make()
    t.send("ann", press={"to": "bob", "text": "Harbour?"})
    relayed = t.to(t.mails(), "bob")[0]
    assert "reply to this mail" in relayed.text or "antworte auf diese Mail" in relayed.text


def test_a_closed_match_takes_no_more_talk(make):
    t = make()
    t.ref.end("talk1")
    t.mails()
    done = t.send("ann", press={"to": "bob", "text": "late"})
    assert (done.outcome, done.reason) == ("refused", "press.ended")


def test_a_misspelt_key_is_refused_rather_than_sending_a_signed_message(make):
    t = make("anonymous")
    refused(t, "ann", "talk.unknown_key", t.send("ann", press={"to": "bob", "text": "psst", "anonymus": True}),
            "'anonymus:' means nothing here")
    refused(t, "bob", "talk.unknown_key", t.send("bob", command="letter", text="Brief", titel="x"),
            "'titel:' bedeutet hier nichts")


def test_press_in_odd_shapes_is_refused(make):
    t = make()
    refused(t, "ann", "press.no_text", t.send("ann", press=["a", "list"], to="bob"), "'text:'")
    done = t.send("ann", press={"to": "bob", "text": "x"}, orders={"bid": 1})
    assert done.outcome == "refused" and done.reason == "envelope.both"
    t.mails()
    refused(t, "ann", "press.no_to", t.send("ann", press={"to": "", "text": "hi"}), "to: all")
    refused(t, "ann", "press.bad_seats", t.send("ann", press={"to": ["bob"] * 5 + [{"x": "y" * 5000}], "text": "hi"}),
            "no seat")


def test_table_talk_to_a_bot_seat_is_refused_not_dropped(make):
    """A bot reads no table talk (issue 35): a message naming its seat is refused, saying why,
    in the writer's language; a message to all still reaches the people."""
    from datetime import UTC, datetime

    from referee.store.bots import set_bot
    t = make()
    with t.ref.store.transaction():
        set_bot(t.ref.store, "talk1", "cat", "fast", "gm", datetime(2026, 1, 1, tzinfo=UTC))
    refused(t, "ann", "press.bot_seat", t.send("ann", press={"to": ["bob", "cat"], "text": "hi"}),
            "Seat 'cat' is played by a computer player (bot)")
    assert t.send("ann", press={"to": "all", "text": "hello all"}).outcome != "refused"
    assert "bob" in {m.to for m in t.mails()}
