"""parse_inbound on the sample kinds of mail, loop guards, limits and garbage."""
from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta, timezone

import pytest
from mail_samples import (
    ORDERS,
    SAMPLES,
    UMLAUTS,
    alternative,
    html_only,
    latin1,
    latin1_orders,
    plain_utf8,
    quoted_printable,
    simple,
    yaml_attachment,
)

from referee.mail.inbound import parse_inbound


def test_plain_utf8_body_keeps_umlauts_and_headers():
    mail = parse_inbound(plain_utf8())
    assert mail.sender == "alice@players.test"  # lower-cased
    assert mail.sender_name == "Alice Ärger"
    assert mail.to == ("referee@referee.test",)
    assert mail.message_id == "<plain@players.test>"
    assert mail.references == ("<plain@players.test>",)
    assert mail.date == datetime(2026, 11, 21, 17, 4, 5, tzinfo=UTC)
    assert mail.date.utcoffset() == timedelta(hours=1)
    assert ORDERS in mail.text and "\r" not in mail.text
    assert mail.attachments == () and mail.automatic is None and not mail.too_large
    assert mail.return_path is None


def test_base64_yaml_attachment_is_decoded_text():
    mail = parse_inbound(yaml_attachment())
    assert mail.attachments == (("orders.yaml", ORDERS),)
    assert mail.text.strip() == "See attachment."


@pytest.mark.parametrize("ctype", ["application/x-yaml", "text/yaml", "application/octet-stream"])
def test_yaml_attachment_found_by_type_or_name(ctype):
    name = "" if ctype != "application/octet-stream" else '; name="befehle.yml"'
    disp = "" if ctype != "application/octet-stream" else \
        'Content-Disposition: attachment; filename="befehle.yml"\r\n'
    raw = ("From: a@players.test\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
           "--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
           f"--b\r\nContent-Type: {ctype}; charset=utf-8{name}\r\n{disp}"
           "Content-Transfer-Encoding: base64\r\n\r\n"
           + base64.b64encode(ORDERS.encode()).decode() + "\r\n--b--\r\n").encode()
    (filename, text), = parse_inbound(raw).attachments
    assert text == ORDERS
    assert filename == ("befehle.yml" if disp else "orders.yaml")


def test_other_attachments_are_not_read():
    raw = ("From: a@players.test\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
           "--b\r\nContent-Type: text/plain\r\n\r\nbody text\r\n"
           "--b\r\nContent-Type: text/plain; name=notes.txt\r\n"
           "Content-Disposition: attachment; filename=notes.txt\r\n\r\nnot orders\r\n--b--\r\n")
    mail = parse_inbound(raw.encode())
    assert mail.text.strip() == "body text" and mail.attachments == ()


def test_quoted_printable_and_rfc2047_subject():
    mail = parse_inbound(quoted_printable())
    assert mail.subject == "Befehle für Münster"
    assert ORDERS in mail.text
    assert "unter sechsundsiebzig Zeichen bleibt: äöü ÄÖÜ." in mail.text  # soft breaks joined


def test_latin1_8bit_body_and_subject():
    mail = parse_inbound(latin1())
    assert mail.subject == "Zölle"
    assert mail.text == latin1_orders()


def test_alternative_prefers_plain():
    mail = parse_inbound(alternative())
    # The CRLF before a boundary belongs to the boundary, so the last newline goes.
    assert mail.text == ORDERS.rstrip("\n") and "ignored html" not in mail.text


def test_html_only_mail_is_read_through_its_text():
    mail = parse_inbound(html_only())
    text = mail.text
    assert "Hallo," in text and "alert" not in text and "color" not in text
    assert "\n".join(ORDERS.rstrip("\n").split("\n")) in text  # indentation from &nbsp; kept
    assert "> old: quoted" in text


def test_wrong_or_missing_charset_still_yields_umlauts():
    latin_bytes = latin1_orders().encode("latin-1")
    undeclared = b"From: a@players.test\r\nContent-Type: text/plain\r\n\r\n" + latin_bytes
    assert parse_inbound(undeclared).text == latin1_orders()
    bogus = b"From: a@players.test\r\nContent-Type: text/plain; charset=x-klingon\r\n\r\n" \
        + ORDERS.encode()
    assert parse_inbound(bogus).text == ORDERS
    raw_header = "From: Jörg <j@players.test>\r\nSubject: Grüße\r\n\r\nx".encode()
    mail = parse_inbound(raw_header)
    assert (mail.sender_name, mail.subject) == ("Jörg", "Grüße")


def test_missing_message_id_is_synthesised_from_content():
    raw = b"From: a@players.test\r\n\r\nbody\r\n"
    one, two = parse_inbound(raw), parse_inbound(raw + b"x")
    assert one.message_id.startswith("<") and one.message_id.endswith(">")
    assert one.message_id == parse_inbound(raw).message_id != two.message_id
    assert one.content_hash != two.content_hash and len(one.content_hash) == 64


def test_references_thread_on_the_whole_chain():
    raw = simple(extra="References: <r1@x.test>\r\n <r2@x.test>\r\nIn-Reply-To: <r2@x.test>\r\n")
    assert parse_inbound(raw).references == ("<r1@x.test>", "<r2@x.test>", "<simple@players.test>")
    only_reply = simple(extra="In-Reply-To: <r9@x.test>\r\n")
    assert parse_inbound(only_reply).references == ("<r9@x.test>", "<simple@players.test>")


@pytest.mark.parametrize("extra, sender, reason", [
    ("Auto-Submitted: auto-replied\r\n", "alice@players.test", "auto-submitted"),
    ("Auto-Submitted: auto-generated; owner-email=x@y\r\n", "alice@players.test", "auto-submitted"),
    ("Return-Path: <>\r\n", "alice@players.test", "bounce"),
    ("", "MAILER-DAEMON@mx.players.test", "bounce"),
    ("", "postmaster@players.test", "bounce"),
    ("Content-Type: multipart/report; report-type=delivery-status; boundary=z\r\n",
     "alice@players.test", "bounce"),
    ("Precedence: bulk\r\n", "alice@players.test", "precedence"),
    ("Precedence: junk\r\n", "alice@players.test", "precedence"),
    ("List-Id: <games.lists.test>\r\n", "alice@players.test", "list"),
    ("List-Unsubscribe: <mailto:u@lists.test>\r\n", "alice@players.test", "list"),
    ("X-Autoreply: yes\r\n", "alice@players.test", "autoreply"),
    ("X-Autorespond: Urlaub\r\n", "alice@players.test", "autoreply"),
    ("", "Referee@Referee.test", "own"),
])
def test_loop_guards(extra, sender, reason):
    mail = parse_inbound(simple(sender=sender, extra=extra), own_addresses=["referee@referee.test"])
    assert mail.automatic == reason


def test_ordinary_mail_passes_loop_guards():
    raw = simple(extra="Auto-Submitted: no\r\nPrecedence: normal\r\n"
                       "Return-Path: <alice@players.test>\r\n")
    mail = parse_inbound(raw, own_addresses=["referee@referee.test"])
    assert mail.automatic is None and mail.return_path == "alice@players.test"


def test_oversized_mail_keeps_headers_but_no_body():
    raw = simple(body="x" * 300_000 + "\r\n")
    mail = parse_inbound(raw, max_bytes=256_000)
    assert mail.too_large and mail.text == "" and mail.sender == "alice@players.test"
    assert mail.message_id == "<simple@players.test>" and mail.size == len(raw)
    assert mail.raw == raw[:raw.index(b"\r\n\r\n") + 4]  # only the header section is kept


def test_oversized_attachment_is_dropped_and_flagged():
    big = base64.encodebytes(b"a: b\n" * 20_000).decode()
    raw = ("From: a@players.test\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
           "--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b\r\nContent-Type: text/yaml\r\n"
           "Content-Disposition: attachment; filename=o.yaml\r\n"
           "Content-Transfer-Encoding: base64\r\n\r\n" + big + "--b--\r\n").encode()
    mail = parse_inbound(raw, max_bytes=10_000_000, max_attachment_bytes=64_000)
    assert mail.too_large and mail.attachments == () and mail.text.strip() == "hi"


@pytest.mark.parametrize("raw", [
    b"", b"\x00\xff\xfe garbage \x80\x81", b"no headers at all, just text\n",
    b"From: <<<@@@>>>\r\nDate: yesterday-ish\r\nMessage-ID: nope\r\n"
    b"Content-Type: multipart/mixed; boundary=\r\n\r\n--\r\n",
    b"Subject: =?utf-8?B?!!!notbase64?=\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%",
    b"Content-Type: text/plain; charset=\"utf-8\r\n\r\n\xc3\x28",
])
def test_garbage_never_raises(raw):
    mail = parse_inbound(raw)
    assert mail.raw == raw and mail.message_id.startswith("<")
    assert isinstance(mail.text, str) and isinstance(mail.subject, str)


def test_str_input_and_every_sample_keeps_umlauts():
    for name, build in SAMPLES.items():
        mail = parse_inbound(build())
        document = mail.attachments[0][1] if mail.attachments else mail.text
        for word in UMLAUTS[:1]:
            assert word in document, name


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(SAMPLES) + ["html"]), st.integers(0, 4000), st.binary(max_size=40),
       st.integers(0, 4000))
def test_mangled_samples_never_raise(name, cut, junk, insert_at):
    """Truncated, spliced or corrupted versions of real mails still parse."""
    raw = (html_only() if name == "html" else SAMPLES[name]())
    mangled = raw[:insert_at] + junk + raw[insert_at:cut or None]
    mail = parse_inbound(mangled, own_addresses=["referee@referee.test"])
    assert mail.raw == mangled and mail.message_id.startswith("<")
    assert isinstance(mail.text, str) and all(isinstance(t, str) for _, t in mail.attachments)


def test_content_hash_ignores_transport_headers_and_line_ends():
    from referee.mail.inbound import parse_inbound

    authored = (b"From: Alice <alice@players.test>\nTo: referee@referee.test\nSubject: orders\n"
                b"Message-ID: <same@players.test>\n\nmatch: m\nplayer: alice\n")
    delivered_once = b"Return-Path: <alice@players.test>\nReceived: from a by b; Mon, 2 Mar 2026 18:00:01\n" + authored
    delivered_again = (b"Return-Path: <alice@players.test>\r\nDelivered-To: referee@referee.test\r\n"
                       b"Received: from a by b; Mon, 2 Mar 2026 18:00:09\r\n" + authored.replace(b"\n", b"\r\n"))
    one, two = parse_inbound(delivered_once), parse_inbound(delivered_again)
    assert one.content_hash == two.content_hash
    changed = parse_inbound(delivered_once.replace(b"player: alice", b"player: bob"))
    assert changed.content_hash != one.content_hash


@pytest.mark.parametrize("delsp", [False, True])
def test_format_flowed_is_undone(delsp):
    # Thunderbird: long lines soft-broken with a trailing space, indented lines space-stuffed.
    gap = " " if delsp else ""  # DelSp=yes: the flow space is extra and removed
    body = ("Hallo,\r\n\r\nmatch: ff-1\r\norders:\r\n   note: Gr\u00fc\u00dfe aus M\u00fcnster," + gap +
            " \r\nund noch mehr\r\n   vote: Z\u00f6lle senken\r\n\r\n> alt: zitiert \r\n> weiter\r\n"
            "-- \r\nAlice\r\n")
    params = "; delsp=yes" if delsp else ""
    raw = ("From: a@players.test\r\nContent-Type: text/plain; charset=utf-8; format=flowed"
           f"{params}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + body).encode()
    text = parse_inbound(raw).text
    assert "orders:\n  note: Grüße aus Münster, und noch mehr\n  vote: Zölle senken\n" in text
    assert ("> alt: zitiert weiter" if not delsp else "> alt: zitiertweiter") in text  # as sent
    assert text.endswith("-- \nAlice\n")
