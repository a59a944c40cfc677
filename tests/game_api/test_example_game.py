"""The example game of docs/WRITING-A-GAME.md (examples/rps) is a package of its
own: built and installed with pip like any third-party game, found through its
entry point, its report templates found inside its package, its own tests (the
referee's conformance checks among them) passing, and a whole match played by
mail on the embedded default and replayed from its archive."""
from __future__ import annotations

import mailbox
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rps"
REFEREE = [sys.executable, "-c", "import sys; from referee.app.cli import main; sys.exit(main())"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """The example installed with pip into a folder of its own, and an environment that sees it."""
    site = tmp_path_factory.mktemp("rps") / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                    "--target", str(site), str(EXAMPLE)], check=True, capture_output=True, timeout=300)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])]))
    return env


def run(args, env, cwd, timeout=300):
    return subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_the_installed_example_is_found_through_its_entry_point(installed, tmp_path):
    out = run(REFEREE + ["games"], installed, tmp_path)
    assert out.returncode == 0, out.stderr
    assert "rock_paper_scissors" in out.stdout


def test_the_examples_own_tests_pass_with_the_conformance_checks(installed):
    out = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], installed, EXAMPLE)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "3 passed" in out.stdout


def test_a_whole_match_of_the_example_by_mail_and_replayed(installed, tmp_path):
    out = run(REFEREE + ["demo", "--game", "rock_paper_scissors"], installed, tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    archive = tmp_path / "referee-demo" / "turns" / "demo-rock_paper_scissors"
    assert (archive / "t001").is_dir()
    replay = run(REFEREE + ["replay", str(archive)], installed, tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    sent = [m for m in mailbox.Maildir(str(tmp_path / "referee-demo" / "demo" / "rock_paper_scissors" / "mail" / "out"),
                                       factory=None, create=False)]
    # the text part of each mail (a report also has HTML, a picture and a calendar part)
    bodies = [next(p for p in m.walk() if p.get_content_type() == "text/plain").get_payload(decode=True)
              for m in sent]
    # the reports were rendered from the templates inside the example's own package
    assert any(b and b"ROCK, PAPER, SCISSORS" in b and b"The game is over" in b for b in bodies)
