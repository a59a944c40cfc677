"""The fast path for report mails (HTML, picture, calendar): compose_bytes gives the
very bytes of compose(...).as_bytes(SMTP), for every shape, the sample archive's
reports of all four games, and hostile header values; its encoders (qp.body,
frame.base64_body) give what the email library gives."""
from __future__ import annotations

import email
import re
from datetime import UTC, datetime, timedelta
from email import contentmanager, policy, quoprimime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.mail import frame, qp
from referee.mail.compose import compose
from referee.mail.wire import compose_bytes
from referee.pictures import board as pictures
from referee.render.calendar import deadline_ics
from referee.render.renderer import inline_styles

ROOT = Path(__file__).resolve().parents[2]
WHEN = datetime(2026, 3, 2, 9, 0, 5, tzinfo=UTC)
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
       '<rect width="40" height="20" fill="#c33"/><circle cx="10" cy="10" r="6" fill="#fff"/></svg>')
_NL = re.compile(r"\r\n|\r|\n")


def _library_qp(text: str) -> str:
    """What contentmanager + the generator write for a quoted-printable text part."""
    lines = text.encode("utf-8").splitlines()
    payload = quoprimime.body_encode((b"\n".join(lines) + b"\n").decode("latin-1"), 78)
    return _NL.sub("\r\n", payload)


def _both(*args, **kw):
    """(library bytes, fast bytes), or the kind of error each raised (bad header values raise in both)."""
    kw.setdefault("domain", "referee.test")
    out = []
    for make in (lambda: compose(*args, **kw).as_bytes(policy=policy.SMTP), lambda: compose_bytes(*args, **kw)):
        try:
            out.append(make())
        except (ValueError, UnicodeError) as exc:
            out.append(f"{type(exc).__name__}")
    return out[0], out[1]


@pytest.fixture(scope="module")
def png() -> bytes:
    data = pictures.png_of(SVG)
    assert data and data.startswith(b"\x89PNG")
    return data


def _calendar(ended: bool) -> str:
    return deadline_ics(match_id="m1", title="Zölle & Räte", turn=3, deadline=WHEN + timedelta(days=2),
                        zone="Europe/Berlin", organizer="referee@referee.test", domain="referee.test",
                        issued=WHEN, lang="de", ended=ended)


# pieces rather than characters: long runs, so lines get broken near '=XX' and blanks
_PIECES = list("aZ09 .-_<>@=?:;()\"'\t\n\r\x0b\x0c\x85äöüß–€😀") + ["x" * 70, "=" * 9, "ü" * 12, " " * 5]
_text = st.lists(st.sampled_from(_PIECES), max_size=120).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_text)
def test_quoted_printable_bodies_are_what_the_library_writes(text):
    assert qp.body(text) == _library_qp(text)


def test_quoted_printable_breaks_long_lines_and_trailing_blanks_as_the_library_does():
    cases = ["", "\n", "=" * 200, "a" * 76 + " ", "a" * 77 + "\t", "a" * 78 + " ", "a" * 75 + "=b" + "c" * 10,
             "a" * 76 + "ü" * 5, "é" * 100 + " \n \t\n", "x\r\ny\rz\n\n", "\x00\x1b[31m\x7f"]
    for text in cases + [c * 3 for c in cases]:
        assert qp.body(text) == _library_qp(text), repr(text)


def test_base64_bodies_are_what_the_library_writes():
    for n in (1, 2, 3, 56, 57, 58, 114, 1000, 60_001):
        data = bytes(range(256)) * (n // 256 + 1)
        assert frame.base64_body(data[:n]) == contentmanager._encode_base64(data[:n], 78).replace("\n", "\r\n")


@pytest.mark.parametrize("html", [False, True])
@pytest.mark.parametrize("with_picture", [False, True])
@pytest.mark.parametrize("calendar", [None, "publish", "cancel"])
def test_every_shape_of_message_is_byte_for_byte_what_compose_gives(html, with_picture, calendar, png):
    kw = dict(html="<p style='x'>Grüße = mehr</p>\n" * 30 if html else None, auto="auto-generated",
              message_id="<abc.m1@referee.test>", date=WHEN, picture=png if with_picture else None,
              picture_cid="<board.abc@referee.test>", calendar=_calendar(calendar == "cancel") if calendar else None)
    old, new = _both("referee@referee.test", "p@players.test", "[m1] Bericht, Zug 3", "Zug 3 – Grüße\n" * 40, **kw)
    assert new == old
    parsed = email.message_from_bytes(new, policy=policy.default)
    assert parsed.get_body(("plain",)).get_content().startswith("Zug 3 – Grüße")


@pytest.mark.parametrize("game", ["founding_fathers", "nations_dice", "perricumer_ratsspiel", "revolution_1848"])
def test_the_sample_archives_reports_of_every_game_are_what_compose_gives(game, png):
    reports = sorted((ROOT / "turns" / f"demo-{game}").glob("t00[1-3]/reports/*.txt"))
    assert reports
    for txt in reports:
        html_file = txt.with_suffix(".html")
        html = inline_styles(html_file.read_text(encoding="utf-8")) if html_file.exists() else None
        old, new = _both("referee@referee.test", "p@players.test", f"[demo-{game}] Report, turn 1",
                         txt.read_text(encoding="utf-8"), html, auto="auto-generated",
                         message_id=f"<{txt.stem}.demo-{game}@referee.test>", date=WHEN, picture=png,
                         picture_cid=f"<board.{txt.stem}@referee.test>", calendar=_calendar(False))
        assert new == old, txt


HOSTILE = [
    dict(from_addr="Schiedsrichter Zölle <referee@referee.test>", to="Zoë Müller-Lüdenscheidt <zoe@players.test>"),
    dict(subject="Bericht: " + "sehr lange Betreffzeile mit Umlauten äöü " * 6),
    dict(subject="x" * 200),
    dict(subject="=?utf-8?q?looks_encoded?= and \"quotes\" (comment)"),
    dict(subject="line\r\nBcc: victim@evil.test"),
    dict(subject="line\nbreak"),
    dict(to="a@p.test\r\nBcc: victim@evil.test"),
    dict(from_addr="\"Ref, The\" <r@referee.test>", cc=["Old Ä <old@p.test>", "x@p.test"]),
    dict(message_id="<" + "m" * 120 + "@referee.test>"),
    dict(message_id="<odd id with spaces@referee.test>"),
    dict(message_id="<m@referee.test>\r\nX-Evil: 1"),
    dict(picture_cid="<board." + "c" * 100 + "@" + "d" * 60 + ".test>"),
    dict(picture_cid="<cid\r\nX-Evil: 1@referee.test>"),
    dict(in_reply_to="<o1@players.test>", references=["<" + "r" * 40 + f"{i}@players.test>" for i in range(25)]),
    dict(text="Surrogate \udcff in the text"),
    dict(html="\ud800 lone surrogate"),
    dict(picture=b"", calendar=""),
]


@pytest.mark.parametrize("case", range(len(HOSTILE)))
def test_hostile_values_give_the_same_bytes_or_the_same_refusal(case, png):
    kw = dict(from_addr="referee@referee.test", to="p@players.test", subject="[m1] Bericht", text="Zug 3\n",
              html="<p>Zug 3</p>", auto="auto-generated", message_id="<abc.m1@referee.test>", date=WHEN,
              picture=png, picture_cid="<board.abc@referee.test>", calendar=_calendar(False))
    kw.update(HOSTILE[case])
    args = [kw.pop(k) for k in ("from_addr", "to", "subject", "text")]
    old, new = _both(*args, **kw)
    assert new == old
    if isinstance(new, bytes):
        assert new.count(b"\n") == new.count(b"\r\n") and b"\nBcc:" not in new and b"\nX-Evil" not in new


_id = st.from_regex(r"<[a-z0-9.]{1,40}@[a-z.]{1,20}>", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(subject=_text.map(lambda s: s.replace("\n", " ").replace("\r", " ")), text=_text, html=st.none() | _text,
       picture=st.booleans(), calendar=st.sampled_from([None, False, True]), mid=_id, cid=_id,
       to=st.sampled_from(["p@players.test", "first.last+tag@sub.players.test", "a@p.test, b@p.test"]))
def test_any_report_mail_is_byte_for_byte_what_compose_gives(subject, text, html, picture, calendar, mid, cid, to, png):
    old, new = _both("referee@referee.test", to, subject, text, html, auto="auto-generated", message_id=mid,
                     date=WHEN, picture=png if picture else None, picture_cid=cid,
                     calendar=None if calendar is None else _calendar(calendar))
    assert new == old
