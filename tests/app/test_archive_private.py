"""Issue 32, item 6: the archive keeps what a match page may show apart from what it may
not.  Private table talk, the writer of an unsigned message, a chronicle entry for one
seat, and the reports of seats and GM are the owner's alone (0600 files, 0700 folders)
whatever the umask; every file another account may read holds none of them.  Played
through the real commands (``referee new``, mails in the Maildir, ``poll --once``,
``gm chronicle``, ``gm force``), then ``referee replay`` and ``referee site``."""
from __future__ import annotations

import mailbox
import os
import stat
from email.message import EmailMessage

import pytest
import yaml
from test_cli import KEY, MATCH_FILE, campaign, outgoing, text_of  # noqa: F401  (the CLI tests' campaign)

from referee.app.cli import main
from referee.archive.record import is_private

SECRETS = ("Meet me at the docks.", "Only Jay dreams of this.")   # private talk, a chronicle for one seat
UNSIGNED = "Someone here is lying."                               # anonymous, to all


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def press(folder, who: str, key: str, n: int, **press) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{who}@example.org", "referee@localhost", "talk"
    msg["Message-ID"] = f"<press-{who}-{n}@example.org>"
    msg.set_content(yaml.safe_dump({"match": "cli-test", "player": who, "key": key, "press": press}))
    mailbox.Maildir(str(folder / "mail" / "in"), factory=None, create=False).add(msg.as_bytes())


@pytest.fixture
def played(campaign, capsys):   # noqa: F811
    """One turn with private, public and unsigned talk and a chronicle for one seat, closed
    under a umask that would make every file world-writable."""
    (campaign / "match.yaml").write_text(MATCH_FILE + "press: anonymous\n")
    old = os.umask(0)
    try:
        assert main(["new", "match.yaml"]) == 0
        keys = {m["To"].split("@")[0]: found.group(1)   # the welcomes (the rules mails carry no key)
                for m in outgoing(campaign) if m["To"] != "gm@example.org" and (found := KEY.search(text_of(m)))}
        press(campaign, "adams", keys["adams"], 1, to=["jay"], text=SECRETS[0])
        press(campaign, "king", keys["king"], 2, to="all", text=UNSIGNED, anonymous=True)
        press(campaign, "jay", keys["jay"], 3, to="all", text="Fair winds to all.")
        assert main(["poll", "--once"]) == 0
        assert main(["gm", "cli-test", "chronicle", "seats=jay", f"text={SECRETS[1]}"]) == 0
        assert main(["gm", "cli-test", "chronicle", "text=The winter is hard."]) == 0
        assert main(["gm", "cli-test", "force"]) == 0
    finally:
        os.umask(old)
    capsys.readouterr()
    return campaign


def test_issue32_item6_the_archive_shows_others_nothing_private_whatever_the_umask(played, capsys):
    root = played / "turns"
    shown, hidden = {}, {}
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if path.is_dir():
            assert mode(path) in (0o755, 0o700), (path, oct(mode(path)))
            assert (mode(path) == 0o700) == (parts[-1] in ("inbox", "private")), path
            continue
        assert mode(path) == (0o600 if is_private(parts) else 0o644), (path, oct(mode(path)))
        (hidden if is_private(parts) else shown)[path] = path.read_text(encoding="utf-8", errors="replace")
    # what another account can read: none of the secrets, no writer beside an unsigned message
    for path, text in shown.items():
        assert not any(s in text for s in SECRETS), path
    public_press = yaml.safe_load((root / "cli-test" / "t001" / "press.yaml").read_text())
    assert [(m["text"], m.get("from")) for m in public_press] == [(UNSIGNED, None), ("Fair winds to all.", "jay")]
    assert "Only Jay" not in (root / "cli-test" / "t001" / "chronicle.yaml").read_text()
    # the owner's record is whole: every message with its writer, every entry with its seats
    private = yaml.safe_load((root / "cli-test" / "t001" / "private" / "press.yaml").read_text())
    assert {(m["from"], m["text"]) for m in private} >= {("adams", SECRETS[0]), ("king", UNSIGNED)}
    assert SECRETS[1] in hidden[root / "cli-test" / "t001" / "reports" / "jay.en.txt"]
    assert SECRETS[1] in hidden[root / "cli-test" / "t001" / "reports" / "_gm.en.txt"]
    # replay and the match pages work from it, and the pages show only what was for all
    assert main(["replay", "cli-test"]) == 0
    assert main(["site", "cli-test", "--out", str(played / "site")]) == 0
    page = (played / "site" / "turns" / "t001.html").read_text()
    assert UNSIGNED in page and "Fair winds to all." in page and "The winter is hard." in page
    assert not any(s in page for s in SECRETS) and f"(unsigned):</b> {UNSIGNED}" in page


def test_issue32_item6_an_older_archive_still_replays_and_shows_no_private_talk(played, capsys):
    """An archive of an older release: talk and chronicle whole in the turn's folder, the
    inbox and reports open to all.  The pages still show only what was for all, and the
    next private write closes the folder it goes to."""
    turn = played / "turns" / "cli-test" / "t001"
    for name in ("press.yaml", "chronicle.yaml"):
        (turn / "private" / name).replace(turn / name)
    os.chmod(turn / "private", 0o755)
    os.chmod(turn / "inbox", 0o755)
    assert main(["replay", "cli-test"]) == 0
    assert main(["site", "cli-test", "--out", str(played / "site")]) == 0
    page = (played / "site" / "turns" / "t001.html").read_text()
    assert UNSIGNED in page and not any(s in page for s in SECRETS)
    # folders an older release left open to all are closed by the next private write into them
    later = played / "turns" / "cli-test" / "t002"
    for name in ("inbox", "private"):
        (later / name).mkdir(parents=True, mode=0o755)
        os.chmod(later / name, 0o755)
    key = KEY.search(text_of(next(m for m in outgoing(played) if m["To"] == "adams@example.org"))).group(1)
    press(played, "adams", key, 4, to=["king"], text="A second secret.")
    assert main(["poll", "--once"]) == 0
    assert mode(later / "inbox") == mode(later / "private") == 0o700
    assert mode(later / "private" / "press.yaml") == 0o600 and not (later / "press.yaml").exists()
