"""``store:`` in referee.yaml: a file, or a PostgreSQL address without a
password; the README's deployment section stays true."""
from __future__ import annotations

import configparser
import re
from pathlib import Path

import pytest
import yaml

from referee.app.config import ConfigError, load

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _load(tmp_path, store_line: str):
    (tmp_path / "referee.yaml").write_text(store_line + "\n", encoding="utf-8")
    return load(tmp_path / "referee.yaml")


def test_a_file_stays_a_path_beside_the_config_and_an_address_stays_text(tmp_path):
    assert _load(tmp_path, "store: data/r.sqlite").store == tmp_path / "data" / "r.sqlite"
    url = "postgresql://referee@db.example.org:5432/league"
    assert _load(tmp_path, f"store: {url}").store == url


@pytest.mark.parametrize("line, says", [
    ("store: postgresql://referee:hunter2@db.example.org/league", "no password in the address"),
    ("store: mysql://referee@db.example.org/league", "a file path, or a postgresql:// address"),
    ("store: postgresql://referee@db.example.org:port/league", "not a PostgreSQL address"),
    ("store: 'postgresql://'", "needs a host or a database name"),
])
def test_a_bad_store_is_refused_at_the_door(tmp_path, line, says):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, line)
    text = " ".join(e.value.problems)
    assert says in text and "hunter2" not in text


def test_the_readme_s_deployment_section_parses(tmp_path):
    section = README.split("## Several workers on PostgreSQL", 1)[1].split("\n## ", 1)[0]
    [store_yaml] = re.findall(r"```yaml\n(.*?)```", section, re.S)
    assert yaml.safe_load(store_yaml)["store"].startswith("postgresql://")
    assert _load(tmp_path, store_yaml.strip()).store.startswith("postgresql://")
    [unit] = re.findall(r"```ini\n(.*?)```", section, re.S)
    parsed = configparser.ConfigParser(interpolation=None)
    parsed.read_string(unit)
    assert parsed["Service"]["ExecStart"].endswith(" run") and parsed["Service"]["KillSignal"] == "SIGTERM"
    assert "referee@.service" in section and "REFEREE_STORE_PASSWORD" in section
