"""What a close asks of the store (issue 8): a statement is a round trip on
PostgreSQL, so the close reads what every report shares once for the close, not
once per reader, and queues its reports in one statement."""
from __future__ import annotations

import collections
import re

from referee_kit import inbound

from referee.store.talk import TalkRecords
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


def counted(ref, monkeypatch) -> collections.Counter:
    """Every statement the close runs (from the tick's start), by its text's first 60 characters."""
    seen: collections.Counter = collections.Counter()
    real = ref.store._db.execute

    def execute(sql, args=()):
        seen[re.sub(r"\s+", " ", sql)[:60]] += 1
        return real(sql, args)
    monkeypatch.setattr(ref.store._db, "execute", execute)
    return seen


def test_a_close_reads_the_seats_and_talk_once_and_queues_its_reports_in_one_statement(ref, outbox, game, clock, monkeypatch):
    for who in ("ann", "bob", "cyd"):
        ref.handle(inbound(f"{who}@example.org", f"match: toy1\nplayer: {who}\nkey: {game[who]}\nturn: 1\norders:\n  bid: 2\n"))
    clock.advance(hours=49)
    seen = counted(ref, monkeypatch)
    assert ref.tick().closed == [("toy1", 1)]
    names = sum(n for sql, n in seen.items() if sql.startswith("SELECT id, name FROM players"))
    assert names <= 1            # the close's reports share the seats' names (5 reports: 3 players, public, GM)
    assert not [sql for sql in seen if "status='published'" in sql]   # no chronicle asked for per reader
    assert sum(n for sql, n in seen.items() if sql.startswith("INSERT INTO outbox")) == 1
    assert len([r for r in ref.store.outbox("toy1") if r["dedupe"].startswith("report:")]) == 5
    assert sum(seen.values()) <= 52, seen   # 49 at this writing; 80 before it (issue 8)


def test_the_chronicle_heads_every_report_when_the_turn_has_one(ref, outbox, game, clock):
    """The shortcut holds only when the close read no entry for the turn: with one, every reader's heading has it."""
    TalkRecords(ref.store).add_entry("toy1", "news", "@gm", "published", 1, None, "News", "The harbour froze.", clock())
    assert ref.force("toy1") == "turn 1 closed"
    folder = ref.archive.turn_dir("toy1", 1) / "reports"
    for name in ("ann.en.txt", "_public.en.txt", "_gm.en.txt"):
        assert "The harbour froze." in (folder / name).read_text(encoding="utf-8"), name
