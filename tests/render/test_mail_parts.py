"""What the players' mail clients get: the board as a PNG beside the HTML report
(Content-ID), the text saying it is attached, and the next deadline as a
calendar part in welcome mails, reports and deadline notices, cancelled at the end."""
from __future__ import annotations

import mailbox
import re
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from icalendar import Calendar
from refkit import in_order
from seekit import new_match, png_size

from referee.app.cli import main

MATCH_FILE = """\
id: parts
game: founding_fathers
lang: en
gm: gm@example.org
timezone: America/New_York
schedule: {period: 48h, reminders: [6h]}
players:
  - {id: adams, name: John Adams, email: adams@example.org}
  - {id: jay, name: John Jay, email: jay@example.org, lang: de}
  - {id: king, name: Rufus King, email: king@example.org}
"""


def sent(folder: Path) -> list:
    box = mailbox.Maildir(str(folder / "mail" / "out"), factory=None, create=False)
    return [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in in_order(box)]


def calendar_of(msg):
    parts = [p for p in msg.walk() if p.get_content_type() == "text/calendar"]
    assert len(parts) == 1, msg["Subject"]
    assert parts[0].get_filename() == "deadline.ics" and parts[0].get_param("method") == "PUBLISH"
    return Calendar.from_ical(parts[0].get_content()).walk("VEVENT")[0]


@pytest.fixture
def match(tmp_path, monkeypatch):
    return new_match(tmp_path, monkeypatch, MATCH_FILE)


def test_welcome_mails_carry_the_first_deadline_in_the_matchs_zone(match):
    welcomes = [m for m in sent(match) if "Welcome" in m["Subject"] or "Willkommen" in m["Subject"]]
    assert len(welcomes) == 3
    starts = {calendar_of(m).decoded("dtstart") for m in welcomes}
    assert len(starts) == 1 and next(iter(starts)).tzinfo.key == "America/New_York"
    assert calendar_of(welcomes[0]).walk("VALARM")[0].decoded("trigger").total_seconds() == -6 * 3600


def test_a_report_shows_the_board_picture_inline_and_says_so_in_text(match):
    before = len(sent(match))
    assert main(["gm", "parts", "force"]) == 0
    reports = [m for m in sent(match)[before:] if "turn 1" in m["Subject"] or "Zug 1" in m["Subject"]]
    assert {m["To"] for m in reports} == {"adams@example.org", "jay@example.org", "king@example.org",
                                          "gm@example.org"}
    for m in reports:
        text = m.get_body(("plain",)).get_content()
        assert "board picture is attached" in text or "Spielbrett ist als Bild angehängt" in text
        html = m.get_body(("html",))
        image = next(p for p in m.walk() if p.get_content_type() == "image/png")
        assert html.get_content_type() == "text/html"
        assert image.get_content_disposition() == "inline"
        cid = image["Content-ID"].strip("<>")
        assert f'src="cid:{cid}"' in html.get_content() and "cid:board-picture" not in html.get_content()
        assert png_size(image.get_content()) == (720, 480)   # sized for a phone (issue 38)
    jay = next(m for m in reports if m["To"] == "jay@example.org")
    assert "Abgabeschluss" in str(calendar_of(jay)["summary"])


def test_the_next_deadline_moves_with_the_same_uid_and_the_end_cancels_it(match):
    assert main(["gm", "parts", "force"]) == 0
    report = next(m for m in reversed(sent(match)) if m["To"] == "adams@example.org" and "Report" in m["Subject"])
    first = calendar_of(report)
    assert main(["gm", "parts", "extend", "by=24h"]) == 0
    moved = calendar_of(next(m for m in reversed(sent(match)) if m["To"] == "adams@example.org"))
    assert str(moved["uid"]) == str(first["uid"]) and int(moved["sequence"]) >= int(first["sequence"])
    assert (moved.decoded("dtstart") - first.decoded("dtstart")).total_seconds() == 24 * 3600
    assert main(["gm", "parts", "end"]) == 0
    ended = calendar_of(next(m for m in reversed(sent(match)) if m["To"] == "adams@example.org"))
    assert str(ended["uid"]) == str(first["uid"]) and str(ended["status"]) == "CANCELLED"


def test_a_queued_report_builds_to_the_same_bytes_on_both_send_paths(match):
    from referee.app.config import load
    from referee.app.wiring import open_referee
    assert main(["gm", "parts", "force"]) == 0
    ref = open_referee(load(match / "referee.yaml"))
    rows = ref.store._db.execute("SELECT message FROM outbox WHERE length(message) > 0").fetchall()  # welcomes are scrubbed
    assert len(rows) >= 4
    for (data,) in rows:
        raw, _, _ = ref.wire_message(data)
        assert raw == ref.build_message(data).as_bytes(policy=policy.SMTP)
        assert re.search(rb"boundary=\"==[0-9a-f]{32}==\"", raw) or b"multipart" not in raw


def test_a_picture_the_renderer_cannot_read_leaves_the_mail_without_it(match):
    from referee.app.config import load
    from referee.app.wiring import open_referee
    ref = open_referee(load(match / "referee.yaml"))
    with ref.store.transaction():
        ref.queue("broken:1", "parts", "adams@example.org", "Report", "text",
                  '<p><img src="cid:board-picture"></p>', picture="<svg><unclosed <<")
    (data,) = ref.store._db.execute("SELECT message FROM outbox WHERE dedupe = 'broken:1'").fetchone()
    msg = message_from_bytes(ref.wire_message(data)[0], policy=policy.default)
    assert [p.get_content_type() for p in msg.walk()] == ["multipart/alternative", "text/plain", "text/html"]
