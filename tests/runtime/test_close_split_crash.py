"""Crash safety of the split close (issue 8), with real process kills: a child
process runs one service cycle and dies (exit 137, no cleanup) at each point of
the close — worked out, its reports staged beside the archive, moved into place,
everything written, committed, the turn's record written — and a restart
finishes it.  The archive then holds the very bytes of a close that never
crashed, nothing staged is left behind, and every report went out once."""
from __future__ import annotations

import filecmp
import mailbox
import re
import shutil
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from referee_kit import SPEC, clock, game, make_referee, outbox, raw_mail, ref, text_of, toy_registered  # noqa: F401  (the authority's fixtures)
from test_authority_crash import run

from referee.archive.record import replay
from referee.mail.sink import MaildirSink

POINTS = ["close.resolved", "close.staged", "close.placed", "close.before_commit", "close.committed",
          "archive.written"]


def sent(root: Path) -> list:
    box = mailbox.Maildir(str(root / "out"), create=False)
    return [message_from_bytes(m.as_bytes(), policy=policy.default) for m in box]


def world(root: Path, clock) -> None:
    """A match (fixed seed) whose three players have dropped their orders into the inbox."""
    root.mkdir(parents=True)
    (root / "clock").write_text(clock().isoformat())
    ref = make_referee(root, clock)
    ref.create_match(dict(SPEC, options={"rounds": 2}), seed="crash-split")
    ref.send_pending(MaildirSink(root / "out"))
    keys = {m["To"].split("@")[0]: re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m)).group(1)
            for m in sent(root) if m["To"].split("@")[0] in ("ann", "bob", "cyd")}
    ref.store.close()
    inbox = mailbox.Maildir(str(root / "in"), create=True)
    for p, bid in (("ann", 2), ("bob", 3), ("cyd", 4)):
        inbox.add(raw_mail(f"{p}@example.org", f"match: toy1\nplayer: {p}\nkey: {keys[p]}\nturn: 1\norders:\n  bid: {bid}\n"))


@pytest.fixture
def reference(tmp_path, clock):
    """The same match closed by a cycle that never crashed."""
    root = tmp_path / "reference"
    world(root, clock)
    assert run(root) == 0
    return root


def same_files(a: Path, b: Path) -> list[str]:
    """Files that differ or exist on one side only, below two folders (recursively)."""
    cmp, out = filecmp.dircmp(a, b), []

    def walk(c, at: str) -> None:
        out.extend(f"{at}{n}" for n in c.left_only + c.right_only)
        _, mismatch, errors = filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)
        out.extend(f"{at}{n}" for n in mismatch + errors)
        for name, sub in c.subdirs.items():
            walk(sub, f"{at}{name}/")
    walk(cmp, "")
    return out


@pytest.mark.parametrize("point", POINTS)
def test_a_kill_at_each_point_of_the_split_close_is_finished_with_the_same_bytes(reference, tmp_path, clock, point):
    root = tmp_path / "w"
    world(root, clock)
    assert run(root, point) == 137
    assert run(root) == 0
    assert run(root) == 0
    turn_dir, reference_dir = root / "turns" / "toy1" / "t001", reference / "turns" / "toy1" / "t001"
    # the turn's record and every report: the bytes of the close that never crashed (the
    # inbox holds the order mails, whose keys differ between the two worlds)
    shutil.rmtree(turn_dir / "inbox")
    shutil.rmtree(tmp_path / "ref-t001", ignore_errors=True)
    shutil.copytree(reference_dir, tmp_path / "ref-t001", ignore=shutil.ignore_patterns("inbox"))
    assert same_files(turn_dir, tmp_path / "ref-t001") == []
    assert not [f.name for f in (turn_dir / "reports").iterdir() if f.name.startswith(".")]   # nothing staged left
    ref = make_referee(root, lambda: None)
    try:
        assert [(t["status"], t["rev"]) for t in ref.store.turns("toy1")] == [("resolved", 0), ("open", 0)]
        assert ref.store.take_unarchived() == [] and ref.store.outbox(status="queued") == []
        for who, m in ref.store.turn("toy1", 1)["result"]["mails"].items():
            assert set(m) <= {"lang", "subject", "picture"}, who   # no report body in the store
    finally:
        ref.store.close()
    assert replay(root / "turns" / "toy1").turns == 1
    reports = [m for m in sent(root) if "Report, turn 1" in m["Subject"] or "Bericht, Zug 1" in m["Subject"]]
    assert len(reports) == len({m["Message-ID"] for m in reports}) == 5   # 3 players, GM, observer: once each
    by_reader = {m["To"]: m.get_body(("plain",)).get_payload(decode=True) for m in reports}
    for m in (m for m in sent(reference) if "Report, turn 1" in m["Subject"] or "Bericht, Zug 1" in m["Subject"]):
        assert by_reader[m["To"]] == m.get_body(("plain",)).get_payload(decode=True), m["To"]
