"""Whatever a mail holds, reading it gives a Document or located problems, never an exception."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from intake_mails import ORDERS

from referee.intake import Document, Located, read_envelope, read_text

PIECES = ["match: ", "player: ", "orders:\n", "  ", "\t", "- ", "[", "]", "{", "}", ": ", "&a ", "*a",
          "!!str ", "'", '"', "#", "\n", "\r\n", "> ", "-- \n", "---\n", "...\n", "```\n", "ä", "\u00a0",
          "\ufeff", "\x00", "12", "yes", "key: ", "command: status\n", "|\n", ">-\n"]


def check(text: str) -> None:
    result = read_text(text)
    if isinstance(result, Document):
        assert isinstance(result.data, dict)
        env = read_envelope(result)
        if isinstance(env, list):
            assert env and all(isinstance(p, Located) for p in env)
    else:
        assert result and all(isinstance(p, Located) and set(p.text) >= {"en", "de"} for p in result)
        for p in result:
            assert p.line is None or p.line >= 1
            assert p.column is None or p.column >= 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=40))
def test_fragments_of_yaml_and_mail(parts):
    check("".join(parts))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(ORDERS) - 1), st.sampled_from(PIECES), st.integers(0, 3))
def test_damaged_order_documents(at, piece, cut):
    check("Hallo,\n\n" + ORDERS[:at] + piece + ORDERS[at + cut:] + "\nGruß\n")
