"""Issue 16, finding 7: match files, mailed or on disk, load with the limits of
an order document (size, depth, number of values, no anchors, aliases or tags)."""
from __future__ import annotations

import time
import tracemalloc

import pytest
import yaml
from bounded_referee import BOSS, SPEC, clock, raw_mail, ref, sent, text_of  # noqa: F401 (fixtures)

from referee.authority.matches.match_file import MatchError, load_spec
from referee.mail.inbound import parse_inbound

LAUGHS = "\n".join(['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'] + [
    f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]" for i in range(1, 9)])


def create_mail(match_file: str) -> bytes:
    body = (f"match: bomb\nplayer: \"@gm\"\nkey: {BOSS[1]}\ncommand: create\nmatch_file: |\n" +
            "".join("  " + line + "\n" for line in match_file.splitlines()))
    return raw_mail(BOSS[0], body)


def test_finding7_billion_laughs_in_a_mailed_create_is_refused_cheaply(ref, tmp_path):
    # yaml.safe_load: 424 bytes cost 564 MB and 4.4 s.
    mail = parse_inbound(create_mail("id: bomb\ngame: toybid\n" + LAUGHS))
    tracemalloc.start()
    start = time.perf_counter()
    handled = ref.handle(mail)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert handled.outcome == "refused" and handled.reason == "command.failed"
    assert elapsed < 2.0 and peak < 50_000_000
    assert ref.store.match("bomb") is None
    [reply] = sent(ref, tmp_path / "out")
    assert "In the match file, line 3" in text_of(reply)
    assert "Anchors and aliases ('&name', '*name') are not accepted" in text_of(reply)


def test_finding7_the_refusal_reads_in_english_and_german():
    with pytest.raises(MatchError) as refused:
        load_spec("id: bomb\n" + LAUGHS)
    text = refused.value.problem.text
    assert text["en"].startswith("In the match file, line 2") and "aliases" in text["en"]
    assert text["de"].startswith("In der Partiedatei, Zeile 2") and "Aliase" in text["de"]


@pytest.mark.parametrize("text, code", [
    ("id: x\n" + LAUGHS, "yaml.alias"),
    ("id: x\noptions: " + "[" * 100 + "]" * 100 + "\n", "yaml.too_deep"),
    ("id: x\noptions: [" + "1," * 6_000 + "]\n", "yaml.too_many_nodes"),
    ("id: x\ntitle: " + "x" * 70_000 + "\n", "document.too_large"),
    ("id: !!python/object:os.system x\n", "yaml.tag"),
])
def test_finding7_a_match_file_on_disk_has_the_order_limits(text, code):
    with pytest.raises(MatchError) as refused:
        load_spec(text)
    assert refused.value.problem.code == code


def test_finding7_a_valid_match_file_still_loads():
    spec = load_spec(yaml.safe_dump(SPEC))
    assert spec.id == "toy1" and [p.id for p in spec.players] == ["ann", "bob", "cyd"]
