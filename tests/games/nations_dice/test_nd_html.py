"""The Nations HTML reports, rendered the production way for every viewer at several points of
a random game: well-formed, escaped, one row per player, the text report's sentences, the order
form, and the viewer's own plan only."""
from __future__ import annotations

import pytest
from htmlpage import assert_styles_inline_when_mailed, parse  # noqa: F401  (tests/ is on sys.path)
from markupsafe import escape

from referee.game_api.contract import GM, Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.render.renderer import Renderer
from referee_games.nations_dice import RULES

SEATS = ["ada", "bert", "cleo"]
EVIL = "Ada <script>alert('x')</script> & Co"
NAMES = {"ada": EVIL, "bert": "Bert", "cleo": "Cleo"}
VIEWERS = [*SEATS, None, GM]
PLAN = {"en": "Your plan (steps left)", "de": "Dein Plan (übrige Schritte)"}
RENDERER = Renderer()


def snapshots():
    rand = random_player(RULES)
    state = RULES.setup(SEATS, {}, Rng(derive_seed("nd-html", "setup")))
    seen = []
    for turn in range(1, 3000):
        awaiting = RULES.awaiting(state)
        if not awaiting:
            break
        chooser = Rng(derive_seed("nd-html", f"players:{turn}"))
        orders = {p: RULES.order_schema(state, stage).model_validate(rand(state, p, chooser))
                  for p, stage in sorted(awaiting.items())}
        result = RULES.resolve(state, orders, Rng(derive_seed("nd-html", turn)))
        state = result.state
        seen.append((turn, state, result))
    assert not RULES.awaiting(state)
    return [seen[i] for i in sorted({0, len(seen) // 2, len(seen) - 1})]


SNAPSHOTS = snapshots()
CASES = [(i, v, lang) for i in range(len(SNAPSHOTS)) for v in VIEWERS for lang in ("en", "de")]


@pytest.mark.parametrize("snap,viewer,lang", CASES)
def test_report_is_well_formed_and_shows_the_context(snap, viewer, lang):
    turn, state, result = SNAPSHOTS[snap]
    awaiting = RULES.awaiting(state)
    ctx = {"match": {"id": "n1", "title": "Nations <b>1</b>", "game": RULES.name, "lang": lang, "timezone": "UTC"},
           "turn": turn, "viewer": viewer, "view": RULES.view(state, viewer),
           "log": [{"kind": e.kind, "data": dict(e.data)} for e in result.log if e.visible_for(viewer)],
           "missing": [], "players": {p: {"name": NAMES[p]} for p in SEATS}, "outcome": result.outcome,
           "order_form": RULES.order_form(state, viewer, lang) if viewer in awaiting else "",
           "next": None if not awaiting else {"turn": turn + 1, "deadline_local": "Mon", "deadline_utc": "x",
                                               "awaiting": awaiting}}
    text, body = RENDERER.game_report(RULES.name, RULES.languages, lang, ctx)
    page = parse(body)
    assert "<script" not in body.lower() and "<b>1" not in body and str(escape(EVIL)) in body
    assert_styles_inline_when_mailed(body)
    for pl in ctx["view"]["public"]["players"]:
        assert any(r and r[0].startswith(f"{pl['place']}. {NAMES[pl['id']]}") and r[1] == str(pl["culture"])
                   for r in page.rows)
    for line in text.splitlines():
        if line.startswith("  * "):
            assert " ".join(line[4:].split()) in page.items
    plan = ctx["view"]["private"].get("plan")
    assert (PLAN[lang] in page.alltext) == bool(viewer in SEATS and plan)
    # the order form is the referee wrapper's (a whole order mail, envelope on top), never the body's
    assert not any("orders:" in p for p in page.pres)
    if result.outcome:
        assert NAMES[result.outcome["winners"][0]] in text
