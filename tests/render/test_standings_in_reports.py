"""Every recorded report shows the standings after its turn and the change since
the turn before, as a replay of the sample computes them."""
from __future__ import annotations

import email
import re
from email import policy

import pytest
import yaml
from seekit import FF, RS

from referee.game_api import registry
from referee.render import standings
from referee.site.history import read_meta, setup_state, turns

HEAD = {"en": "Standings (change since the last turn):", "de": "Stand (Änderung seit dem letzten Zug):"}


def renamed(turn_dir, names: dict) -> dict:
    """The seats' names after the GM's ``replace`` commands kept in the turn's inbox
    (a replaced dropout plays on under the new player's name)."""
    names = dict(names)
    for path in sorted((turn_dir / "inbox").glob("*.eml")):
        body = email.message_from_bytes(path.read_bytes(), policy=policy.default).get_body(("plain",))
        try:
            doc = yaml.safe_load(body.get_content()) if body else None
        except yaml.YAMLError:
            continue
        if isinstance(doc, dict) and doc.get("player") == "gm" and doc.get("command") == "replace":
            names[doc["seat"]] = doc.get("name") or names[doc["seat"]]
    return names


def change(delta) -> str:
    return "=" if delta == 0 else (f"+{delta}" if delta > 0 else f"−{-delta}")


@pytest.mark.parametrize("sample", [FF, RS], ids=["founding_fathers", "ratsspiel"])
def test_each_report_shows_the_standings_and_their_change(sample):
    meta = read_meta(sample)
    rules = registry.get(meta["game"])
    lang = meta["language"]
    players = {p["id"]: p["name"] for p in meta["players"]}
    before = standings.read(rules, setup_state(rules, meta))
    checked = 0
    for t in turns(sample, meta):
        after = standings.read(rules, t.state)
        players = renamed(sample / f"t{t.number:03d}", players)
        report = (sample / f"t{t.number:03d}" / "reports" / f"{meta['players'][0]['id']}.{lang}.txt").read_text()
        block = report.split(HEAD[lang], 1)[1].split("\n\n", 1)[0]
        for label, values in after.items():
            line = next(ln for ln in block.splitlines() if ln.strip().startswith(standings.word(rules, label, lang) + ":"))
            for who, value in values.items():
                name = players.get(who) or standings.word(rules, who, lang)
                assert re.search(rf"{re.escape(name)} {value} \({re.escape(change(value - before[label][who]))}\)", line), \
                    (t.number, line)
                checked += 1
        before = after
    assert checked >= 3 * len(list(sample.glob("t[0-9]*")))
    if sample == RS:     # the recorded Ratsspiel replaces a dropout (issue 18): its new name was checked
        assert players["cordovan"] == "Cordovan II"
