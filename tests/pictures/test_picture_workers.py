"""Pictures rendered by worker processes (``pictures.prerender``) are the very
bytes rendered here, and a worker that dies costs nothing but time: the
sender renders the picture itself."""
from __future__ import annotations

import os
import signal

import pytest
from seekit import FF, RS, views

from referee.game_api import registry
from referee.pictures import board as pictures


@pytest.fixture
def svgs():
    pictures.shutdown()   # no picture of an earlier test in this process kept: each is rendered here anew
    out = []
    for sample, numbers in ((FF, (1, 30)), (RS, (1, 4))):
        rules = registry.get(sample.name.removeprefix("demo-"))
        out += [pictures.svg_of(rules, view, "en") for view in views(sample, numbers).values()]
    assert len(set(out)) == 4
    yield out
    pictures.shutdown()


def test_pictures_from_the_workers_are_the_bytes_rendered_here(svgs):
    assert pictures.prerender(svgs) == 4
    assert pictures.prerender(svgs) == 0      # under way or ready: not again
    for svg in svgs:
        assert pictures.cached_png(svg) == pictures.png_of(svg)


def test_a_killed_worker_costs_no_picture(svgs):
    pictures.warm()
    pool = pictures._executor()
    assert pool is not None
    pid = pool.submit(os.getpid).result()   # one worker (public API); one killed breaks the whole pool
    pictures.prerender(svgs)
    os.kill(pid, signal.SIGKILL)           # the worker dies while it renders
    assert [pictures.cached_png(svg) for svg in svgs] == [pictures.png_of(svg) for svg in svgs]
    # and the next close gets fresh workers
    pictures.prerender([svgs[0] + " "])
    assert pictures.cached_png(svgs[0] + " ") == pictures.png_of(svgs[0] + " ")


def test_without_workers_the_sender_renders(svgs, monkeypatch):
    pictures.shutdown()
    monkeypatch.setattr(pictures, "WORKERS", 0)
    assert pictures.prerender(svgs) == 0
    assert pictures.cached_png(svgs[1]) == pictures.png_of(svgs[1])
