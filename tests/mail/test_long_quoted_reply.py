"""Issue 38: an order sent as a reply quoting a long history (3.9 MB of text) is read,
through the real Dovecot: of a text part over the 256 kB cap the first 256 kB are read
and the text above the quote is the order.  Only where no order stands there is the mail
refused, saying which limit it broke (English and German)."""
from __future__ import annotations

import email
import json
import mailbox
import time
from email import policy

from bounded_referee import REFEREE, SPEC, bid, clock, keys_of, ref  # noqa: F401 (fixtures)

from referee.app.service import Service
from referee.mail.imap_source import ImapSource
from referee.mail.mime import MAX_TEXT_PART
from referee.mail.sink import MaildirSink

HISTORY = 3_780_000   # characters of quoted text (3.9 MB with CRLF): turn reports answered again and again


def _history(size: int) -> str:
    report = ("> > Report, turn 7 of toy1: Ann bid 3, Bob bid 1, Cyd bid 2; the pot goes to Ann.\n"
              "> > Your order form for turn 8 follows; write it above this line.\n"
              "> >\n> > match: toy1\n> > orders:\n> >   bid: 0\n")
    return (report * (size // len(report) + 1))[:size].rsplit("\n", 1)[0] + "\n"


def _reply(own: str, quoted: str, *, html: bool = False, encoding: str = "8bit", sender: str = "Ann <ann@example.org>") -> bytes:
    """A reply as Thunderbird (plain) or Gmail (plain + HTML) writes it, the order on top."""
    head = (f"From: {sender}\r\nTo: {REFEREE}\r\nSubject: Re: [toy1] Report, turn 1\r\n"
            "Message-ID: <long-reply.1@players.example>\r\nIn-Reply-To: <report.1@example.org>\r\n"
            "Date: Mon, 02 Mar 2026 19:00:00 +0000\r\nMIME-Version: 1.0\r\n")
    text = own + "\nOn Mon, 2 Mar 2026 at 18:00, Referee <referee@example.org>\nwrote:\n" + quoted
    if not html:
        return (head + f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n"
                + text.replace("\n", "\r\n")).encode()
    markup = ("<div dir=\"ltr\">" + own.replace("\n", "<br>\n") + "</div><div class=\"gmail_quote\">"
              "<div>On Mon, 2 Mar 2026 at 18:00, Referee wrote:</div><blockquote>"
              + quoted.replace("> > ", "").replace("\n", "<br>\n") + "</blockquote></div>\n")
    return (head + "Content-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n--b1\r\n"
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            + text.replace("\n", "\r\n") + "\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n" + markup.replace("\n", "\r\n") + "\r\n--b1--\r\n").encode()


def _poll(ref, mailservers, tmp_path, raw: bytes) -> tuple[float, list]:
    ref.create_match(SPEC)
    keys = keys_of(ref, tmp_path / "welcome")
    mailservers.append("referee", raw.replace(b"KEY-OF-ANN", keys["ann"].encode()).replace(b"KEY-OF-BOB", keys["bob"].encode()))
    source = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee",
                        mailservers.password("referee"), backoff=0.01)
    try:
        start = time.perf_counter()
        Service(ref, source, MaildirSink(tmp_path / "out"), address=REFEREE).poll_once()
        elapsed = time.perf_counter() - start
    finally:
        source.close()
    assert mailservers.messages("referee") == []
    box = mailbox.Maildir(str(tmp_path / "out"), create=False)
    return elapsed, [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in box.keys()]


def _orders(ref, player: str) -> dict:
    orders = ref.store.submissions("toy1", 1)[player]["orders"]
    return json.loads(orders) if isinstance(orders, str) else orders


def _text(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def test_issue38_an_order_above_a_3_9_mb_quoted_history_is_accepted(ref, tmp_path, mailservers):
    raw = _reply("Here are my orders.\n\n" + bid("ann", "KEY-OF-ANN", 3) + "\nAnn\n", _history(HISTORY))
    assert 3_880_000 < len(raw) < 4_000_000                  # under the mail's cap, far over the text part's
    elapsed, replies = _poll(ref, mailservers, tmp_path, raw)
    assert set(ref.store.submissions("toy1", 1)) == {"ann"}
    assert _orders(ref, "ann") == {"bid": 3}   # not the quoted "bid: 0"
    assert [m["To"] for m in replies] == ["ann@example.org"] and "accepted" in _text(replies[0]).lower()
    print(f"\n3.9 MB quoted reply: {elapsed:.2f} s")


def test_issue38_a_gmail_reply_plain_and_html_both_over_the_cap_is_accepted(ref, tmp_path, mailservers):
    raw = _reply(bid("ann", "KEY-OF-ANN", 2), _history(HISTORY // 2 - 100_000), html=True)
    assert len(raw) < 4_000_000
    _poll(ref, mailservers, tmp_path, raw)
    assert _orders(ref, "ann") == {"bid": 2}


def test_issue38_hostile_an_order_only_inside_the_quote_is_refused_naming_the_text_cap(ref, tmp_path, mailservers):
    # the only document is a quoted one (an old order, "> "-marked, bid 0): never taken for a new one
    raw = _reply("Ich stimme allem unten zu.\n", "> " + bid("bob", "KEY-OF-BOB", 0).replace("\n", "\n> ")
                 + "\n" + _history(HISTORY), sender="Bob <bob@example.org>")
    _, replies = _poll(ref, mailservers, tmp_path, raw)
    assert ref.store.submissions("toy1", 1) == {}
    text = _text(replies[0])
    assert [m["To"] for m in replies] == ["bob@example.org"]
    assert "ihr Text ist größer als erlaubt (256 kB)" in text, text     # Bob reads German


def test_issue38_hostile_a_document_past_the_cap_or_one_endless_line_is_refused_quickly(ref, tmp_path, mailservers):
    # the order below 3.9 MB of unquoted filler, and the filler one line: neither read past the cap
    filler = "x" * HISTORY
    raw = (f"From: ann@example.org\r\nTo: {REFEREE}\r\nSubject: orders\r\nMessage-ID: <endless@players.example>\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\nmatch: toy1 " + filler + "\r\n"
           + bid("ann", "KEY-OF-ANN", 1).replace("\n", "\r\n")).encode()
    assert len(raw) > MAX_TEXT_PART * 10
    elapsed, replies = _poll(ref, mailservers, tmp_path, raw)
    assert ref.store.submissions("toy1", 1) == {}
    assert "its text is over the limit of 256 kB" in _text(replies[0])
    assert elapsed < 10.0


def test_issue38_hostile_an_order_above_3_9_mb_of_unquoted_text_is_refused(ref, tmp_path, mailservers):
    # no quote begins within the bytes read: the text may go on past them (a document cut in two)
    prose = "the council met again and nothing was decided; " * 2 + "\n"
    raw = (f"From: ann@example.org\r\nTo: {REFEREE}\r\nSubject: orders\r\nMessage-ID: <unquoted@players.example>\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\n" + bid("ann", "KEY-OF-ANN", 1).replace("\n", "\r\n")
           + (prose * (HISTORY // len(prose))).replace("\n", "\r\n")).encode()
    assert len(raw) < 4_000_000
    _, replies = _poll(ref, mailservers, tmp_path, raw)
    assert ref.store.submissions("toy1", 1) == {}
    assert "its text is over the limit of 256 kB" in _text(replies[0])
