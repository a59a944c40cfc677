"""The report templates render with StrictUndefined for players, the GM and observers."""
from pathlib import Path

import jinja2
from pr_helpers import consensus_state, play

from referee.game_api.contract import GM, Rng
from referee.render.shared import SharedExtension
from referee_games.perricumer_ratsspiel import RULES

ROOT = Path(__file__).resolve().parents[3] / "templates"


def _render(state, log, viewer, lang, outcome=None):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT)), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True, extensions=[SharedExtension])
    tpl = env.get_template(f"perricumer_ratsspiel/report.{lang}.txt.j2")
    return tpl.render(
        match={"id": "m", "title": "Ratsspiel-Test", "game": RULES.name, "lang": lang, "timezone": "Europe/Berlin"},
        turn=state["round"] - 1, viewer=viewer, view=RULES.view(state, viewer),
        log=[{"kind": e.kind, "data": dict(e.data)} for e in log if e.visible_for(viewer)],
        missing=["p2"], players={"p1": {"name": "Anna"}, "p2": {"name": "Bert"}}, outcome=outcome,
        order_form=RULES.order_form(state, viewer, lang) if viewer else "",
        next={"turn": state["round"], "deadline_local": "2026-12-01 20:00 CET",
              "deadline_utc": "2026-12-01 19:00", "awaiting": RULES.awaiting(state)})


def test_reports_render_in_both_languages_for_every_viewer():
    s = consensus_state(cards={"p1": ["aufstaende", "marionette", "kaiserhof"], "p2": ["familienstern", "entfuehrung", "klassenkampf"]})
    res = play(s, {"p1": {"ereigniskarte": {"karte": "aufstaende", "viertel": "neustadt"},
                          "aktionen": {"wahlkampf": 4, "verwaltungsarbeit": 6,
                                       "einflussnahme": [{"ziel": "wallgrin", "vorschlag": 99, "richtung": "contra", "punkte": 2}]},
                          "abstimmung": {99: "pro"}}})
    de_p1 = _render(res.state, res.log, "p1", "de")
    assert "Ratssitzung der Runde 2" in de_p1 and "Aufstände im Viertel Neustadt & Vorstadt" in de_p1
    assert "Deine geheime Agenda" in de_p1 and "Wahlkampf 4 AP → +2 Einfluss" in de_p1
    # the order form is the referee wrapper's (a whole order mail, envelope on top), not the body's
    assert "Begründungen" not in de_p1 and "Zugvorlage" not in de_p1 and "orders:" not in de_p1
    assert "Einflussnahme: Wallgrîn von Perricum zu Vorschlag 99 Richtung contra (2 AP) — stimmte dann contra" in de_p1
    gm = _render(res.state, res.log, GM, "de")
    assert "Begründungen zu Vorschlag 99" in gm and "p2 (Sarina von Zolipantessa)" in gm
    en_obs = _render(res.state, res.log, None, "en")
    assert "council session of round 2" in en_obs and "secret agenda" not in en_obs
    assert "Voted as one" in en_obs
    en_gm = _render(res.state, res.log, GM, "en")
    assert "Reasons on proposal 99" in en_gm


def test_round_one_and_final_reports_render():
    s = RULES.setup(["p1", "p2"], {"members": {"p1": "alrik", "p2": "sarina"}}, Rng(1))
    res = RULES.resolve(s, {}, Rng(2))
    text = _render(res.state, res.log, "p1", "de")
    assert "Runde 1: die Ratsmitglieder wählen" in text and "Alrik Sturmfels wählt Vorschlag" in text
    st = res.state
    st["round"] = st["campaign"]["rounds"]
    st["influence"]["alrik"] = 15
    fin = RULES.resolve(st, {}, Rng(3))
    for lang, phrase in (("de", "gewinnt und wird zum Reichsvogt gewählt"), ("en", "is elected Reichsvogt")):
        out = _render(fin.state, fin.log, "p2", lang, fin.outcome)
        assert phrase in out and "Alrik Sturmfels" in out
