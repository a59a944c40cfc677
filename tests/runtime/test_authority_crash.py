"""Crash safety with real process kills: a child process runs one service cycle
and dies (exit 137, no cleanup) at a named point; a restart repairs everything.

After every scenario: each order stored once and answered once, the turn
resolved once, each report sent once.  The one window no store can close
(after the SMTP server took a message, before the commit that says so) may
send a message again, but as the very same message (same Message-ID).
"""
from __future__ import annotations

import mailbox
import os
import re
import subprocess
import sys
from collections import Counter
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from referee_kit import SPEC, clock, game, make_referee, outbox, raw_mail, ref, text_of, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive.record import replay
from referee.mail.sink import MaildirSink

DRIVER = Path(__file__).resolve().parents[1] / "kits" / "crashdriver.py"


def run(root: Path, crash: str | None = None, sink: str | None = None) -> int:
    env = dict(os.environ)
    env.pop("REFEREE_CRASH_AT", None)
    env.pop("REFEREE_TEST_SINK", None)
    if crash:
        env["REFEREE_CRASH_AT"] = crash
    if sink:
        env["REFEREE_TEST_SINK"] = sink
    return subprocess.run([sys.executable, str(DRIVER), str(root)], env=env, timeout=120,
                          capture_output=True).returncode


def sent(root: Path) -> list:
    box = mailbox.Maildir(str(root / "out"), create=False)
    return [message_from_bytes(m.as_bytes(), policy=policy.default) for m in box]


@pytest.fixture
def world(tmp_path, clock):
    """A match whose three players have dropped their orders (one of them twice) into the inbox."""
    (tmp_path / "clock").write_text(clock().isoformat())
    ref = make_referee(tmp_path, clock)
    ref.create_match(dict(SPEC, options={"rounds": 2}))
    ref.send_pending(MaildirSink(tmp_path / "out"))
    keys = {m["To"].split("@")[0]: re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m)).group(1)
            for m in sent(tmp_path) if m["To"].split("@")[0] in ("ann", "bob", "cyd")}   # not the GM's or the observer's welcome
    ref.store.close()
    inbox = mailbox.Maildir(str(tmp_path / "in"), create=True)
    order_ids = []
    for p, bid in (("ann", 2), ("bob", 3), ("cyd", 4)):
        raw = raw_mail(f"{p}@example.org", f"match: toy1\nplayer: {p}\nkey: {keys[p]}\nturn: 1\norders:\n  bid: {bid}\n")
        inbox.add(raw)
        if p == "bob":
            inbox.add(raw)  # the same mail delivered twice
        order_ids.append(message_from_bytes(raw)["Message-ID"])
    return tmp_path, order_ids


def check(root: Path, order_ids: list[str], exact: bool) -> None:
    msgs = sent(root)
    replies = Counter(m["In-Reply-To"] for m in msgs if m["In-Reply-To"])
    distinct_replies = {(m["In-Reply-To"], m["Message-ID"]) for m in msgs if m["In-Reply-To"]}
    assert sorted(r for r, _ in distinct_replies) == sorted(order_ids)       # one reply per order mail
    reports = [m for m in msgs if "Report, turn 1" in m["Subject"] or "Bericht, Zug 1" in m["Subject"]]
    assert len({m["Message-ID"] for m in reports}) == 5                        # 3 players, GM, observer
    if exact:
        assert set(replies.values()) == {1} and len(reports) == 5
    ref = make_referee(root, lambda: None)
    assert len(ref.store.submissions("toy1", 1)) == 3
    assert [t["status"] for t in ref.store.turns("toy1")] == ["resolved", "open"]
    assert ref.store.turn("toy1", 1)["result"]["missing"] == []
    assert ref.store.take_unarchived() == [] and ref.store.outbox(status="queued") == []
    assert replay(root / "turns" / "toy1").turns == 1
    assert not list((root / "in" / "new").iterdir()) and not list((root / "in" / "cur").iterdir())


@pytest.mark.parametrize("point", [
    "intake.before_commit@2",   # between fetch and commit, second mail of the batch
    "intake.committed@2",       # committed, not yet moved out of the inbox
    "close.resolved",           # resolved in memory, nothing persisted
    "close.before_commit",      # everything written, transaction not committed
    "close.committed",          # committed, archive not yet written, nothing sent
    "archive.written",          # archive written, flag not set
    "outbox.before_send@4",     # in the middle of the outbox batch
])
def test_a_kill_at_any_step_is_repaired_on_restart(world, point):
    root, order_ids = world
    assert run(root, point) == 137
    assert run(root) == 0
    assert run(root) == 0
    check(root, order_ids, exact=True)


def test_a_kill_after_the_server_took_a_message_resends_the_very_same_message(world):
    """Issue 32 item 12, over a sink that keeps every delivery (an SMTP server): the one window
    (the message out, its record not yet committed) sends it again, byte for byte the same
    message, so a mail client folds the two by their Message-ID."""
    root, order_ids = world
    assert run(root, "outbox.after_send@2", sink="every") == 137
    assert run(root, sink="every") == 0
    check(root, order_ids, exact=False)
    box = mailbox.Maildir(str(root / "out"), factory=None, create=False)
    copies: dict[str, list[bytes]] = {}
    for raw in (box.get_bytes(key) for key in box.keys()):
        copies.setdefault(message_from_bytes(raw, policy=policy.default)["Message-ID"], []).append(raw)
    twice = [raws for raws in copies.values() if len(raws) > 1]
    assert len(twice) == 1 and len(twice[0]) == 2
    assert twice[0][0] == twice[0][1]   # the very same bytes: Date, boundaries and Message-ID too


def test_a_kill_after_the_maildir_took_a_message_leaves_it_there_once(world):
    """Issue 32 item 12: the Maildir sink is idempotent by Message-ID, so the repeat of that
    window writes nothing: every mail is in the folder once."""
    root, order_ids = world
    assert run(root, "outbox.after_send@2") == 137
    assert run(root) == 0
    check(root, order_ids, exact=True)
    assert set(Counter(m["Message-ID"] for m in sent(root)).values()) == {1}
