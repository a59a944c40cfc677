"""The GM's fault mail has words for every stage the referee guards: a stage the
template did not know (``tick``) made the mail itself fail to render, so the GM
heard nothing of the fault it was meant to report."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.render.renderer import Renderer

SOURCE = Path(__file__).resolve().parents[3] / "referee"


def guarded_stages() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SOURCE.rglob("*.py"))
    return set(re.findall(r"""(?:guarded|note_fault)\(\s*["']([a-z_]+)["']""", text))


def test_the_source_guards_the_stages_this_test_expects():
    assert {"close", "archive", "remind", "intake", "outbox", "tick"} <= guarded_stages()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_guarded_stage_has_its_own_fault_mail(lang):
    renderer, seen = Renderer(), {}
    for stage in sorted(guarded_stages()):
        subject, text = renderer.mail("fault", lang, match={"id": "m1"}, stage=stage, turn=3, error="boom")
        assert subject.startswith("[m1] ") and len(subject) > len("[m1] ") + 10, stage
        assert "boom" in text and "referee status" in text, stage
        seen[stage] = subject
    assert len(set(seen.values())) == len(seen)   # each stage says what it is, not a shared fallback
