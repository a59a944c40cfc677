"""The close is a part of its own: a worker built from only the parts closing
needs (no intake, replies, commands or outbox), on the same store and archive,
closes a turn exactly as the whole referee would."""
from __future__ import annotations

from referee_kit import SPEC, make_referee

from referee.authority.base import Lookups, aware
from referee.authority.gate.faults import Faults
from referee.authority.gate.notices import Notices
from referee.authority.queue import MailQueue
from referee.turns.closing import Closing
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


def test_a_closing_worker_built_from_its_own_parts_closes_the_turn(tmp_path, clock):
    whole = make_referee(tmp_path / "whole", clock)
    alone = make_referee(tmp_path / "alone", clock)
    for ref in (whole, alone):
        ref.create_match(SPEC, seed="s1")
    now = aware(clock)
    store, settings = alone.store, alone.settings
    lookups = Lookups(store, settings)
    queue = MailQueue(store, settings, now)
    faults = Faults(store, lookups, alone.renderer, queue, now)
    worker = Closing(store, alone.archive, alone.renderer, lookups, queue, faults,
                     Notices(store, alone.renderer, lookups, queue, now), now)
    assert worker.force("toy1") == whole.force("toy1") == "turn 1 closed"
    closed = [r.store.turn("toy1", 1)["result"]["hash"] for r in (whole, alone)]
    assert closed[0] == closed[1]
    assert store.current_turn("toy1")["number"] == 2
    assert len(store.outbox("toy1", status="queued")) == len(whole.store.outbox("toy1", status="queued"))
    for ref in (whole, alone):
        ref.store.close()
