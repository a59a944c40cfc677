"""Document.position maps any key/value path to its line and column as sent."""
from __future__ import annotations

from referee.intake import Document, read_text

TEXT = """Guten Abend,

match: rat
player: alrik
orders:
  influence:
    - target: mira
      coins: 2
    - target: bors
      coins: 1
  vote: {motion: 3, side: ja}
  notes: |
    Ich stimme mit Mira.
"""


def doc() -> Document:
    d = read_text(TEXT)
    assert isinstance(d, Document), d
    return d


def test_plain_values_point_at_the_value():
    d = doc()
    assert d.position(("player",)) == (4, 9)
    assert d.position(("orders", "influence", 1, "coins")) == (10, 14)
    assert d.position(("orders", "vote", "side")) == (11, 27)


def test_lists_and_mappings_point_at_their_key():
    d = doc()
    assert d.position(("orders",)) == (5, 1)
    assert d.position(("orders", "influence")) == (6, 3)
    assert d.position(("orders", "influence", 0)) == (7, 7)   # a list item: where it starts


def test_string_indexes_and_missing_paths():
    d = doc()
    assert d.position(("orders", "influence", "1", "target")) == (9, 15)
    assert d.position(("orders", "influence", 0, "reason")) == (7, 7)   # missing: its parent
    assert d.resolve(("orders", "influence", 5)) == ("orders", "influence")
    assert d.position(("nothing",)) == (3, 1)   # the document itself


def test_block_scalar_value():
    d = doc()
    assert d.data["orders"]["notes"] == "Ich stimme mit Mira.\n"
    assert d.position(("orders", "notes")) == (12, 10)


def test_problem_helper_places_and_words():
    p = doc().problem("envelope.missing", ("turn",), field="turn")
    assert (p.line, p.column, p.where) == (3, 1, "turn")
    assert p.text["de"].startswith("Die Zeile 'turn:' fehlt.")
