"""Issue 32, "mail that is read wrong" (items 14-17): through the command line as an
operator runs it (a mail dropped into mail/in, ``poll --once``, the answer read from
mail/out), or through ``parse_inbound`` where the finding is about reading alone."""
from __future__ import annotations

import base64
import quopri

import pytest
import yaml
from gm_files import FF_WINTER
from lxml import etree
from maildesk import Desk, read, text_of

from referee.app.config import load
from referee.app.wiring import open_referee
from referee.game_api.contract import Rng
from referee.mail import htmltext
from referee.mail.inbound import MAX_HEAD, parse_inbound

MATCH = FF_WINTER.replace("id: ff-winter", "id: ff")   # the GM tests' campaign, another id


@pytest.fixture
def desk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return Desk(tmp_path, MATCH)


def jay_order(desk: Desk) -> str:
    """Jay's valid order for turn 1, as YAML with nested, indented lines."""
    key = desk.key(desk.sent(), "jay@example.org")
    ref = open_referee(load(desk.root / "referee.yaml"))
    try:
        rules = ref.rules(ref.store.match("ff"))
        orders = rules.random_orders(rules.load(ref.store.current_turn("ff")["state"]), "jay", Rng(1))
    finally:
        ref.store.close()
    text = yaml.safe_dump({"match": "ff", "player": "jay", "key": key, "turn": 1, "orders": orders}, sort_keys=False)
    assert "\n  " in text    # indented lines, which a browser's layout would flatten
    return text


def head(mid: str, ctype: str, extra: str = "") -> str:
    return (f"From: jay@example.org\r\nTo: referee@localhost\r\nSubject: orders\r\nMessage-ID: {mid}\r\n"
            f"{extra}MIME-Version: 1.0\r\nContent-Type: {ctype}\r\n")


def answer(desk: Desk, mid: str):
    [reply] = [read(m) for m in desk.sent() if read(m)["In-Reply-To"] == mid]
    return reply


def jay_submitted(desk: Desk) -> bool:
    ref = open_referee(load(desk.root / "referee.yaml"))
    try:
        return "jay" in ref.store.submissions("ff", 1)
    finally:
        ref.store.close()


def test_item14_an_html_order_indented_with_spaces_between_br_is_read_with_its_own_spacing(desk):
    order = jay_order(desk)
    html = ('<html><body><div dir="ltr">Dear referee,<br><br>' + "<br>".join(order.splitlines())
            + "<br><br>Regards, John</div></body></html>")
    raw = (head("<html-order@example.org>", 'multipart/alternative; boundary="alt"') + "\r\n"
           "--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\r\n"
           "--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n--alt--\r\n")
    mail = parse_inbound(raw.encode())
    assert "\nkeep" in "\n" + mail.text or "\n- " in mail.text     # the layout a browser shows: flattened
    assert "\n  " in mail.literal                                   # the source's own spacing, kept beside it
    desk.drop(raw.encode())
    reply = answer(desk, "<html-order@example.org>")
    assert "accepted" in reply["Subject"] and "Not accepted" not in reply["Subject"], text_of(reply.as_bytes())
    assert jay_submitted(desk)


def test_item14_a_browser_layout_that_is_a_valid_document_is_still_read_as_laid_out():
    html = "<div>match: ff<br>player: jay<br>key: K<br>command:   status</div>"
    mail = parse_inbound((head("<m@x>", "text/html; charset=utf-8") + "\r\n" + html).encode())
    assert mail.text == "match: ff\nplayer: jay\nkey: K\ncommand: status\n"
    assert mail.literal == "match: ff\nplayer: jay\nkey: K\ncommand:   status\n"


def test_item15_a_header_section_over_the_cap_is_refused_as_too_large_never_read_half(desk):
    order = jay_order(desk).replace("player: jay", "# J\u00f6rg M\u00fcller-Stra\u00dfe\nplayer: jay")
    filler = "".join(f"X-Filler-{i}: {'x' * 60}\r\n" for i in range(MAX_HEAD // 70 + 20))
    raw = (head("<big-head@example.org>", "text/plain; charset=utf-8", filler)
           + "Content-Transfer-Encoding: quoted-printable\r\n\r\n").encode() \
        + quopri.encodestring(order.encode("utf-8")).replace(b"\n", b"\r\n")
    mail = parse_inbound(raw)
    assert mail.too_large and mail.over == "head" and mail.text == ""
    desk.drop(raw)
    reply = text_of(answer(desk, "<big-head@example.org>").as_bytes())
    assert "header lines" in reply and "=C3" not in reply
    assert not jay_submitted(desk)


def test_item15_a_part_whose_header_would_be_cut_is_not_read_half():
    filler = "".join(f"X-Filler-{i}: {'x' * 60}\r\n" for i in range(300))
    body = quopri.encodestring("match: ff\nname: J\u00f6rg M\u00fcller-Stra\u00dfe\n".encode()).decode()
    raw = (head("<m@x>", 'multipart/mixed; boundary="b"') + "\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n"
           + filler + "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + body + "\r\n--b--\r\n").encode()
    mail = parse_inbound(raw)
    assert mail.too_large and mail.over == "head" and "=C3" not in mail.text
    # a Content-Type whose parameters would be cut, at the top
    long_type = "text/plain; " + "; ".join(f"p{i}=v" for i in range(100)) + "; charset=utf-8"
    assert parse_inbound((head("<m@x>", long_type) + "\r\nmatch: ff\n").encode()).over == "head"


def test_item16_an_attachment_named_in_raw_utf8_is_named_right_in_the_reply(desk):
    name = "Stra\u00dfenkarte J\u00f6rg.png"
    photo = base64.encodebytes(b"\x89PNG" + bytes(150_000)).decode().replace("\n", "\r\n")
    raw = (head("<photo@example.org>", 'multipart/mixed; boundary="b"') + "\r\n"
           "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + jay_order(desk) + "\r\n"
           f'--b\r\nContent-Type: image/png\r\nContent-Disposition: attachment; filename="{name}"\r\n'
           "Content-Transfer-Encoding: base64\r\n\r\n" + photo + "--b--\r\n").encode("utf-8")
    assert parse_inbound(raw).set_aside[0][0] == name
    desk.drop(raw)
    reply = text_of(answer(desk, "<photo@example.org>").as_bytes())
    assert name in reply and "\ufffd" not in reply


def _most_attributes(markup: str) -> int:
    root = etree.fromstring(markup.encode(), etree.HTMLParser(encoding="utf-8", recover=True))
    return max(len(e.attrib) for e in root.iter() if isinstance(e.tag, str))


MANY = " ".join(f"a{i}=1" for i in range(27_000))


@pytest.mark.parametrize("markup", [
    f"<p {MANY}>match: ff<br>player: jay</p>",                     # the audit's shape: 232 kB, one tag
    f'<!-- <a x=" --><p {MANY}>match: ff" -->',                    # a comment ends where the parser ends it
    f'<script><a x="</script><p {MANY}>match: ff"</script>',       # raw text holds no tags
    f'<title><a x="</title><p {MANY}>match: ff"',
    f'<p x="<b" {MANY}>match: ff</p>',
    '<p ' + 'a="1"' * 27_000 + '>match: ff</p>',                    # no blanks between attributes
])
def test_item17_no_tag_reaches_the_html_parser_with_more_attributes_than_the_cap(markup):
    assert _most_attributes(htmltext.capped_attributes(markup)) <= htmltext.MAX_ATTRIBUTES
    mail = parse_inbound((head("<m@x>", "text/html; charset=utf-8") + "\r\n" + markup).encode())
    assert "match: ff" in mail.text


def test_item17_ordinary_markup_passes_the_cap_unchanged():
    markup = ('<div class="x" style="color: red; font-family: Arial, sans-serif">Hi <a href="https://x.test/?a=1&b=2" '
              "title='a > b'>there</a><script>if (a<b && c>d) x='<p a b c>'</script><!-- <p> --></div>")
    assert htmltext.capped_attributes(markup) == markup
