"""Bad input on the way in: a clear answer or none, and nothing lost."""
from __future__ import annotations

import re

import pytest
from referee_kit import SPEC, clock, game, inbound, keys_of, outbox, raw_mail, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.mail.inbound import parse_inbound


@pytest.fixture
def keys(ref, outbox):
    ref.create_match(SPEC)
    return keys_of(outbox)


def doc(player="ann", key="", bid=2, turn=1, match="toy1"):
    return f"match: {match}\nplayer: {player}\nkey: {key}\nturn: {turn}\norders:\n  bid: {bid}\n"


def test_same_mail_twice_is_one_order_and_one_reply(ref, outbox, keys):
    raw = raw_mail("ann@example.org", doc(key=keys["ann"]))
    first = ref.handle(parse_inbound(raw))
    again = ref.handle(parse_inbound(raw))
    assert first.reason == "accepted" and again.duplicate and again.outcome == "processed"
    assert len(outbox.flush()) == 1
    assert len(ref.store.submissions("toy1", 1)) == 1


def test_wrong_key_is_refused_and_the_registered_address_told(ref, outbox, keys):
    h = ref.handle(inbound("mallory@example.net", doc(key="AAAA-BBBB-CCCC")))
    assert h.outcome == "refused" and h.reason == "key.wrong"
    sent = outbox.flush()
    [reply] = to(sent, "mallory@example.net")   # a stranger: the short answer, no word about seat or key
    assert "does not fit" not in text_of(reply) and "ann" not in text_of(reply) and "AAAA-BBBB-CCCC" not in text_of(reply)
    [warning] = to(sent, "ann@example.org")
    assert "mallory@example.net" in text_of(warning)
    assert ref.store.submissions("toy1", 1) == {}


def test_unknown_match_and_player_and_wrong_turn(ref, outbox, keys):
    assert ref.handle(inbound("ann@example.org", doc(match="nope", key=keys["ann"]))).reason == "match.unknown"
    assert ref.handle(inbound("ann@example.org", doc(player="zed", key=keys["ann"]))).reason == "player.unknown"
    assert ref.handle(inbound("ann@example.org", doc(turn=3, key=keys["ann"]))).reason == "turn.wrong"
    texts = [text_of(m) for m in outbox.flush()]
    assert any("no match called 'nope'" in t and "Line 1" in t for t in texts)
    assert any("no player 'zed'" in t for t in texts)
    assert any("current turn is 1" in t and "Line 4" in t for t in texts)
    assert all(keys["ann"] not in t for t in texts)


def test_automatic_mail_gets_no_reply_but_is_archived(ref, outbox, keys, tmp_path):
    for headers in ({"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"}, {"List-Id": "<x.lists.example>"}):
        h = ref.handle(inbound("ann@example.org", doc(key=keys["ann"]), headers=headers))
        assert h.outcome == "ignored"
    own = ref.handle(inbound("referee@example.org", doc(key=keys["ann"])))
    assert own.outcome == "ignored"
    assert outbox.flush() == []
    assert len(list((tmp_path / "turns" / "toy1" / "t001" / "inbox").glob("*.eml"))) == 4


def test_latin1_mail_keeps_its_umlauts_in_the_archive(ref, outbox, keys, tmp_path):
    body = "Grüße aus Köln!\n\n" + doc(player="bob", key=keys["bob"])
    raw = raw_mail("bob@example.org", body, charset="latin-1")
    assert b"Gr\xfc\xdfe" in raw or b"=FC" in raw or b"Gr=FC" in raw
    assert ref.handle(parse_inbound(raw)).reason == "accepted"
    [saved] = (tmp_path / "turns" / "toy1" / "t001" / "inbox").glob("*.eml")
    assert saved.read_bytes() == raw
    assert "Grüße aus Köln" in parse_inbound(saved.read_bytes()).text


def test_broken_yaml_and_alias_bomb_are_refused_with_places(ref, outbox, keys):
    broken = ref.handle(inbound("ann@example.org", doc(key=keys["ann"]).replace("bid: 2", "bid: [2")))
    assert broken.outcome == "refused"
    bomb = "match: toy1\nplayer: ann\nkey: x\nturn: 1\norders:\n  a: &a [1,1,1,1,1,1,1,1]\n  b: &b [*a,*a,*a,*a,*a,*a]\n  c: [*b,*b,*b,*b,*b,*b]\n"
    refused = ref.handle(inbound("ann@example.org", bomb))
    assert refused.outcome == "refused"
    texts = [text_of(m) for m in outbox.flush()]
    assert any("Line" in t for t in texts) and len(texts) == 2


def test_oversized_mail_is_refused(ref, outbox, keys):
    raw = raw_mail("ann@example.org", doc(key=keys["ann"]) + "x" * 300_000)
    assert ref.handle(parse_inbound(raw)).reason == "mail.too_large"
    [reply] = outbox.flush()
    assert "too large" in text_of(reply)


def test_rate_limit_refuses_once_then_stays_silent(ref, outbox, keys):
    outcomes = [ref.handle(inbound("ann@example.org", doc(key=keys["ann"], bid=i % 3))) for i in range(23)]
    assert [o.outcome for o in outcomes[:20]] == ["processed"] * 20
    assert outcomes[20].outcome == "refused" and outcomes[20].reason == "mail.rate_limited"
    assert [o.outcome for o in outcomes[21:]] == ["ignored", "ignored"]
    assert len(outbox.flush()) == 21


def test_orders_from_another_address_copy_the_registered_one(ref, outbox, keys):
    assert ref.handle(inbound("ann.mobile@example.net", doc(key=keys["ann"]))).reason == "accepted"
    sent = outbox.flush()
    assert len(to(sent, "ann.mobile@example.net")) == 1
    [copy] = to(sent, "ann@example.org")
    assert "ann.mobile@example.net" in text_of(copy) and keys["ann"] not in text_of(copy)


def test_late_orders_after_grace_are_refused(ref, outbox, keys, clock):
    clock.advance(hours=48, minutes=40)
    h = ref.handle(inbound("ann@example.org", doc(key=keys["ann"])))
    assert h.reason == "turn.late"


def test_orders_in_an_attachment_or_an_html_only_mail(ref, outbox, keys):
    from email import policy as pol
    from email.message import EmailMessage
    att = EmailMessage(policy=pol.SMTP)
    att["From"], att["To"], att["Subject"], att["Message-ID"] = "ann@example.org", "referee@example.org", "o", "<a1@x>"
    att.set_content("My orders are attached. Cheers, Ann")
    att.add_attachment(doc(key=keys["ann"], bid=3).encode(), maintype="application", subtype="x-yaml",
                       filename="orders.yaml")
    assert ref.handle(parse_inbound(att.as_bytes())).reason == "accepted"
    html = EmailMessage(policy=pol.SMTP)
    html["From"], html["To"], html["Subject"], html["Message-ID"] = "bob@example.org", "referee@example.org", "o", "<h1@x>"
    # as webmail writes it: one <div> per line, indentation as &nbsp;
    lines = doc(player="bob", key=keys["bob"], bid=4).splitlines()
    body = "".join(f"<div>{line.replace('  ', '&nbsp;&nbsp;')}</div>" for line in lines)
    html.set_content(f"<html><body><div>Hallo!</div>{body}</body></html>", subtype="html")
    assert ref.handle(parse_inbound(html.as_bytes())).reason == "accepted"
    subs = ref.store.submissions("toy1", 1)
    assert subs["ann"]["orders"] == {"bid": 3} and subs["bob"]["orders"] == {"bid": 4}
