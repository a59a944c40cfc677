"""Schema versions: a store made by the previous release (schema 1) is refused
until migrated, then carries on; a new store and a migrated one end alike;
a store newer than the referee is refused."""
from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import toygame
from storefix import backend, location, store_at  # noqa: F401 (fixtures)

from referee.app.cli import main
from referee.app.referee import Referee
from referee.archive.record import replay
from referee.authority.base import Settings
from referee.game_api import registry
from referee.render.renderer import Renderer
from referee.store import SchemaMismatch, open_store
from referee.store.migrations import MIGRATIONS, version_of
from referee.store.schema import SCHEMA_VERSION

V1 = Path(__file__).parent / "data" / "v1"   # written by make_v1_store.py with the release's code


@pytest.fixture
def v1(tmp_path) -> Path:
    shutil.copytree(V1, tmp_path / "v1")
    return tmp_path / "v1"


def _config(folder: Path, store) -> Path:
    (folder / "referee.yaml").write_text(f"store: {store}\narchive: turns\n", encoding="utf-8")
    return folder / "referee.yaml"


def _layout(store) -> dict[str, list[str]]:
    return {t: sorted(store._db.columns(t)) for t in store._db.tables()}


def test_the_previous_release_s_store_is_refused_then_migrated_and_plays_on(v1, capsys):
    with pytest.raises(SchemaMismatch, match="referee migrate"):
        open_store(v1 / "referee.sqlite")
    assert main(["--config", str(_config(v1, "referee.sqlite")), "status"]) == 1
    assert "referee migrate" in capsys.readouterr().err
    assert main(["--config", str(v1 / "referee.yaml"), "migrate"]) == 0
    assert f"migrated to schema version {SCHEMA_VERSION}" in capsys.readouterr().out
    assert main(["--config", str(v1 / "referee.yaml"), "migrate"]) == 0
    assert "up to date" in capsys.readouterr().out

    registry.register(toygame.RULES)
    try:
        store = open_store(v1 / "referee.sqlite")
        # the seat order of schema 1 (SQLite's rowid) is kept, the replaced seat too
        assert [p["id"] for p in store.players("toy1")] == ["cyd", "ann", "bob"]
        assert store.player("toy1", "cyd")["email"] == "dee@example.org"
        assert store.submissions("toy1", 2)["ann"]["orders"] == {"bid": 1}
        deadline = datetime.fromisoformat(store.current_turn("toy1")["deadline"])
        now = [deadline + timedelta(hours=1)]
        ref = Referee(store, v1 / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]), lambda: now[0],
                      Settings(address="referee@example.org", rate_limit_per_hour=20))
        assert ref.tick().closed == [("toy1", 2)]
        assert ref.store.turn("toy1", 2)["result"]["orders"]["ann"]["orders"] == {"bid": 1}
        assert replay(v1 / "turns" / "toy1").ok and replay(v1 / "turns" / "toy1").turns == 2
        store.close()
    finally:
        registry.unregister(toygame.RULES.name)


def _v1_schema() -> list[str]:
    db = sqlite3.connect(V1 / "referee.sqlite")
    try:
        return [sql for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]
    finally:
        db.close()


def test_a_new_store_and_a_migrated_one_have_the_same_tables(backend, location, tmp_path, postgres):
    """Both roads to the newest schema meet: what a branch appends to SCHEMA needs its migration."""
    if backend == "sqlite":
        shutil.copy(V1 / "referee.sqlite", location)
    else:   # schema 1 as the release wrote it, on PostgreSQL
        old = open_store(postgres.new_schema(), migrate=False)
        with old.transaction():
            for t in old._db.tables():
                old._db.execute(f"DROP TABLE {t}")
            for sql in _v1_schema():
                old._db.execute(old._db.ddl(sql))
            old._db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', '1')")
        location = old.location
        old.close()
    migrated = open_store(location, migrate=True)
    assert migrated.migrated == [m.version for m in MIGRATIONS] and version_of(migrated) == SCHEMA_VERSION
    fresh = open_store(tmp_path / "fresh.sqlite" if backend == "sqlite" else postgres.new_schema())
    try:
        assert _layout(migrated) == _layout(fresh)
    finally:
        migrated.close()
        fresh.close()


def test_a_store_newer_than_the_referee_is_refused(store_at, location, tmp_path, capsys):
    store = store_at()
    store._exec("UPDATE meta SET value='99' WHERE key='schema_version'")
    with pytest.raises(SchemaMismatch, match="newer"):
        store_at()
    with pytest.raises(SchemaMismatch, match="newer"):
        store_at(migrate=True)   # migrating never goes backwards
    assert main(["--config", str(_config(tmp_path, location)), "run"]) == 1
    assert "refusing to start" in capsys.readouterr().err
