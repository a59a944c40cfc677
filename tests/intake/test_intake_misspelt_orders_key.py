"""A misspelt 'orders:' is one problem at its own line, not two."""
from __future__ import annotations

from referee.intake import Document, read_envelope, read_text


def envelope(text: str):
    doc = read_text(text)
    assert isinstance(doc, Document), doc
    return read_envelope(doc)


def test_misspelt_orders_key_gives_one_problem_at_its_line():
    result = envelope("match: m\nplayer: p\nkey: K\nturn: 1\noders:\n  a: 1\n")
    assert [(p.code, p.line, p.column) for p in result] == [("envelope.unknown_key", 5, 1)]
    assert "did you mean 'orders'" in result[0].text["en"]


def test_misspelt_command_key_gives_one_problem_too():
    result = envelope("match: m\nplayer: p\nkey: K\ncomand: status\n")
    assert [p.code for p in result] == ["envelope.unknown_key"]
    assert "meintest du 'command'" in result[0].text["de"]


def test_without_any_near_key_neither_is_still_said():
    result = envelope("match: m\nplayer: p\nkey: K\nwhatever: 1\n")
    assert sorted(p.code for p in result) == ["envelope.neither", "envelope.unknown_key"]


def test_an_unknown_key_is_placed_at_the_key_not_its_value():
    # 'auswahl' left unindented below 'orders:' is a top-level key: point at it
    result = envelope("match: m\nplayer: p\nkey: K\norders:\nauswahl: 3\n")
    assert [(p.code, p.line, p.column) for p in result] == [("envelope.unknown_key", 5, 1)]
