"""Issue 38, weight: ``referee demo`` (every installed game) writes at most 50 MB on disk.

The bound is checked part by part so a failure says which part grew: the archive (turns/,
the sample matches' reports and mails), the stores, and the mails the referee sent, of
which the demo keeps the first turn's and the last turns' (``demo.KEEP_TURNS``)."""
from __future__ import annotations

import email
import mailbox
from email import policy
from pathlib import Path

import pytest

from referee.app import demo
from referee.game_api import registry

pytestmark = pytest.mark.sqlite_file   # the demo's own SQLite files are what is weighed
MB = 1 << 20


def _on_disk(folder: Path) -> int:
    """Bytes the folder takes on disk, folders' own blocks included (as ``du``)."""
    total = folder.lstat().st_blocks * 512
    for path in folder.rglob("*"):
        total += path.lstat().st_blocks * 512
    return total


def test_issue38_the_demo_writes_at_most_50_mb_and_keeps_first_and_last_mails(tmp_path):
    assert demo.run_demo(tmp_path, seed="demo", quiet=True) == 0
    parts = {"turns": _on_disk(tmp_path / "turns")}
    for game in registry.names():
        work = tmp_path / "demo" / game
        parts[f"{game}/mail/out"] = _on_disk(work / "mail" / "out")
        parts[f"{game}/mail/in"] = _on_disk(work / "mail" / "in")
        parts[f"{game}/store"] = sum(_on_disk(p) for p in work.glob("referee.sqlite*"))
    figures = ", ".join(f"{k} {v / MB:.1f} MB" for k, v in sorted(parts.items()))
    total = _on_disk(tmp_path)
    assert total <= 50 * MB, f"the demo wrote {total / MB:.1f} MB: {figures}"
    # what is not the archive is this side's: the mails kept and the stores (turns/ is the samples')
    assert total - parts["turns"] <= 25 * MB, figures
    assert not any(p.name == "backups" for p in tmp_path.rglob("backups")), "the demo takes no snapshots"
    box = mailbox.Maildir(str(tmp_path / "demo" / "founding_fathers" / "mail" / "out"), factory=None, create=False)
    subjects = {email.message_from_bytes(box.get_bytes(k), policy=policy.default)["Subject"] for k in box.keys()}
    last = max(int(p.name[1:]) for p in (tmp_path / "turns" / "demo-founding_fathers").glob("t[0-9]*"))
    assert {"[demo-founding_fathers] Welcome to Founding Fathers", "[demo-founding_fathers] Report, turn 1",
            f"[demo-founding_fathers] Final report, turn {last}"} <= subjects, sorted(subjects)
    assert not any(f"turn {n}" in s for s in subjects for n in (2, 40)), "a middle turn's mails were kept"
