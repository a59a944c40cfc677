"""Issue 38: benches rot unless they run.  Every ``bench/*.py`` runs at a tiny size
(``--smoke``: a few seconds, exit 0, non-zero when the bench is broken); this checks that
it still runs, never how fast (figures come from the full benches, median of 3)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHES = sorted(p.name for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_"))
TIMEOUT = 120   # seconds a smoke run may take; a bench needing more is not smoke


def test_the_bench_folder_holds_the_benches():
    assert len(BENCHES) >= 20, BENCHES


@pytest.mark.parametrize("bench", BENCHES)
def test_every_bench_runs_its_smoke_size(bench, tmp_path):
    source = (ROOT / "bench" / bench).read_text(encoding="utf-8")
    if "--smoke" not in source:
        pytest.fail(f"{bench} takes no --smoke: every bench must (tests/bench/test_bench_smoke.py)")
    try:
        run = subprocess.run([sys.executable, str(ROOT / "bench" / bench), "--smoke"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{bench} --smoke still ran after {TIMEOUT} s: {str(e.stdout or '')[-1500:]}")
    assert run.returncode == 0, f"{bench} --smoke exited {run.returncode}:\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}"
