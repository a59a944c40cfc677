"""The recorded sample matches in turns/ (made by ``referee demo``): they
replay to every recorded state hash, and re-recording them gives the same
bytes — so a change that alters any outcome, report or mail shows up here
and as a diff in turns/.  To re-record after an intended change, run
``referee demo --out .`` in the repository root and review the diff."""
from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from referee.app.demo import run_demo
from referee.archive.record import replay
from referee.game_api import registry

SAMPLES = Path(__file__).resolve().parents[2] / "turns"


def test_every_installed_game_has_a_sample_match():
    recorded = {p.name for p in SAMPLES.iterdir() if p.is_dir()}
    assert {f"demo-{g}" for g in registry.names()} <= recorded


@pytest.mark.parametrize("game", registry.names())
def test_sample_match_replays_to_every_recorded_hash(game):
    report = replay(SAMPLES / f"demo-{game}")
    assert report.ok, report.summary()
    assert report.turns > 1


def _differences(a: Path, b: Path) -> list[str]:
    cmp = filecmp.dircmp(a, b)
    out = [f"only in {a.name}: {n}" for n in cmp.left_only] + [f"only in fresh: {n}" for n in cmp.right_only]
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    out += [str((a / n).relative_to(SAMPLES)) for n in mismatch + errors]
    for sub in cmp.common_dirs:
        out += _differences(a / sub, b / sub)
    return out


def test_re_recording_the_samples_gives_the_same_bytes(tmp_path):
    run_demo(tmp_path, seed="demo", quiet=True)
    diffs = _differences(SAMPLES, tmp_path / "turns")
    assert not diffs, f"{len(diffs)} files differ (re-record with `referee demo --out .`): {diffs[:10]}"
