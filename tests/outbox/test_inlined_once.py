"""Issue 38: a report's HTML gets its styles written inline once for all the mails that carry
it (the observers of a match who read one language share one report), and before the
picture's Content-ID goes in: every mail is the bytes the inliner gives its HTML with
that Content-ID (the order before), and what is kept stays bounded."""
from __future__ import annotations

from referee_kit import clock, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.authority import queue as queue_mod
from referee.game_api import fastjson
from referee.pictures import board as pictures
from referee.render.renderer import inline_styles

SEATS = ("washington", "franklin", "dickinson", "wilson")
FF = {"id": "ff1", "game": "founding_fathers", "title": "Philadelphia", "gm": "gm@example.org", "language": "en",
      "timezone": "Europe/Berlin", "schedule": {"period": "48h"},
      "players": [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in SEATS],
      "observers": ["one@example.org", "two@example.org"]}


def test_every_report_mail_has_the_html_the_inliner_gives_with_its_picture_in(ref, clock, monkeypatch):
    monkeypatch.setattr(pictures, "WORKERS", 0)
    ref.create_match(FF)
    clock.advance(hours=49)
    assert ref.tick().closed
    rows = [r for r in ref.store.outbox(status="queued") if fastjson.loads(r["message"]).get("report")]
    queue = ref.mail_queue
    observers = {}
    for row in rows:
        stored = fastjson.loads(row["message"])
        got = queue._parts(row["message"])
        _, html, picture = queue.report_body(stored["report"])
        assert picture and stored["picture_cid"]
        cid = "cid:" + stored["picture_cid"].strip("<>")
        assert got["html"] == inline_styles(html.replace(queue_mod.PICTURE_CID, cid))   # as built before
        assert cid in got["html"] and queue_mod.PICTURE_CID not in got["html"]
        if stored["to"] in FF["observers"]:
            observers[stored["to"]] = got["html"].replace(cid, "cid:X")
    assert len(observers) == 2 and len(set(observers.values())) == 1   # one report, inlined once


def test_inlined_html_is_the_inliners_kept_for_the_last_few(ref):
    queue = ref.mail_queue
    htmls = [f'<style>.a{{color:#{i:03d}}}</style><p class="a">x{i}</p>' for i in range(queue_mod.INLINED + 5)]
    for html in htmls:
        assert queue.inlined(html) == inline_styles(html)
        assert queue.inlined(html) is queue.inlined(html)   # the second time: kept, not made again
    assert len(queue._inlined) == queue_mod.INLINED
    assert list(queue._inlined) == htmls[-queue_mod.INLINED:]   # the oldest let go
    assert queue.inlined(htmls[0]) == inline_styles(htmls[0])   # made again once let go
