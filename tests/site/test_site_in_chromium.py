"""The sample matches' sites opened in a real headless chromium: every link
leads to a page that exists, the standings chart is drawn, every turn page
shows its board picture; a screenshot of each index is kept in tests/pictures/out/."""
from __future__ import annotations

import struct

import pytest
from browser import Browser
from seekit import FF, OUT, RS

from referee.app.cli import main


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


@pytest.fixture(scope="module", params=[FF, RS], ids=["founding_fathers", "ratsspiel"])
def site(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(request.param.name)
    assert main(["site", str(request.param), "--out", str(out)]) == 0
    return request.param, out


def test_the_index_lists_every_archived_turn_and_its_links_lead_to_pages(browser, site):
    sample, out = site
    browser.open((out / "index.html").as_uri())
    turns = sorted(p.name for p in sample.glob("t[0-9][0-9][0-9]"))
    links = browser.eval("[...document.querySelectorAll('#turns a')].map(a => a.href)")
    assert [link.rsplit("/", 1)[1] for link in links] == [f"{t}.html" for t in turns]
    every = browser.eval("[...document.querySelectorAll('a')].map(a => a.href)")
    for link in every:
        assert link.startswith("file://") and (out / link.split(out.as_uri() + "/", 1)[1]).is_file(), link


def test_the_standings_chart_is_drawn_with_a_line_per_player(browser, site):
    sample, out = site
    browser.open((out / "index.html").as_uri())
    lines = browser.eval("""[...document.querySelectorAll('#standings polyline.series')].map(p => {
        const box = p.getBBox(); return [p.dataset.player, box.width, p.points.numberOfItems]; })""")
    players = {p["id"] for p in __import__("yaml").safe_load((sample / "match.yaml").read_text())["players"]}
    turns = len(list(sample.glob("t[0-9][0-9][0-9]")))
    assert players <= {name for name, _, _ in lines}
    for name, width, points in lines:
        assert width > 300 and points == turns, name
    png = browser.screenshot(OUT / f"site-{sample.name}.png")
    assert struct.unpack(">II", png[16:24])[0] >= 1000


def test_every_turn_page_shows_its_picture_and_walks_to_the_next(browser, site):
    sample, out = site
    browser.open((out / "turns" / "t001.html").as_uri())
    seen = 0
    while True:
        state = browser.eval("""({img: document.querySelector('img.board').naturalWidth,
                                  report: document.querySelector('section.report').innerText.length,
                                  next: (document.querySelector('a[rel=next]') || {}).href || null})""")
        assert state["img"] >= 900 and state["report"] > 200
        seen += 1
        if state["next"] is None or seen >= 3:
            break
        browser.open(state["next"])
    last = sorted(p.name for p in sample.glob("t[0-9][0-9][0-9]"))[-1]
    browser.open((out / "turns" / f"{last}.html").as_uri())
    assert browser.eval("document.querySelector('a[rel=next]')") is None
    assert browser.eval("document.querySelector('img.board').naturalWidth") >= 900
    browser.screenshot(OUT / f"site-{sample.name}-{last}.png")
