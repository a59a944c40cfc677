"""Finding 1: a sender (or a GM's field) that cannot become a header never
jams the outbox; the next player's answer still goes out."""
from __future__ import annotations

import email
from email import policy

import pytest
from seckit import SPEC, clock, hostile, keys_of, mail, order, outbox, ref, to, toy_registered  # noqa: F401 (fixtures)

from referee.authority.matches.match_file import MatchError
from referee.mail.sink import SmtpSink


def _stuck(ref) -> list:
    return [r for r in ref.store.outbox() if r["status"] in ("sending", "queued")]


@pytest.mark.parametrize("sender", [
    "=?utf-8?q?a=0D=0ABcc=3A_x=40y?=@evil.test",           # an encoded word that decodes to CRLF
    '"a\\\r\n Bcc: x@y"@evil.test',                        # a quoted local part holding a folded CRLF
    "=?utf-8?q?x=00y?=@evil.test",                         # a NUL
])
def test_finding1_crlf_in_encoded_from_does_not_jam_outbox(ref, outbox, sender):
    ref.create_match(SPEC)
    keys = keys_of(outbox.flush())
    ref.handle(mail(hostile(sender, order("ann", "AAAA-BBBB-CCCC"))))
    ref.handle(mail(hostile("ann@example.org", order("ann", keys["ann"]), message_id="<ok@players.test>")))
    sent = outbox.flush()
    assert [m["In-Reply-To"] for m in to(sent, "ann@example.org") if m["In-Reply-To"]] == ["<ok@players.test>"]
    assert all("\n" not in str(m["To"]) and "evil" not in str(m["To"]) for m in sent)
    assert _stuck(ref) == []


def test_finding1_non_ascii_sender_over_smtp_does_not_jam_outbox(ref, mailservers):
    s = mailservers
    spec = dict(SPEC, players=[dict(p, email=s.address(p["id"])) for p in SPEC["players"]], gm=s.address("gm"))
    spec["players"][0]["email"] = s.address("alice")
    ref.create_match(spec)
    sink = SmtpSink(s.host, s.smtp.port)
    ref.send_pending(sink)
    welcome = email.message_from_bytes(s.wait_messages("alice", 1)[0], policy=policy.default)
    key = keys_of([welcome])["alice"]
    ref.handle(mail(hostile("jörg@example.de", order("ann", "AAAA-BBBB-CCCC"))))
    ref.handle(mail(hostile(s.address("alice"), order("ann", key), message_id="<ok@players.test>")))
    ref.send_pending(sink)
    got = [email.message_from_bytes(m, policy=policy.default) for m in s.wait_messages("alice", 2)]
    assert got[1]["In-Reply-To"] == "<ok@players.test>"
    assert _stuck(ref) == []


@pytest.mark.parametrize("field, value", [
    ("title", "Toy\r\nBcc: all@evil.test"),
    ("gm", "gm@example.org\r\nBcc: all@evil.test"),
    ("gm", "jörg@example.de"),
    ("players.0.email", "ann@example.org\nBcc: x@evil.test"),
    ("players.0.name", "Ann\r\nBcc: x@evil.test"),
    ("observers", "press@example.org\r\nBcc: x@evil.test"),
])
def test_finding1_header_breaking_match_file_fields_are_refused_at_the_door(ref, field, value):
    spec = {**SPEC, "players": [dict(p) for p in SPEC["players"]]}
    if field == "observers":
        spec["observers"] = [value]
    elif field.startswith("players."):
        spec["players"][0][field.split(".")[2]] = value
    else:
        spec[field] = value
    with pytest.raises(MatchError) as e:
        ref.create_match(spec)
    assert field.split(".")[0] in str(e.value)
    assert ref.store.matches() == []


@pytest.mark.parametrize("message_id", ["<a\x00b@evil.test>", "<jörg@example.de>", "<" + "x" * 2000 + "@evil.test>"])
def test_finding1_a_message_id_that_cannot_be_a_header_is_not_threaded_on(ref, outbox, message_id):
    ref.create_match(SPEC)
    keys = keys_of(outbox.flush())
    ref.handle(mail(hostile("ann@example.org", order("ann", keys["ann"]), message_id=message_id)))
    [answer] = to(outbox.flush(), "ann@example.org")
    assert "accepted" in answer["Subject"].lower() and answer["In-Reply-To"] is None
    assert _stuck(ref) == [] and [r for r in ref.store.outbox() if r["status"] == "failed"] == []
