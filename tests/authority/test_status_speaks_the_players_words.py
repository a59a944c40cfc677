"""Issue 33: "the accepted echo shows `if_:`" — and so did `command: status`, which echoes a
player's stored orders.  By mail, a player who sent a plan with `if:` (1848) or `- pass` (Nations)
and asks for the status reads his own words back, never the program's `if_` / `pass_`."""
from __future__ import annotations

import pytest
from referee_kit import SPEC, clock, game, inbound, keys_of, outbox, ref, text_of, to, toy_registered  # noqa: F401

from referee.authority.gate.orders import orders_text


@pytest.fixture
def real(ref):
    return ref


def seated(ref, outbox, game: str, lang: str, options=None) -> dict[str, str]:
    ref.create_match(dict(SPEC, id="m33", game=game, language=lang, options=options or {}, observers=[],
                          players=[{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("ada", "bert", "cleo")]))
    return keys_of(outbox)


def mailed(ref, outbox, player: str, key: str, body: str) -> str:
    doc = f"match: m33\nplayer: {player}\nkey: {key}\n{body}"
    assert ref.handle(inbound(f"{player}@example.org", doc)).outcome == "processed", doc
    [reply] = to(outbox.flush(), f"{player}@example.org")
    return text_of(reply)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_status_shows_if_as_the_player_wrote_it(real, outbox, lang):
    keys = seated(real, outbox, "revolution_1848", lang)
    state = real.lookups.rules(real.store.match("m33")).load(real.store.current_turn("m33")["state"])
    person = next(c for c in state.d["hands"]["ada"] if c.startswith("PE"))
    plan = f"turn: 1\norders:\n  steps:\n    - {{play: {person}, if: {{answered: army}}}}\n    - pass\n"
    accepted = mailed(real, outbox, "ada", keys["ada"], plan)
    assert "if_" not in accepted
    status = mailed(real, outbox, "ada", keys["ada"], "command: status\n")
    assert "if:" in status and "answered: army" in status, status
    assert "if_" not in status, status


@pytest.mark.parametrize("lang", ["en", "de"])
def test_status_shows_pass_as_the_player_wrote_it(real, outbox, lang):
    keys = seated(real, outbox, "nations_dice", lang, {"variant": "accelerated"})
    turn = real.store.current_turn("m33")
    player = next(iter(turn["awaiting"]))
    accepted = mailed(real, outbox, player, keys[player], "turn: 1\norders:\n  steps:\n    - pass: {food_trade: auto}\n")
    assert "pass_" not in accepted
    status = mailed(real, outbox, player, keys[player], "command: status\n")
    assert "pass:" in status and "food_trade: auto" in status, status
    assert "pass_" not in status, status


def test_only_keyword_names_lose_their_underscore():
    assert orders_text({"steps": [{"if_": {"winning": True}, "play": "PE01"}, {"pass_": {}}], "to_": 1}) == \
        "steps:\n- if:\n    winning: true\n  play: PE01\n- pass: {}\nto_: 1"
