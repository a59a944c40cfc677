"""Untrusted YAML is loaded with limits, refused fast when hostile, located when broken."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from referee.intake import Document, read_text, safe_load
from referee.intake.safe_yaml import WITH_LIBYAML, YamlRefused, load_checked


def billion_laughs(levels: int = 9) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        prev, name = chr(96 + i), chr(97 + i)
        lines.append(f"{name}: &{name} [" + ",".join(f"*{prev}" for _ in range(9)) + "]")
    return "\n".join(lines) + "\n"


def test_the_c_loader_is_used():
    assert WITH_LIBYAML


def test_billion_laughs_is_refused_fast():
    start = time.perf_counter()
    with pytest.raises(YamlRefused) as refused:
        safe_load(billion_laughs())
    elapsed = time.perf_counter() - start
    assert refused.value.code == "yaml.alias"
    assert elapsed < 0.05, elapsed   # measured ~0.1 ms; expanding it would need 9^9 strings


def test_any_alias_is_refused_at_its_anchor_line():
    problems = read_text("Hi\n\nmatch: x\nplayer: &p madison\norders:\n  who: *p\n")
    assert [p.code for p in problems] == ["yaml.alias"]
    assert problems[0].line == 4
    assert "Anker" in problems[0].text["de"]


def test_an_anchor_without_an_alias_is_refused_as_documented():
    # It loaded: the module documentation and the message both say "no anchors at all".
    problems = read_text("match: x\nplayer: madison\norders:\n  who: &w hamilton\n")
    assert [p.code for p in problems] == ["yaml.alias"]
    assert problems[0].line == 4
    assert "&name" in problems[0].text["en"]


def test_an_ampersand_in_a_value_is_no_anchor():
    doc = read_text("match: x\nplayer: madison\norders:\n  note: Q&A & more\n")
    assert doc.data["orders"] == {"note": "Q&A & more"}


@pytest.mark.parametrize("text", ["[" * 30000 + "]" * 30000, "- " * 30000 + "x",
                                  "{a: " * 20000 + "1" + "}" * 20000])
def test_deep_nesting_is_refused_without_crashing(text):
    # libyaml's composer recurses in C and segfaults on these: the guard must act first.
    with pytest.raises(YamlRefused) as refused:
        load_checked(text, max_bytes=10**6)
    assert refused.value.code == "yaml.too_deep"


def test_deep_nesting_guard_protects_the_process():
    # Belt and braces: a crash would kill the interpreter, so check in a child process.
    code = ("from referee.intake.safe_yaml import load_checked, YamlRefused\n"
            "try:\n    load_checked('['*50000+']'*50000, max_bytes=10**6)\n"
            "except YamlRefused as e:\n    print(e.code)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "yaml.too_deep"


def test_moderate_nesting_within_the_limit_loads():
    value = safe_load("a: " + "[" * 20 + "1" + "]" * 20)["a"]
    for _ in range(20):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == 1


def test_size_limit():
    with pytest.raises(YamlRefused) as refused:
        safe_load("a: " + "x" * 70_000)
    assert refused.value.code == "document.too_large"
    assert refused.value.params == {"size": 70_003, "limit": 64_000}


def test_node_limit():
    with pytest.raises(YamlRefused) as refused:
        safe_load("[" + ",".join("1" for _ in range(6000)) + "]")
    assert refused.value.code == "yaml.too_many_nodes"


@pytest.mark.parametrize("tag", ["!!python/object/apply:os.system ['true']", "!foo bar", "!!binary aGVsbG8="])
def test_tags_are_refused(tag):
    with pytest.raises(YamlRefused) as refused:
        safe_load("a: " + tag)
    assert refused.value.code == "yaml.tag"


def test_duplicate_keys_are_refused_at_the_second():
    problems = read_text("match: x\nplayer: a\nturn: 3\nturn: 4\n")
    assert [(p.code, p.line, p.column) for p in problems] == [("yaml.duplicate_key", 4, 1)]


def test_scalars_follow_yaml_1_2_not_1_1():
    data = safe_load("a: yes\nb: NO\nc: on\nd: 20:00\ne: 007\nf: 12\ng: 2026-03-29\nh: true\ni: ~\nj: 1.5\nk: 0x10\n")
    assert data == {"a": "yes", "b": "NO", "c": "on", "d": "20:00", "e": "007", "f": 12,
                    "g": "2026-03-29", "h": True, "i": None, "j": 1.5, "k": "0x10"}


def test_syntax_error_is_located_in_the_mail_as_sent():
    text = "Hallo,\n\nmatch: ff-winter\nplayer: madison\norders:\n  state PA\n  side: yea\n\nGruß\n"
    problems = read_text(text)
    assert [(p.code, p.line, p.column) for p in problems] == [("yaml.syntax", 6, 3)]
    assert problems[0].snippet == "  state PA"
    assert "':'" in problems[0].text["de"] and "Zeile 6" in problems[0].text["de"]
    assert problems[0].describe("en").startswith("Line 6, column 3: ")


def test_unclosed_bracket_points_past_the_list():
    problems = read_text("match: x\nplayer: y\norders:\n  delegates: [a, b\n  side: yea\n")
    assert problems[0].code == "yaml.syntax" and problems[0].line == 5
    assert "']'" in problems[0].text["de"]


def test_error_columns_count_characters_not_bytes():
    problems = read_text("match: x\nplayer: Müller: y\n")
    assert (problems[0].line, problems[0].column) == (2, 15)


def test_control_characters_do_not_break_loading():
    doc = read_text("match: x\x0c\nplayer: y\x00\ncommand: status\n")
    assert isinstance(doc, Document) and doc.data["player"] == "y"


def test_a_key_line_is_never_shown_in_a_snippet():
    problems = read_text("match: x\nplayer: y\nkey: SECRET: KEY-1\norders: {}\n")
    assert problems[0].code == "yaml.syntax"
    shown = problems[0].snippet + problems[0].text["en"] + problems[0].text["de"]
    assert "SECRET" not in shown


def test_two_documents_in_one_attachment_are_refused_in_words():
    from intake_mails import mail

    from referee.intake import read_document
    problems = read_document(mail("see file", attachments=(("o.yaml", "match: x\n---\nmatch: y\n"),)))
    assert [(p.code, p.line) for p in problems] == [("yaml.syntax", 2)]
    assert "mehr als ein Dokument" in problems[0].text["de"]


def test_an_unclosed_bracket_is_blamed_where_it_opens():
    from referee.intake.safe_yaml import YamlRefused, load_checked

    for text in ("match: m\norders: [unclosed\n", "match: m\norders: {x: 1\n"):
        try:
            load_checked(text)
        except YamlRefused as refused:
            assert (refused.line, refused.column) == (1, 8), text  # 0-based: line 2, the bracket
        else:
            raise AssertionError("an unclosed bracket must be refused")
