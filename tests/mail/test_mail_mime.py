"""Taking a mail apart by offsets (referee/mail/mime.py): as a client shows it, and safe on
malformed and hostile structure."""
from __future__ import annotations

import pytest

from referee.mail.inbound import parse_inbound

HEAD = "From: ann@example.org\r\nTo: referee@example.org\r\nSubject: x\r\nMessage-ID: <m@example.org>\r\n"


def mail(ctype: str, body: str) -> bytes:
    return (HEAD + f"MIME-Version: 1.0\r\nContent-Type: {ctype}\r\n\r\n{body}").encode()


def test_an_inner_boundary_that_starts_with_the_outer_one_is_not_taken_for_it():
    body = ("--b\r\nContent-Type: multipart/alternative; boundary=\"b-in\"\r\n\r\n"
            "--b-in\r\nContent-Type: text/plain\r\n\r\nmatch: toy1\r\n--b-in--\r\n"
            "--b\r\nContent-Type: text/plain\r\n\r\nplayer: ann\r\n--b--\r\n")
    assert parse_inbound(mail('multipart/mixed; boundary="b"', body)).text == "match: toy1\nplayer: ann"


def test_a_multipart_without_its_closing_line_runs_to_the_end():
    body = "--b\r\nContent-Type: text/plain\r\n\r\nmatch: toy1\r\n--b\r\n\r\nplayer: ann\r\n"
    assert parse_inbound(mail('multipart/mixed; boundary="b"', body)).text == "match: toy1\nplayer: ann\n"


def test_a_boundary_inside_a_line_is_text():
    body = "--b\r\nContent-Type: text/plain\r\n\r\nsee --b here\r\n--b--\r\n"
    assert parse_inbound(mail('multipart/mixed; boundary="b"', body)).text == "see --b here"   # the line break before a delimiter is the delimiter's


def test_multiparts_nested_past_the_depth_cap_are_not_read_and_nothing_breaks():
    depth = 40
    body = "".join(f"--n{i}\r\nContent-Type: multipart/mixed; boundary=\"n{i + 1}\"\r\n\r\n" for i in range(depth))
    body += f"--n{depth}\r\nContent-Type: text/plain\r\n\r\nmatch: deep\r\n"
    found = parse_inbound(mail('multipart/mixed; boundary="n0"', body))
    assert found.text == "" and not found.too_large


def test_a_multipart_without_a_boundary_yields_no_text():
    assert parse_inbound(mail("multipart/mixed", "--x\r\n\r\nmatch: toy1\r\n")).text == ""


def test_a_text_part_over_its_cap_makes_the_mail_too_large_and_says_which_limit():
    body = "--b\r\nContent-Type: text/plain\r\n\r\n" + "x" * 300_000 + "\r\n--b--\r\n"
    found = parse_inbound(mail('multipart/mixed; boundary="b"', body))
    assert found.too_large and (found.over, found.limit) == ("text", 256_000)
    assert len(found.raw) < 1_000          # archived as its header section only


@pytest.mark.parametrize("plain", ["", " ", "\r\n\r\n", "Hi!"])
def test_the_html_alternative_that_holds_the_document_wins_over_a_plain_one_that_does_not(plain):
    body = (f"--a\r\nContent-Type: text/plain\r\n\r\n{plain}\r\n"
            "--a\r\nContent-Type: text/html\r\n\r\n<div>match: toy1</div>\r\n--a--\r\n")
    assert "match: toy1" in parse_inbound(mail('multipart/alternative; boundary="a"', body)).text


def test_a_plain_alternative_with_the_document_wins_over_the_html():
    body = ("--a\r\nContent-Type: text/plain\r\n\r\nmatch: plain\r\n"
            "--a\r\nContent-Type: text/html\r\n\r\n<div>match: html</div>\r\n--a--\r\n")
    assert parse_inbound(mail('multipart/alternative; boundary="a"', body)).text == "match: plain"


def test_a_forwarded_mail_inside_is_not_read_as_the_senders_text():
    body = ("--b\r\nContent-Type: text/plain\r\n\r\nsee below\r\n"
            "--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: x@example.org\r\n\r\nmatch: old\r\n--b--\r\n")
    assert parse_inbound(mail('multipart/mixed; boundary="b"', body)).text == "see below"


def test_a_mail_of_a_million_boundary_lookalikes_is_read_whole():
    body = "--b\r\nContent-Type: text/plain\r\n\r\nmatch: toy1\r\n" + "--b--b" * 300_000 + "\r\n--b--\r\n"
    found = parse_inbound(mail('multipart/mixed; boundary="b"', body))
    assert found.too_large and found.over == "text"   # the one long line is a text part over its cap


@pytest.mark.parametrize("sender, header", [
    ("ppp-request@lists.example.net", ""), ("owner-ppp@lists.example.net", ""),
    ("ppp-bounces@lists.example.net", ""), ("ppp-owner@lists.example.net", ""),
    ("ann@example.org", "Sender: ppp-bounces@lists.example.net\r\n"),
    ("ann@example.org", "Return-Path: <owner-ppp@lists.example.net>\r\n"),
    ("ann@example.org", "X-Mailman-Version: 2.1.39\r\n"),
])
def test_list_robots_and_owners_are_never_answered(sender, header):
    raw = (f"From: {sender}\r\nTo: referee@example.org\r\nSubject: digest\r\n{header}"
           "Content-Type: text/plain\r\n\r\nmatch: toy1\r\n").encode()
    assert parse_inbound(raw).automatic == "list"


@pytest.mark.parametrize("ctype", ["message/delivery-status", "message/disposition-notification"])
def test_a_bare_report_from_an_ordinary_address_is_never_answered(ctype):
    assert parse_inbound(mail(ctype, "Final-Recipient: rfc822; x@example.org\r\n")).automatic == "bounce"


@pytest.mark.parametrize("sender", ["ann@example.org", "requester@example.org", "owner@example.org"])
def test_a_person_is_no_robot(sender):
    raw = f"From: {sender}\r\nTo: referee@example.org\r\nSubject: x\r\n\r\nmatch: toy1\r\n".encode()
    assert parse_inbound(raw).automatic is None
