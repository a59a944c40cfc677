"""Issue 32, item 11: ``referee site`` (and ``referee replay``) read the archive's YAML
through the intake's capped loader: an alias bomb, a file of a million values, anchors in
the table talk, a cut turn.json or an oversized file each end in one plain line naming
the file and what is wrong with it — never "a fault of the referee", never minutes or
hundreds of MB spent on it."""
from __future__ import annotations

import shutil

import pytest
from seekit import RS

from referee.app.cli import main

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))


def _prepend(path, text):
    path.write_text(text + path.read_text(encoding="utf-8"), encoding="utf-8")


@pytest.mark.parametrize("damage, said", [
    (lambda m: _prepend(m / "match.yaml", BOMB), "match.yaml: anchors or aliases ('&', '*'), which the referee never writes, line 1"),
    (lambda m: (m / "t001" / "orders.yaml").write_text("- a\n" * 1_000_000), "orders.yaml: more than 100000 values"),
    (lambda m: (m / "t002" / "press.yaml").write_text("- &m {to: all, text: hi}\n- *m\n"), "press.yaml: anchors or aliases"),
    (lambda m: (m / "t001" / "chronicle.yaml").write_text("[" * 100 + "]" * 100), "chronicle.yaml: values nested deeper than 64 levels"),
    (lambda m: (m / "match.yaml").write_text("id: x\nid: y\n"), "match.yaml: the key 'id' twice, line 2"),
    (lambda m: (m / "match.yaml").write_bytes(b"id: \xff\n"), "match.yaml: not UTF-8 text"),
    (lambda m: (m / "t003" / "turn.json").write_text('{"seed": '), "turn.json: no valid JSON"),
    (lambda m: (m / "t003" / "turn.json").write_text("[" * 200_000 + "]" * 200_000), "turn.json: values nested too deep"),
    (lambda m: (m / "t002" / "press.yaml").write_text("- x\n" + "#" * 4_000_001), "press.yaml: 4,000,005 bytes, more than"),
    (lambda m: (m / "match.yaml").write_text("- just\n- a list\n"), "match.yaml: no mapping of a match's facts"),
], ids=["alias bomb", "a million values", "anchors in talk", "deep nesting", "a key twice", "not utf-8",
        "cut turn.json", "deep json", "too large", "not a mapping"])
def test_issue32_item11_a_broken_archive_file_is_answered_plainly_by_referee_site(tmp_path, monkeypatch, capsys,
                                                                                   damage, said):
    match = tmp_path / "demo-perricumer_ratsspiel"
    shutil.copytree(RS, match)
    damage(match)
    monkeypatch.chdir(tmp_path)
    assert main(["site", str(match), "--out", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("referee: no pages written: the archive file ") and said in err, err
    assert "fault of the referee" not in err and "Traceback" not in err
    assert "referee restore" in err   # what to do
    if "press" not in said and "chronicle" not in said:   # the replay reads the same files, as plainly
        assert main(["replay", str(match)]) == 1
        err = capsys.readouterr().err
        assert said.split(":")[0] in err and "fault of the referee" not in err, err


def test_issue32_item11_the_samples_still_read_whole_through_the_capped_loader(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["site", str(RS), "--out", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site" / "turns" / "t008.html").is_file()
