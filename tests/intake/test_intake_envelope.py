"""read_envelope checks the top level and says where each problem is."""
from __future__ import annotations

from intake_mails import ORDERS

from referee.intake import Document, Envelope, read_envelope, read_text


def envelope(text: str):
    doc = read_text(text)
    assert isinstance(doc, Document), doc
    return read_envelope(doc)


def problems(text: str) -> list[tuple[str, int | None]]:
    result = envelope(text)
    assert not isinstance(result, Envelope), result
    return [(p.code, p.line) for p in result]


def test_orders_envelope():
    env = envelope(ORDERS)
    assert env == Envelope(match="ff-winter", player="madison", key="4F7Q-K2XD-9MRA", turn=12,
                           orders={"action": "declare_vote", "state": "PA", "side": "yea",
                                   "delegates": ["ingersoll", "mifflin"]})
    assert env.command is None and env.args == {}


def test_ids_are_compared_case_insensitively_and_turn_may_be_quoted():
    env = envelope('Match: FF-Winter\nPLAYER: Madison\nturn: "12"\norders:\n  a: 1\n')
    assert (env.match, env.player, env.turn) == ("ff-winter", "madison", 12)


def test_command_with_arguments():
    env = envelope("match: ff-winter\nplayer: gm\nkey: K\ncommand: Extend\nhours: 24\nreason: travel\n")
    assert env.command == "extend" and env.orders is None
    assert env.args == {"hours": 24, "reason": "travel"}


def test_empty_orders_mapping_is_empty_orders():
    env = envelope("match: m\nplayer: p\nturn: 2\norders:\n")
    assert env.orders == {}


def test_missing_match_and_player():
    assert problems("turn: 3\norders:\n  a: 1\n") == [("envelope.missing", 1), ("envelope.missing", 1)]
    result = envelope("match: m\norders:\n  a: 1\n")
    assert result[0].params["field"] == "player"
    assert "'player:'" in result[0].text["en"] and "fehlt" in result[0].text["de"]


def test_unknown_key_suggests_the_near_one_and_points_at_it():
    result = envelope("match: m\nplayer: p\nturn: 2\norder:\n  a: 1\nordres: {}\n")
    codes = [(p.code, p.line, p.column) for p in result]
    assert "envelope.neither" not in [c for c, _, _ in codes]   # the suggestion says it at the line
    unknown = [p for p in result if p.code == "envelope.unknown_key"]
    assert [(p.line, p.column) for p in unknown] == [(4, 1), (6, 1)]
    assert "did you mean 'orders'" in unknown[0].text["en"]
    assert "meintest du 'orders'" in unknown[0].text["de"]


def test_both_orders_and_command():
    assert problems("match: m\nplayer: p\norders: {a: 1}\ncommand: status\n") == [("envelope.both", 4)]


def test_neither_orders_nor_command():
    assert problems("match: m\nplayer: p\nturn: 1\n") == [("envelope.neither", 1)]


def test_wrong_types_are_located():
    result = envelope("match: m\nplayer: [a, b]\nturn: twelve\norders:\n  - a\n")
    found = {(p.params["field"], p.line) for p in result if p.code == "envelope.wrong_type"}
    assert found == {("player", 2), ("turn", 3), ("orders", 4)}
    turn = next(p for p in result if p.params.get("field") == "turn")
    assert "whole number" in turn.text["en"] and "ganze Zahl" in turn.text["de"]


def test_boolean_turn_is_not_a_number():
    assert problems("match: m\nplayer: p\nturn: true\norders: {}\n") == [("envelope.wrong_type", 3)]


def test_a_wrong_key_type_never_echoes_the_key():
    result = envelope("match: m\nplayer: p\nkey: [S3CRET]\norders: {}\n")
    assert [p.code for p in result] == ["envelope.wrong_type"]
    assert all("S3CRET" not in t for t in result[0].text.values())
    assert "S3CRET" not in result[0].snippet


def test_same_key_in_two_spellings():
    assert problems("match: m\nMatch: n\nplayer: p\norders: {}\n") == [("yaml.duplicate_key", 2)]
