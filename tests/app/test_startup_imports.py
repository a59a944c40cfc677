"""Issue 34, start-up: a cron command imports only what it uses.

Not a timing (bench/startup.py times them): each command runs in a fresh
interpreter on the embedded default (SQLite + Maildir) and the test reads which
modules it loaded.  ``status`` needs no templates, games, calendar, PostgreSQL or
IMAP client; ``poll --once`` on an empty mailbox and ``tick`` with nothing due
need neither PostgreSQL nor IMAP on a SQLite + Maildir configuration, nor any game.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN = """
import json, sys
from referee.app.cli import main
sys.argv[0] = "referee"
try:
    main(sys.argv[1:])
except SystemExit as e:
    if e.code not in (0, None):
        raise
json.dump(sorted(sys.modules), open("modules.json", "w"))
"""


def loaded(folder: Path, *args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", RUN, *args], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return set(json.loads((folder / "modules.json").read_text()))


def tops(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> Path:
    """The README's example match, created and its welcome mails sent: nothing is due for two days."""
    folder = tmp_path_factory.mktemp("startup")
    match = re.search(r"```yaml\n(id: .*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S).group(1)
    (folder / "match.yaml").write_text(match, encoding="utf-8")
    for args in (["init"], ["new", "match.yaml"], ["tick"]):
        loaded(folder, *args)
    return folder


def test_status_imports_no_templates_games_calendar_postgres_or_imap(league):
    modules = loaded(league, "status")
    assert not tops(modules) & {"jinja2", "referee_games", "icalendar", "psycopg", "imapclient"}
    assert not {m for m in modules if m.startswith(("referee.render.renderer", "referee.turns", "referee.outbox"))}


@pytest.mark.parametrize("args", [["poll", "--once"], ["tick"]], ids=["poll_once_empty", "tick_nothing_due"])
def test_quiet_cron_commands_import_no_postgres_or_imap(league, args):
    modules = loaded(league, *args)
    assert not tops(modules) & {"psycopg", "imapclient", "referee_games"}   # a game only where a turn is worked on
