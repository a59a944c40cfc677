"""The Founding Fathers HTML reports, rendered the production way (referee.render.renderer.Renderer,
StrictUndefined, autoescape) for every viewer at several points of a random game: well-formed,
showing the facts of the context, the viewer's own hand only, and player names escaped."""
from __future__ import annotations

import pytest
from htmlpage import Page, assert_styles_inline_when_mailed, parse  # noqa: F401  (tests/ is on sys.path)
from markupsafe import escape

from referee.game_api.contract import GM, Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.render.renderer import Renderer
from referee_games.founding_fathers import RULES

SEATS = ["ada", "bert", "cleo", "dora"]
EVIL = "Ada <script>alert('x')</script> & Co"
NAMES = {"ada": EVIL, "bert": "Bert", "cleo": "Cleo", "dora": "Dora"}
VIEWERS = [*SEATS, None, GM]
HEADS = {"en": ("Your hand", "All hands (game master)"), "de": ("Deine Hand", "Alle Hände (Spielleitung)")}
RENDERER = Renderer()


def snapshots():
    """(turn, state, result) at the first turn, two middle ones and the last."""
    rand = random_player(RULES)
    state = RULES.setup(SEATS, {}, Rng(derive_seed("ff-html", "setup")))
    seen = []
    for turn in range(1, 3000):
        awaiting = RULES.awaiting(state)
        if not awaiting:
            break
        chooser = Rng(derive_seed("ff-html", f"players:{turn}"))
        orders = {p: RULES.order_schema(state, stage).model_validate(rand(state, p, chooser))
                  for p, stage in sorted(awaiting.items())}
        result = RULES.resolve(state, orders, Rng(derive_seed("ff-html", turn)))
        state = result.state
        seen.append((turn, state, result))
    assert not RULES.awaiting(state), "the random game did not end"
    picks = {0, len(seen) // 3, 2 * len(seen) // 3, len(seen) - 1}
    return [seen[i] for i in sorted(picks)]


SNAPSHOTS = snapshots()


def context(state, result, viewer, lang, turn, missing=()):
    awaiting = RULES.awaiting(state)
    return {"match": {"id": "ff1", "title": "Philadelphia <b>1787</b>", "game": RULES.name, "lang": lang,
                      "timezone": "UTC"},
            "turn": turn, "viewer": viewer, "view": RULES.view(state, viewer),
            "log": [{"kind": e.kind, "data": dict(e.data)} for e in result.log if e.visible_for(viewer)],
            "missing": list(missing), "players": {p: {"name": NAMES[p]} for p in SEATS},
            "outcome": result.outcome,
            "order_form": RULES.order_form(state, viewer, lang) if viewer in awaiting else "",
            "next": None if not awaiting else {"turn": turn + 1, "deadline_local": "Mon 2 Mar 19:00",
                                                "deadline_utc": "2026-03-02 18:00", "awaiting": awaiting}}


def render(ctx, lang):
    text, body = RENDERER.game_report(RULES.name, RULES.languages, lang, ctx)
    assert body is not None, f"no founding_fathers/report.{lang}.html.j2"
    return text, body


CASES = [(i, v, lang) for i in range(len(SNAPSHOTS)) for v in VIEWERS for lang in ("en", "de")]


@pytest.mark.parametrize("snap,viewer,lang", CASES)
def test_report_is_well_formed_and_shows_the_context(snap, viewer, lang):
    turn, state, result = SNAPSHOTS[snap]
    ctx = context(state, result, viewer, lang, turn, missing=["ada"])
    text, body = render(ctx, lang)
    page = parse(body)
    view = ctx["view"]
    pub, priv = view["public"], view["private"]

    # no markup from player-supplied text: the name and the title come out escaped
    assert "<script" not in body.lower() and "<b>1787" not in body
    assert str(escape(EVIL)) in body and "&lt;b&gt;1787" in body
    assert not any(tag in ("script", "link", "img", "iframe") for tag, _ in page.tags)
    assert_styles_inline_when_mailed(body)
    assert "built-in method" not in page.alltext and "bound method" not in page.alltext

    # scores: one row per player with name, planner and points
    for pl in pub["players"]:
        assert [NAMES[pl["id"]], pl["planner_name"], str(pl["score"])] in [r[:3] for r in page.rows]
    # what happened: the same sentences as the text report, one list item each
    for line in text.splitlines():
        if line.startswith("  * "):
            assert " ".join(line[4:].split()) in page.items
    assert f"{pub['assembly']['yea']}/7" in page.alltext and f"{pub['assembly']['nay']}/6" in page.alltext

    own, all_hands = HEADS[lang]
    if viewer in SEATS:
        assert own in page.alltext
        for card in priv["hand"]:
            assert card["name"] in page.alltext and card["event"][lang] in page.alltext
    else:
        assert own not in page.alltext
    if viewer == GM:
        assert all_hands in page.alltext
        for p, hand in priv["hands"].items():
            row = next(r for r in page.rows if len(r) == 2 and r[0] == NAMES[p])
            assert all(c["name"] in row[1] for c in hand)
    else:
        assert all_hands not in page.alltext
    # nobody's hand events but the viewer's own: the GM view knows every hand
    hands = RULES.view(state, GM)["private"]["hands"]
    mine = {c["event"][lang] for c in hands.get(viewer, [])}
    cells = {c.split("] ", 1)[-1] for r in page.rows for c in r}
    for p, hand in hands.items():
        if p != viewer and viewer != GM:
            for c in hand:
                assert c["event"][lang] in mine or c["event"][lang] not in cells, (p, c["id"])

    # the order form is the referee wrapper's (a whole order mail, envelope on top), never the body's
    assert not any("orders:" in p for p in page.pres)
    if ctx["next"]:
        assert "2026-03-02 18:00 UTC" in page.alltext
    if result.outcome:
        winners = [NAMES[p] for p in result.outcome["winners"]]
        assert all(w in page.alltext for w in winners)
        for p, s in result.outcome["scores"].items():
            assert f"{NAMES[p]} {s}" in page.alltext


@pytest.mark.parametrize("lang", ["en", "de"])
def test_full_report_mail_is_well_formed(lang):
    """The game's body inside the referee's HTML wrapper, as the report mail carries it."""
    turn, state, result = SNAPSHOTS[1]
    viewer = next(iter(RULES.awaiting(state)))
    ctx = context(state, result, viewer, lang, turn)
    text, body = render(ctx, lang)
    _, _, mail_html = RENDERER.report(lang, ctx, text, body, RENDERER.last_game_template)
    page = parse(mail_html)
    assert page.tags[0][0] == "html" and body in mail_html
    assert "<script" not in mail_html.lower()
    form = [ln.strip() for ln in ctx["order_form"].splitlines() if ln.strip()]
    pre = next(p for p in page.pres if p.startswith("match: "))
    assert "\norders:\n" in pre and all(ln in pre for ln in form)


def test_no_deadline_yet_leaves_the_deadline_out():
    """Until the match runs again the referee knows no deadline (deadline_local None)."""
    turn, state, result = SNAPSHOTS[1]
    ctx = context(state, result, "bert", "en", turn)
    ctx["next"] = dict(ctx["next"], deadline_local=None, deadline_utc=None)
    page = parse(render(ctx, "en")[1])
    assert "None" not in page.alltext and "Deadline" not in page.alltext
    assert ["Turn", str(turn + 1)] in page.rows


def test_templates_never_mark_text_safe():
    """Autoescape is the only protection: no template of this game may switch it off."""
    from referee.render.renderer import template_root
    for path in (template_root() / "founding_fathers").glob("*html*"):
        source = path.read_text(encoding="utf-8")
        assert "|safe" not in source.replace(" ", "") and "autoescape" not in source, path.name
