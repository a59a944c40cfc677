"""The referee's report wrapper (templates/mail/report.*, Renderer.report): the standings table,
the same for every reader of a close, is rendered once a close; the chronicle and table talk
only when there are some; the order form found in the game's body only when all of it is there."""
from __future__ import annotations

import pytest

from referee.render.renderer import Renderer, _shown_in
from referee.render.shared import PartCache, one_report


def ctx(viewer: str, standings: list, **more) -> dict:
    return {"match": {"id": "m1", "title": "Test"}, "turn": 3, "viewer": viewer, "outcome": None,
            "missing": [], "players": {"ana": {"name": "Ana"}, "bo": {"name": "Bo"}}, "picture": None,
            "next": {"turn": 4, "deadline_local": "Mo 12:00", "deadline_utc": "2026-01-05 11:00",
                     "awaiting": {"ana": "orders"}},
            "order_form": "", "standings": standings, "early_close": True, "my_defaults": "", **more}


def table(score: float) -> list:
    return [{"label": "Score", "rows": [{"name": "Ana", "value": score, "change": 1},
                                        {"name": "Bo", "value": 3, "change": None}]}]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_reader_of_a_close_gets_the_standings_rendered_once_and_each_their_own_text(lang):
    shared, alone = Renderer(), Renderer()
    for env in (alone.mail_env, alone.html_env):
        env.shared_parts = PartCache(entries=0)
    same = table(5)
    with one_report():   # as a close renders its reports: the readers are given the one table
        got = [shared.report(lang, ctx(v, same), "body", None) for v in ("ana", "bo", None)]
    assert shared.mail_env.shared_parts.misses == 1 and shared.html_env.shared_parts.misses == 1
    assert got == [alone.report(lang, ctx(v, table(5)), "body", None) for v in ("ana", "bo", None)]
    assert "Ana 5 (+1), Bo 3 (new)" in got[0][1] and "Ana 5 (+1)" not in got[0][1].split("Ana 5 (+1)", 1)[1]
    other = shared.report(lang, ctx("ana", table(5.5)), "body", None)   # another close's values: its own table
    assert "Ana 5.5 (+1)" in other[1] and ">5.5<" in other[2] and ">5<" not in other[2]
    assert "Ana 5 (" not in other[1]
    assert shared.report(lang, ctx("ana", []), "body", None)[1].count("(+1)") == 0


def test_the_chronicle_shows_only_when_there_is_some():
    r = Renderer()
    plain = r.report("en", ctx("ana", []), "body", None)[1]
    told = r.report("en", ctx("ana", [], chronicle=[{"kind": "chronicle", "title": "Rain", "text": "It rained."}],
                              table_talk=[{"sender": "Bo", "text": "hello"}]), "body", None)[1]
    assert "-" * 70 not in plain and "The chronicle: Rain\nIt rained." in told
    assert "Table talk to everyone during this turn:\n  Bo: hello" in told and "-" * 70 in told
    assert told.endswith(plain.split("\n\n", 1)[1])   # the rest as without


def test_the_order_form_is_in_the_body_only_when_every_line_with_text_is():
    form = "orders:\n  - move: a\n\n   \n  - move: b\n"
    assert _shown_in(form, "x\norders:\n- move: a\n- move: b\n")
    assert not _shown_in(form, "orders:\n- move: a\n")           # a line missing
    assert not _shown_in("", "anything") and not _shown_in(" \n\t\n", "anything")   # no line with text
    assert _shown_in("a\r\nb\x0bc", "a b c") and not _shown_in("a\u2028d", "a b c")   # every line break Python knows
    r = Renderer()
    owed = ctx("ana", [], order_form=form)
    assert "To answer, put these lines" in r.report("en", owed, "body\n" + form, None)[1]
    assert "Your orders for turn 4" in r.report("en", owed, "body", None)[1]
