"""A league whose deadlines fall together closes over several ticks with a budget,
and mail that comes in between the slices is answered before the league's reports."""
from __future__ import annotations

import re

from referee_kit import SPEC, inbound, text_of, to
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


def keys_of(msgs) -> dict[str, str]:
    found = {}
    for m in msgs:
        hit = re.search(r"Your key: (\S+)", text_of(m))
        if hit:
            found[m["To"]] = hit.group(1)
    return found


def test_a_budgeted_tick_closes_one_match_at_least_and_goes_on_where_it_stopped(ref, outbox, clock):
    for i in range(4):
        ref.create_match(dict(SPEC, id=f"toy{i}", observers=[]))
    clock.advance(hours=49)
    first = ref.tick(budget=0)
    assert first.closed == [("toy0", 1)] and first.more
    rest = []
    while True:
        report = ref.tick(budget=0)
        rest += report.closed
        if not report.more:
            break
    assert rest == [("toy1", 1), ("toy2", 1), ("toy3", 1)]
    assert ref.tick().closed == []   # a whole pass again: nothing is due


def test_an_answer_queued_between_slices_is_sent_before_the_reports(ref, outbox, clock):
    for i in range(3):
        ref.create_match(dict(SPEC, id=f"toy{i}", observers=[], players=[dict(p, email=p["email"].replace("@", f"{i}@"))
                                                           for p in SPEC["players"]]))
    keys = keys_of(outbox.flush())
    clock.advance(hours=49)
    assert ref.tick(budget=0).more                     # toy0 closed, its reports queued
    ref.handle(inbound("ann2@example.org", f"match: toy2\nplayer: ann\nkey: {keys['ann2@example.org']}\n"
                                           "command: status\n"))
    assert ref.send_pending(outbox.sink, limit=1).sent == 1   # one message goes first: the answer
    rows = ref.store.outbox()
    [sent] = [r for r in rows if r["status"] == "sent" and not r["dedupe"].startswith(("welcome", "gm_welcome"))]
    assert sent["recipient"] == "ann2@example.org" and not sent["dedupe"].startswith("report:")
    assert all(r["status"] == "queued" for r in rows if r["dedupe"].startswith("report:"))
