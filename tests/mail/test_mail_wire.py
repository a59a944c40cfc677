"""compose_bytes(): the very bytes of compose(...).as_bytes(SMTP), made faster;
the sinks' send_bytes(); the SMTP sink reusing its connection without NOOP."""
from __future__ import annotations

import email
import re
import socket
from datetime import UTC, datetime, timedelta, timezone
from email import policy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.mail.compose import compose
from referee.mail.headerlines import HeaderFault, check_head
from referee.mail.sink import MaildirSink, SmtpSink, envelope
from referee.mail.wire import compose_bytes, envelope_of

UTC_DATE = datetime(2026, 3, 2, 9, 0, 5, 123456, tzinfo=UTC)
BODY = "Deine Befehle für Zug 1 sind angenommen:\n\n    ziel: Zölle – =?x?= \n\tTab\r\nCR\rend" + " lang" * 30


def _both(*args, **kw) -> tuple[bytes | str, bytes | str]:
    """What each way gives: the bytes, or the kind of error (bad header values raise in both)."""
    kw.setdefault("domain", "referee.test")
    out = []
    for make in (lambda: compose(*args, **kw).as_bytes(policy=policy.SMTP), lambda: compose_bytes(*args, **kw)):
        try:
            out.append(make())
        except ValueError as exc:
            out.append(f"{type(exc).__name__}: {exc}")
    return out[0], out[1]


def test_a_german_confirmation_is_byte_for_byte_what_compose_gives():
    old, new = _both("referee@referee.test", "p00x01@players.test", "Re: [burst00] Befehle für Zug 1 angenommen",
                     BODY, in_reply_to="<burst-1@players.test>", references=["<burst-1@players.test>"],
                     message_id="<abc@referee.test>", date=UTC_DATE)
    assert new == old
    assert b"=?utf-8?q?f=C3=BCr?=" in new and new.count(b"\n") == new.count(b"\r\n")
    parsed = email.message_from_bytes(new, policy=policy.default)
    assert parsed.get_content().replace("\r\n", "\n") == "\n".join(BODY.splitlines()) + "\n"


def test_headers_written_by_the_referee_come_out_the_same_on_both_paths():
    refs = [f"<{'r' * 30}{i}@players.test>" for i in range(25)]  # long, folded; more than 20 kept
    cases = [
        dict(from_addr="referee@referee.test", to="zoe@players.test", subject="x" * 90),
        dict(from_addr="referee@referee.test", to=["a@p.test", "b@p.test"], subject="  two  spaces  "),
        dict(from_addr="referee@referee.test", to="a@p.test", subject="=?utf-8?q?looks_encoded?="),
        dict(from_addr="referee@referee.test", to="a@p.test", subject="", references=refs),
        dict(from_addr="referee@referee.test", to="a@p.test", subject="s",
             date=datetime(2026, 3, 2, 9, 0, tzinfo=timezone(timedelta(hours=1)))),
        dict(from_addr="referee@referee.test", to="a@p.test", subject="s", date=datetime(2026, 3, 2, 9, 0)),
        dict(from_addr="referee@referee.test", to="a@p.test", subject="s", html="<p>Grüße</p>", auto="auto-generated"),
        dict(from_addr="referee@referee.test", to="a@p.test", subject="s", cc="old@p.test"),
        # refused on both paths: a display name, an id that is none, one with an encoded word
        dict(from_addr="Referee <referee@referee.test>", to="Zoë Müller <zoe@players.test>", subject="s"),
        dict(from_addr="referee@referee.test", to="a@p.test", subject="s", in_reply_to="odd id"),
        dict(from_addr="referee@referee.test", to="a@p.test", subject="s", in_reply_to="<=?utf-8?q?x?=@a.test>"),
    ]
    for case in cases:
        case.setdefault("date", UTC_DATE)
        args = (case.pop("from_addr"), case.pop("to"), case.pop("subject"), BODY)
        old, new = _both(*args, message_id="<m1@referee.test>", **case)
        assert (new == old) if isinstance(new, str) else _unbounded(new) == _unbounded(old), case
        if isinstance(new, bytes):   # every line of the header section within 78 characters
            head = new.split(b"\r\n\r\n")[0]
            assert max(len(line) for line in head.split(b"\r\n")) <= 78, case
    assert sum(isinstance(_both("r@referee.test", **c)[1], str) for c in (
        dict(to="N <n@p.test>", subject="s", text="t"), dict(to="n@p.test", subject="s", text="t", in_reply_to="x"),
        dict(to="n@p.test", subject="s", text="t", references=["<=?a?q?b?=@c>"]))) == 3


def _unbounded(raw: bytes) -> bytes:
    """A multipart message with its random boundary made fixed."""
    found = re.search(rb'boundary="([^"]+)"', raw)
    return raw.replace(found.group(1), b"BOUNDARY") if found else raw


_text = st.text(st.sampled_from(list("aZ09 .-_<>@=?:;()\"'\t\n\r\x0bäöüß–€😀")), max_size=300)
_id = st.from_regex(r"<[a-z0-9.]{1,40}@[a-z.]{1,20}>", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(subject=_text.map(lambda s: s.replace("\n", " ").replace("\r", " ")), text=_text,
       refs=st.lists(_id, max_size=4), reply=st.none() | _id, auto=st.sampled_from(["auto-replied", "auto-generated"]),
       to=st.sampled_from(["p@players.test", "first.last+tag@sub.players.test", "a@p.test, b@p.test"]))
def test_any_plain_message_is_byte_for_byte_what_compose_gives(subject, text, refs, reply, auto, to):
    old, new = _both("referee@referee.test", to, subject, text, in_reply_to=reply, references=refs, auto=auto,
                     message_id="<q@referee.test>", date=UTC_DATE)
    assert new == old
    assert isinstance(new, bytes) or "linefeed" in new  # only header line breaks are refused


def test_envelope_of_reads_the_addresses_as_the_sink_reads_a_message():
    for frm, to in [("referee@referee.test", "p@players.test"), ("r@referee.test", "a@p.test, b@p.test, a@p.test")]:
        msg = compose(frm, to, "s", "t", domain="referee.test")
        assert envelope_of(frm, [to]) == envelope(msg)


def test_maildir_send_bytes_writes_the_file_send_writes(tmp_path: Path):
    args = ("referee@referee.test", "p@players.test", "Befehle für Zug 1", BODY)
    kw = dict(domain="referee.test", message_id="<m@referee.test>", date=UTC_DATE)
    MaildirSink(tmp_path / "a").send(compose(*args, **kw))
    MaildirSink(tmp_path / "b").send_bytes(compose_bytes(*args, **kw), "referee@referee.test", ["p@players.test"])
    files = [next((tmp_path / d / "new").iterdir()).read_bytes() for d in ("a", "b")]
    assert files[0] == files[1] and b"\r" not in files[1]


def test_smtp_send_bytes_delivers_them_unchanged_and_reuses_the_connection(mailservers):
    raw = compose_bytes("referee@referee.test", "alice@players.test", "Befehle für Zug 1", BODY,
                        domain="referee.test", message_id="<w1@referee.test>", date=UTC_DATE)
    sink = SmtpSink("127.0.0.1", mailservers.smtp.port)
    sink.send_bytes(raw, "referee@referee.test", ["alice@players.test"])
    noops = []
    first = sink._smtp
    real_noop = first.noop
    first.noop = lambda: noops.append(1) or real_noop()
    sink.send_bytes(raw, "referee@referee.test", ["alice@players.test"])
    assert sink._smtp is first and noops == []  # a quiet connection is reused without a round trip
    first.sock.shutdown(socket.SHUT_RDWR)       # now the socket reads as closed: checked, dropped, reopened
    sink.send_bytes(raw, "referee@referee.test", ["bob@players.test"])
    sink.close()
    captured = mailservers.wait_captured(3)
    assert noops == [1] and [c.raw for c in captured] == [raw] * 3
    assert [c.rcpts for c in captured][-1] == ("bob@players.test",)


_line_free = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
                     max_size=200)


@settings(max_examples=300, deadline=None)
@given(subject=_line_free)
def test_item1_any_subject_reads_back_as_written_and_only_as_a_subject(subject):
    """Issue 32 item 1: the referee's own encoding of a subject (encoded words, ``=?`` in it,
    controls, any script) reads back as that subject and never as another header line."""
    raw = compose_bytes("referee@referee.test", "p@players.test", subject, "t", domain="referee.test",
                        message_id="<s@referee.test>", date=UTC_DATE)
    head = raw.split(b"\r\n\r\n")[0]
    assert max(len(line) for line in head.split(b"\r\n")) <= 78 and head.isascii()
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert parsed["Subject"] == subject.strip(" ")
    assert [k for k in parsed.keys() if k.lower() not in ("content-type", "content-transfer-encoding", "mime-version")] \
        == ["From", "To", "Subject", "Date", "Message-ID", "Auto-Submitted", "X-Auto-Response-Suppress"]


def test_item1_a_header_section_with_a_line_the_referee_did_not_write_is_refused():
    good = b"From: r@referee.test\r\nSubject: s\r\n t\r\nContent-Type: text/plain\r\n\r\nbody\nwith LF"
    assert check_head(good, ["From", "Subject"]) == good
    for bad in (b"From: r@referee.test\r\nReply-To: eve@evil.test\r\nSubject: s\r\n\r\n",   # a field not written
                b"From: r@referee.test\nSubject: s\r\n\r\n",                                # a bare LF
                b"From: r@referee.test\rX: s\r\nSubject: s\r\n\r\n",                        # a bare CR
                b"From: r@referee.test\r\nSubject: s\r\nFrom: r@referee.test\r\n\r\n"):     # one twice
        with pytest.raises(HeaderFault):
            check_head(bad, ["From", "Subject"])
