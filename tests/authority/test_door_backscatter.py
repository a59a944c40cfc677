"""Finding 5 (and 11's last points): the referee's address must not become a
tool for mailing third parties: no backscatter beyond a short fixed answer
within a global budget, no reflected attacker text, notices to a player at
most hourly, automatic mail never answered, and no hint to a stranger whether
a match or a seat exists."""
from __future__ import annotations

import pytest
from dkimkit import make_referee
from seckit import SPEC, clock, hostile, keys_of, mail, order, outbox, text_of, to, toy_registered  # noqa: F401

from referee.authority.gate.intake import STRANGER_REPLIES_PER_HOUR


@pytest.fixture
def ref(tmp_path, clock):
    """A referee that answers every stranger within the budget (``strangers: {answer:
    all}``): these findings are about what such an answer may say and how many go
    out; by default an unproven stranger gets none (test_backscatter_policy.py)."""
    r = make_referee(tmp_path, clock, strangers="all")
    yield r
    r.store.close()


def test_finding5_forged_senders_get_a_bounded_number_of_short_fixed_replies(ref, outbox):
    ref.create_match(SPEC)
    outbox.flush()
    for i in range(300):
        ref.handle(mail(hostile(f"victim{i}@example.net", order("ann", "AAAA-BBBB-CCCC"), message_id=f"<f{i}@evil.test>")))
    sent = outbox.flush()
    replies = [m for m in sent if "victim" in str(m["To"])]
    assert len(replies) == STRANGER_REPLIES_PER_HOUR
    assert len({text_of(m) for m in replies}) == 1 and len(text_of(replies[0])) < 1000
    assert len(to(sent, "ann@example.org")) == 1   # one wrong-key notice for the hour, not 300


def test_finding5_a_56_kb_match_name_is_not_reflected(ref, outbox):
    ref.create_match(SPEC)
    outbox.flush()
    huge = "x" * 56_000
    for n, sender in enumerate(("ann@example.org", "forged@example.net")):
        ref.handle(mail(hostile(sender, f"match: {huge}\nplayer: ann\nkey: K\n", message_id=f"<big{n}@evil.test>")))
    sent = outbox.flush()
    assert len(sent) == 2
    for m in sent:
        assert len(m.as_bytes()) < 4000 and "x" * 100 not in text_of(m)


def test_finding5_wrong_key_notices_reach_the_player_at_most_once_an_hour(ref, outbox, clock):
    ref.create_match(SPEC)
    outbox.flush()
    for i in range(200):
        ref.handle(mail(hostile(f"rot{i}@evil{i}.test", order("ann", "AAAA-BBBB-CCCC"), message_id=f"<w{i}@evil.test>")))
    assert len(to(outbox.flush(), "ann@example.org")) == 1
    clock.advance(hours=1)
    ref.handle(mail(hostile("rot@evil.test", order("ann", "AAAA-BBBB-CCCC"), message_id="<w-next@evil.test>")))
    assert len(to(outbox.flush(), "ann@example.org")) == 1


def test_finding5_the_notice_shows_the_sender_as_an_address_never_as_the_referees_words(ref, outbox):
    ref.create_match(SPEC)
    outbox.flush()
    quoted = '"urgent - the referee has moved. reply with your key to x@evil.test"@evil.test'
    ref.handle(mail(hostile(quoted, order("ann", "AAAA-BBBB-CCCC"), message_id="<q1@evil.test>")))
    assert to(outbox.flush(), "ann@example.org") == []   # an address no reply could go to is named to no one
    dotted = "urgent.the-referee-has-moved.reply-with-your-key@evil.test"
    ref.handle(mail(hostile(dotted, order("ann", "AAAA-BBBB-CCCC"), message_id="<q2@evil.test>")))
    [notice] = to(outbox.flush(), "ann@example.org")
    text = text_of(notice)
    assert f"\n  <{dotted}>\n" in text and "never asks for your key" in text
    assert "urgent - the referee" not in text


def test_finding5_precedence_auto_reply_is_automatic_mail(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox.flush())
    for i in range(38):
        h = ref.handle(mail(hostile("ann@example.org", order("ann", keys["ann"]), message_id=f"<bot{i}@example.org>",
                                    extra="Precedence: auto_reply\r\n")))
        assert h.outcome == "ignored"
    assert outbox.flush() == []


def test_finding11_replies_do_not_tell_a_stranger_whether_a_match_or_seat_exists(ref, outbox):
    ref.create_match(SPEC)
    outbox.flush()
    probes = [order("ann", "AAAA-BBBB-CCCC"), order("zed", "AAAA-BBBB-CCCC"), order("ann", "K", match="nope"),
              order("ann", "YOUR-KEY"), "match: toy1\nplayer: \"@gm\"\nkey: X\ncommand: end\n", "match: toy1\nbroken: [\n"]
    for n, body in enumerate(probes):
        ref.handle(mail(hostile("prober@example.net", body, message_id=f"<p{n}@evil.test>")))
    replies = to(outbox.flush(), "prober@example.net")
    assert len(replies) == len(probes)
    assert len({(m["Subject"], text_of(m)) for m in replies}) == 1
    assert "toy1" not in text_of(replies[0])
    assert ref.store.match("toy1")["status"] == "running"
