"""A close pass's PNGs are held until their mails take them (issue 38): no caller raises a
cap for a big pass, and memory stays bounded (``KEEP`` held, ``RECENT`` taken)."""
from __future__ import annotations

import pytest

from referee.pictures import board as pictures


def svg(i: int) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><!-- {i} --></svg>'


@pytest.fixture(autouse=True)
def nothing_kept(monkeypatch):
    monkeypatch.setattr(pictures, "WORKERS", 0)
    pictures.shutdown()
    yield
    pictures.shutdown()


def test_a_pass_with_more_pictures_than_the_recent_cap_has_none_evicted_before_its_mail():
    n = 600   # more than the old cap (512 pictures in all): a pass's first ones went before their mails
    assert pictures.RECENT < n <= pictures.KEEP
    for i in range(n):   # what close workers hand over (pictures.keep), before any mail is sent
        pictures.keep(svg(i), b"held %d" % i)
    # sent in the order they were queued: the first handed over, the first taken
    assert [pictures.cached_png(svg(i)) for i in range(n)] == [b"held %d" % i for i in range(n)]


def test_held_and_taken_pictures_stay_bounded(monkeypatch):
    monkeypatch.setattr(pictures, "KEEP", 5)
    monkeypatch.setattr(pictures, "RECENT", 3)
    for i in range(20):
        pictures.keep(svg(i), b"p%d" % i)
    kept = [i for i in range(20) if pictures.has(svg(i))]
    assert len(kept) <= 5 + 3 and kept[-5:] == list(range(15, 20))   # the latest five still held
    for i in range(15, 20):   # taken: each moves to the recent ones, the least recent let go
        assert pictures.cached_png(svg(i)) == b"p%d" % i
    assert [i for i in range(20) if pictures.has(svg(i))] == [17, 18, 19]
    # a picture let go is rendered again when a mail asks for it
    assert pictures.cached_png(svg(0)) == pictures.png_of(svg(0)) != b"p0"
