"""compose(): headers, threading, encodings, and that our own mail is recognised."""
from __future__ import annotations

import email
from email import policy

import pytest

from referee.mail.compose import compose
from referee.mail.inbound import parse_inbound

TEXT = "Runde 2 ausgewertet.\nGrüße vom Schiedsrichter – " + "lang " * 60 + "\n"


def test_reply_headers_and_crlf_bytes():
    msg = compose("referee@referee.test", "alice@players.test", "Befehle angenommen: Zölle",
                  TEXT, in_reply_to="<o1@players.test>", references=["<o0@players.test>"],
                  domain="referee.test", cc=["alice.old@players.test"])
    raw = msg.as_bytes()
    assert b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n")  # CRLF only
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998
    assert msg["Message-ID"].endswith("@referee.test>")
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["In-Reply-To"] == "<o1@players.test>"
    assert msg["References"] == "<o0@players.test> <o1@players.test>"
    assert msg["Cc"] == "alice.old@players.test"
    assert b"Z=C3=B6lle" in raw or b"=?utf-8?" in raw  # RFC 2047 subject, no raw 8-bit
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert parsed["Subject"] == "Befehle angenommen: Zölle"
    assert parsed.get_content_type() == "text/plain"
    assert parsed["Content-Transfer-Encoding"] == "quoted-printable"
    assert parsed.get_content().replace("\r\n", "\n") == TEXT


def test_report_with_html_is_multipart_alternative():
    msg = compose("referee@referee.test", ["alice@players.test"], "Bericht", TEXT,
                  "<p>Grüße &amp; mehr</p>", auto="auto-generated", domain="referee.test",
                  message_id="<report-7@referee.test>")
    assert msg.get_content_type() == "multipart/alternative"
    assert msg["Message-ID"] == "<report-7@referee.test>"
    assert msg["Auto-Submitted"] == "auto-generated"
    parsed = email.message_from_bytes(msg.as_bytes(), policy=policy.default)
    plain = parsed.get_body(("plain",)).get_content().replace("\r\n", "\n")
    html = parsed.get_body(("html",)).get_content()
    assert plain == TEXT and "Grüße &amp; mehr" in html


def test_our_mail_coming_back_is_never_answered():
    msg = compose("referee@referee.test", "alice@players.test", "x", "y", domain="referee.test")
    mail = parse_inbound(msg.as_bytes())
    assert mail.automatic == "auto-submitted"
    assert parse_inbound(msg.as_bytes(), own_addresses=["referee@referee.test"]).automatic == "own"
    assert mail.text == "y\n" and mail.message_id == msg["Message-ID"]


def test_message_ids_are_unique_and_auto_is_checked():
    ids = {compose("r@referee.test", "a@p.test", "s", "t", domain="referee.test")["Message-ID"]
           for _ in range(50)}
    assert len(ids) == 50
    with pytest.raises(ValueError):
        compose("r@referee.test", "a@p.test", "s", "t", domain="referee.test", auto="no")
