"""The Perricumer Ratsspiel HTML reports, rendered the production way (referee.render.renderer.Renderer,
StrictUndefined, autoescape) for every viewer at several points of a random campaign:
well-formed, showing the facts of the context, the viewer's own agenda only, names escaped."""
from __future__ import annotations

import pytest
from htmlpage import Page, assert_styles_inline_when_mailed, parse  # noqa: F401  (tests/ is on sys.path)
from markupsafe import escape

from referee.game_api.contract import GM, Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.render.renderer import Renderer, template_root
from referee_games.perricumer_ratsspiel import RULES

SEATS = ["ada", "bert", "cleo"]
EVIL = "Ada <script>alert('x')</script> & Co"
NAMES = {"ada": EVIL, "bert": "Bert", "cleo": "Cleo"}
VIEWERS = [*SEATS, None, GM]
HEADS = {"de": ("Deine geheime Agenda", "Für die Spielleitung", "Begründungen zu Vorschlag"),
         "en": ("Your secret agenda", "For the game master", "Reasons on proposal")}
RENDERER = Renderer()


def snapshots():
    """(turn, state, result) after the first turn (choices), the first session, a middle one, the end."""
    rand = random_player(RULES)
    state = RULES.setup(SEATS, {}, Rng(derive_seed("pr-html", "setup")))
    seen = []
    for turn in range(1, 200):
        awaiting = RULES.awaiting(state)
        if not awaiting:
            break
        chooser = Rng(derive_seed("pr-html", f"players:{turn}"))
        orders = {p: RULES.order_schema(state, stage).model_validate(rand(state, p, chooser))
                  for p, stage in sorted(awaiting.items())}
        result = RULES.resolve(state, orders, Rng(derive_seed("pr-html", turn)))
        state = result.state
        seen.append((turn, state, result))
    assert not RULES.awaiting(state), "the random campaign did not end"
    assert len(seen) >= 4
    return [seen[i] for i in sorted({0, 1, len(seen) // 2, len(seen) - 1})]


SNAPSHOTS = snapshots()


def context(state, result, viewer, lang, turn):
    awaiting = RULES.awaiting(state)
    return {"match": {"id": "pr1", "title": "Perricum <i>1037</i>", "game": RULES.name, "lang": lang,
                      "timezone": "Europe/Berlin"},
            "turn": turn, "viewer": viewer, "view": RULES.view(state, viewer),
            "log": [{"kind": e.kind, "data": dict(e.data)} for e in result.log if e.visible_for(viewer)],
            "missing": ["bert"], "players": {p: {"name": NAMES[p]} for p in SEATS}, "outcome": result.outcome,
            "order_form": RULES.order_form(state, viewer, lang) if viewer in awaiting else "",
            "next": None if not awaiting else {"turn": turn + 1, "deadline_local": "2026-12-01 20:00 CET",
                                                "deadline_utc": "2026-12-01 19:00", "awaiting": awaiting}}


def render(ctx, lang):
    text, body = RENDERER.game_report(RULES.name, RULES.languages, lang, ctx)
    assert body is not None, f"no perricumer_ratsspiel/report.{lang}.html.j2"
    return text, body


CASES = [(i, v, lang) for i in range(len(SNAPSHOTS)) for v in VIEWERS for lang in ("de", "en")]


@pytest.mark.parametrize("snap,viewer,lang", CASES)
def test_report_is_well_formed_and_shows_the_context(snap, viewer, lang):
    turn, state, result = SNAPSHOTS[snap]
    ctx = context(state, result, viewer, lang, turn)
    _, body = render(ctx, lang)
    page = parse(body)
    pub, _priv = ctx["view"]["public"], ctx["view"]["private"]

    assert "<script" not in body.lower() and "<i>1037" not in body and "&lt;i&gt;1037" in body
    if viewer == "ada":
        assert str(escape(EVIL)) in body
    assert not any(tag in ("script", "link", "img", "iframe") for tag, _ in page.tags)
    assert_styles_inline_when_mailed(body)
    assert "built-in method" not in page.alltext and "bound method" not in page.alltext

    # influence: one row per councillor, best first as the view orders them
    rows = [r for r in page.rows if len(r) == 6 and r[1].split(" (")[0] in {m["name"] for m in pub["members"]}]
    assert [r[1].split(" (")[0] for r in rows] == [m["name"] for m in pub["members"]]
    for r, m in zip(rows, pub["members"]):
        assert r[0].split()[0] == str(m["total"]) and r[2:5] == [str(m["votes"]), m["viertel"], m["schicht"]]
        assert r[5] == (m["player"] or "")
    for v in pub["values"]:
        assert [v["name"][lang], str(v["value"])] in [r[:2] for r in page.rows]
    assert str(pub["korruption"]) in [r[1] for r in page.rows if r and r[0] == {"de": "Korruption", "en": "Corruption"}[lang]]
    for o in pub["offices"]:
        assert o["holder_name"] is None or o["holder_name"] in page.alltext
    rec = pub["last"]
    for p in (rec["proposals"] if rec and rec["round"] > 1 else []):
        assert f"{p['nr']}: {p['title'][lang]}" in page.alltext

    agenda_head, gm_head, reasons = HEADS[lang]
    everyone = RULES.view(state, GM)["private"]["players"]
    shown = {a["text"][lang] for a in pub["revealed_agendas"]}
    mine = everyone.get(viewer) or {"agenda": None}    # from the GM's view, not the viewer's own
    own = {mine["agenda"]["text"][lang]} if mine["agenda"] else set()
    cells = {c for r in page.rows for c in r}
    if viewer in SEATS:
        assert agenda_head in page.alltext and mine["member_name"] in page.alltext
        assert not own or any(c.startswith(next(iter(own))) for c in cells)
    else:
        assert agenda_head not in page.alltext
    for p, pv in everyone.items():
        text = pv["agenda"]["text"][lang] if pv["agenda"] else None
        if text and viewer != GM and text not in shown | own:
            assert not any(text in c for c in cells), f"{viewer} sees {p}'s agenda"
    if viewer == GM:
        assert gm_head in page.alltext
        for p, pv in everyone.items():
            assert any(r[0] == f"{p} {pv['member_name']}" for r in page.rows)
        if any(e["kind"] == "npc_votes" for e in ctx["log"]):
            assert reasons in page.alltext
    else:
        assert gm_head not in page.alltext and reasons not in page.alltext

    # the order form is the referee wrapper's (a whole order mail, envelope on top), never the body's
    assert page.pres == []
    if ctx["next"]:
        assert "2026-12-01 19:00 UTC" in page.alltext
    if pub["outcome"]:
        assert pub["outcome"]["reason"] == "korruption" or pub["outcome"]["winner_name"] in page.alltext


@pytest.mark.parametrize("lang", ["de", "en"])
def test_full_report_mail_is_well_formed(lang):
    """The game's body inside the referee's HTML wrapper, as the report mail carries it."""
    turn, state, result = SNAPSHOTS[1]
    ctx = context(state, result, "ada", lang, turn)
    text, body = render(ctx, lang)
    _, _, mail_html = RENDERER.report(lang, ctx, text, body, RENDERER.last_game_template)
    page = parse(mail_html)
    assert body in mail_html and "<script" not in mail_html.lower()
    assert ctx["order_form"] and any(p.startswith("match: ") and as_sent(ctx["order_form"]) in p for p in page.pres)


def as_sent(form: str) -> str:
    """The form as the report shows it: under 'orders:', indented, ready to send back."""
    return "orders:\n" + "".join("  " + ln if ln.strip() else ln for ln in form.splitlines(True))


def test_no_deadline_yet_leaves_the_deadline_out():
    """Until the match runs again the referee knows no deadline (deadline_local None)."""
    turn, state, result = SNAPSHOTS[1]
    ctx = context(state, result, "bert", "de", turn)
    ctx["next"] = dict(ctx["next"], deadline_local=None, deadline_utc=None)
    page = parse(render(ctx, "de")[1])
    assert "None" not in page.alltext and "Zugabgabetermin" not in page.alltext


def test_templates_never_mark_text_safe():
    """Autoescape is the only protection: no template of this game may switch it off."""
    for path in (template_root() / "perricumer_ratsspiel").glob("*html*"):
        source = path.read_text(encoding="utf-8")
        assert "|safe" not in source.replace(" ", "") and "autoescape" not in source, path.name


def test_the_public_part_is_rendered_once_per_turn_and_each_reader_sees_their_own_row():
    from referee.render.renderer import inline_styles
    renderer = Renderer()
    turn, state, result = SNAPSHOTS[-1]
    bodies = {v: render_with(renderer, context(state, result, v, "de", turn), "de") for v in SEATS}
    assert len(renderer.html_env.shared_parts) == 1   # one public part for all the players of the turn
    for seat, body in bodies.items():
        mailed = inline_styles(body)
        for other in SEATS:
            row = mailed[mailed.index(f'data-seat="{other}"'):]
            first_cell = row[:row.index("</td>")]
            assert ("background: #fff8dc" in first_cell) == (other == seat), (seat, other)


def render_with(renderer, ctx, lang):
    return renderer.game_report(RULES.name, RULES.languages, lang, ctx)[1]
