"""The wheel holds what the referee needs and nothing that collides: the built-in
games install as ``referee_games`` (never a top-level ``games``), every package
folder is listed in pyproject.toml, and the templates and game data ship inside."""
from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _listed() -> set[str]:
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])


def test_every_package_folder_is_listed_in_pyproject():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "referee").rglob("__init__.py")}
    found |= {"referee_games" + "".join("." + x for x in p.parent.relative_to(ROOT / "games").parts)
              for p in (ROOT / "games").rglob("__init__.py")}
    assert found - _listed() == set(), "add these to [tool.setuptools] packages"


def test_the_wheel_installs_the_games_under_a_name_of_their_own(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True, timeout=300)
    wheel = next(tmp_path.glob("referee-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert "games" not in tops and "referee_games" in tops
    assert "referee_games/founding_fathers/default_edition.yaml" in names
    assert "referee/templates/mail/welcome.de.txt.j2" in names
    assert "referee/templates/founding_fathers/report.en.html.j2" in names
    for game in ("founding_fathers", "nations_dice", "perricumer_ratsspiel", "revolution_1848"):   # issue 33
        assert {f"referee_games/{game}/RULES.en.md", f"referee_games/{game}/RULES.de.md"} <= set(names), game
    assert "referee/site/templates/rules.html.j2" in names and "referee/templates/mail/rules.de.txt.j2" in names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    points = zipfile.ZipFile(wheel).read(entry).decode()
    assert "founding_fathers = referee_games.founding_fathers:RULES" in points
