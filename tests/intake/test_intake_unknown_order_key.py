"""A key the orders may not hold is refused with the keys they may hold, and the
near one when it looks like a slip of the pen."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from referee.intake import Document, check_orders, read_text


class Orders(BaseModel):
    model_config = ConfigDict(extra="forbid")
    auswahl: int | None = None
    ereigniskarten: list[str] | None = None


class Rules:
    name, languages = "toy", ("de", "en")

    def order_schema(self, state, stage):
        return Orders

    def validate(self, state, player, model):
        return []


def problems_of(text: str):
    doc = read_text(text)
    assert isinstance(doc, Document), doc
    model, problems = check_orders(Rules(), None, "main", "p", doc.data["orders"], doc)
    assert model is None
    return problems


def test_unknown_order_key_names_the_allowed_ones_and_the_near_one():
    [p] = problems_of("match: m\nplayer: p\norders:\n  auswal: 2\n")
    assert (p.line, p.column) == (4, 3)   # the key written, not its value
    assert p.text["en"] == "'auswal' is not allowed here. Did you mean 'auswahl'? Allowed: auswahl, ereigniskarten."
    assert p.text["de"] == "'auswal' ist hier nicht erlaubt. Meintest du 'auswahl'? Erlaubt: auswahl, ereigniskarten."


def test_unknown_order_key_without_a_near_one_still_lists_the_allowed():
    [p] = problems_of("match: m\nplayer: p\norders:\n  auswahl: 2\n  extra: 1\n")
    assert p.text["en"] == "'extra' is not allowed here. Allowed: auswahl, ereigniskarten."
