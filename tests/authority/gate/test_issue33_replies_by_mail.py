"""Issue 33 through the referee by mail: one refusal names every problem of the mail
(item 1), the acceptance echoes the orders as a player writes them, never as the program
names them (item 2: 'if:', 'on:', not 'if_:' or "'on':")."""
from __future__ import annotations

import re

from referee_kit import SPEC, clock, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401

from referee_games.revolution_1848.form import examples


def _match(ref, outbox, game, seats, lang="en"):
    players = [{"id": s, "name": s.title(), "email": f"{s}@example.org", "lang": lang} for s in seats]
    ref.create_match(dict(SPEC, id="m33", game=game, players=players, options={}, language=lang, observers=[]))
    return {m["To"].split("@")[0]: re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m)).group(1)
            for m in outbox.flush() if re.search(r"(?:Your key|Dein Schlüssel): ", text_of(m))}


def test_item1_one_refusal_names_every_problem_of_the_mail(ref, outbox):
    keys = _match(ref, outbox, "founding_fathers", ["madison", "hamilton", "paterson"])
    dealt = ref.rules(ref.store.match("m33")).load(ref.store.current_turn("m33")["state"]).d["dealt"]["madison"]
    body = f"match: m33\nplayer: madison\nkey: {keys['madison']}\nturn: 1\norders:\n  keep: [{dealt[0]}, nobdy]\n  kep: 1\n"
    assert ref.handle(inbound("madison@example.org", body)).reason != "accepted"
    [reply] = to(outbox.flush(), "madison@example.org")
    text = text_of(reply)
    assert "Line 7, column 3: 'kep' is not allowed here. Did you mean 'keep'?" in text
    assert "Line 6" in text and "nobdy" in text   # the game's refusal of the other part, in the same reply


def test_item2_the_acceptance_echoes_if_and_on_as_written(ref, outbox):
    keys = _match(ref, outbox, "revolution_1848", ["ada", "bert", "cleo", "dora"], lang="de")
    rules = ref.rules(ref.store.match("m33"))
    state = rules.load(ref.store.current_turn("m33")["state"])
    seat, step = next((p, s) for p in keys for s, _ in examples(state.d, state.ed, p)
                      if isinstance(s, dict) and "on" in s)
    flow = ", ".join(f"{k}: {v}" for k, v in step.items())
    body = (f"match: m33\nplayer: {seat}\nkey: {keys[seat]}\nturn: 1\norders:\n  steps:\n"
            f"    - {{{flow}, if: {{answered: L}}}}\n    - pass\n")
    assert ref.handle(inbound(f"{seat}@example.org", body)).reason == "accepted"
    [reply] = to(outbox.flush(), f"{seat}@example.org")
    text = text_of(reply)
    assert f"\n    on: {step['on']}\n    if:\n      answered: L\n" in text, text
    assert "if_" not in text and "'on'" not in text
