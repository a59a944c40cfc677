"""Issue 32, item 11: what heads one turn's reports is capped — at most 10 chronicle
entries and approved letters, at most 40,000 characters together — so a GM (or a stolen
GM key) cannot make every report mail megabytes long (30 entries of 20,000 characters made
1.35 MB).  Through ``referee gm`` on the command line and a letter by mail; the GM is
told what the caps are and what to do, and nothing is added."""
from __future__ import annotations

import pytest
from test_chronicle_cli import letter, records, started  # noqa: F401  (the CLI campaign, a letter by mail)
from test_cli import campaign, outgoing  # noqa: F401  (campaign: the fixture under started)

from referee.app.cli import main
from referee.authority.talk.chronicle import MAX_CHRONICLE, MAX_TURN_CHARS, MAX_TURN_ENTRIES


@pytest.mark.sqlite_file
def test_issue32_item11_chronicle_entries_per_turn_are_capped(started, capsys):   # noqa: F811
    folder, key = started
    (folder / "long.md").write_text("word " * (MAX_CHRONICLE // 5), encoding="utf-8")
    for _ in range(MAX_TURN_CHARS // MAX_CHRONICLE):
        assert main(["gm", "cli-test", "chronicle", "file=long.md"]) == 0
    assert main(["gm", "cli-test", "chronicle", "text=One line more."]) == 1
    err = capsys.readouterr().err
    assert ("reports of turn 1 are headed by 2 entries of 39998 characters already; one turn takes at most "
            "10 entries of 40000 characters in all") in err and "publish it after the next report" in err, err
    assert len(records(folder).published("cli-test", 1)) == 2
    assert main(["gm", "cli-test", "force"]) == 0
    sizes = [len(m.as_bytes()) for m in outgoing(folder) if "Report" in (m["Subject"] or "")]
    # each carries the 40,000 characters twice (text and HTML) beside a board picture of about 100 kB:
    # bounded, where 30 entries of 20 kB made 1.35 MB mails before the cap
    assert sizes and max(sizes) < 220_000, sizes

    # turn 2: the count is capped too, and a letter the GM approves into a full turn stays held
    for n in range(MAX_TURN_ENTRIES):
        assert main(["gm", "cli-test", "chronicle", f"text=Note {n}."]) == 0
    capsys.readouterr()
    assert main(["gm", "cli-test", "chronicle", "text=Note eleven."]) == 1
    assert "headed by 10 entries" in capsys.readouterr().err
    letter(folder, key, "Gentlemen, one more word.")
    assert main(["poll", "--once"]) == 0
    (held,) = records(folder).held("cli-test")
    assert main(["gm", "cli-test", "approve", str(held["number"])]) == 1
    assert f"Letter {held['number']} (25 characters) stays held: approve it after the next report" in capsys.readouterr().err
    assert [e["number"] for e in records(folder).held("cli-test")] == [held["number"]]
    assert main(["gm", "cli-test", "force"]) == 0
    assert main(["gm", "cli-test", "approve", str(held["number"])]) == 0   # the next turn has room
