"""``referee site MATCH``: a self-contained folder of HTML pages for one match,
built from its ``turns/<match>/`` folder alone (replayed with the installed game).

```
index.html            the turns with their dates and who was missing, the standings chart, the schemas
standings.svg         the same chart(s) as a file
turns/tNNN.html       each turn's public report (what an observer is sent) with the board picture
pictures/tNNN.svg     the board after each turn (browsers show SVG; mail gets a PNG instead)
schemas/STAGE.json    the JSON Schema of each stage's orders (see referee/site/schemas.py)
rules.LANG.html       the game's rules for players in each language it ships them (rules_page.py)
```
No page loads anything from outside the folder.
"""
from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import jinja2
from markupsafe import Markup, escape

from referee.archive.record import turn_dir_name
from referee.authority.order_mail import rules_page_name
from referee.game_api import registry
from referee.game_api.contract import PUBLIC
from referee.pictures.board import svg_of
from referee.render import standings
from referee.render.renderer import Renderer
from referee.site import chart, rules_page, schemas
from referee.site.history import read_meta, setup_state, turns
from referee.site.talk import public_talk
from referee.site.words import words

_env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
                          autoescape=True, undefined=jinja2.StrictUndefined)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _local(iso: str | None, zone: str) -> str:
    if not iso:
        return ""
    return datetime.fromisoformat(iso).astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M %Z")


def _report(renderer: Renderer, rules, meta: dict, t, players: dict) -> Markup:
    """The public report of one turn, as an observer receives it (without the mail's frame)."""
    ctx = {"match": {"id": meta["id"], "title": meta.get("title") or rules.title, "game": rules.name,
                     "lang": meta.get("language", "en"), "timezone": meta.get("timezone", "UTC")},
           "turn": t.number, "viewer": PUBLIC, "view": rules.view(t.state, PUBLIC),
           "log": [{"kind": e["kind"], "data": e["data"]} for e in t.log if e.get("visible_to") is None],
           "missing": t.missing, "players": players, "outcome": t.outcome, "order_form": "", "next": None}
    text, html = renderer.game_report(rules.name, rules.languages, ctx["match"]["lang"], ctx)
    return Markup(html) if html is not None else Markup(f"<pre>{escape(text)}</pre>")


def build_site(match_dir: Path, out: Path) -> Path:
    """Write the site of the match archived in ``match_dir`` into ``out``; returns index.html."""
    match_dir, out = Path(match_dir), Path(out)
    meta = read_meta(match_dir)
    rules = registry.get(meta["game"])
    lang = meta.get("language") or rules.languages[0]
    zone = meta.get("timezone") or "UTC"
    players = {p["id"]: {"name": p.get("name") or p["id"]} for p in meta["players"]}
    env = _env.overlay()
    env.filters["name_of"] = lambda pid: players.get(pid, {"name": pid})["name"]
    common = {"meta": {**meta, "title": meta.get("title") or rules.title}, "W": words(lang), "lang": lang}
    renderer = Renderer()
    rows, reports, points, outcome, by_stage = [], [], [], None, {}
    schemas.note_stages(rules, setup_state(rules, meta), by_stage)
    # issue 35: seats a bot played, from the match file or any turn's orders (a dropout's seat handed over)
    botted = {p["id"] for p in meta["players"] if p.get("bot")}
    for t in turns(match_dir, meta):
        view = rules.view(t.state, PUBLIC)
        name = turn_dir_name(t.number)
        svg = svg_of(rules, view, lang)
        if svg is not None:
            _write(out / "pictures" / f"{name}.svg", svg)
        points.append((t.number, standings.read(rules, t.state)))
        rows.append({"number": t.number, "closed": _local(t.closed, zone), "missing": t.missing, "bots": t.bots,
                     "href": f"turns/{name}.html", "page": f"{name}.html",
                     "picture": f"../pictures/{name}.svg" if svg else None,
                     **public_talk(match_dir / name, players)})   # issue 18: the chronicle, public table talk
        reports.append(_report(renderer, rules, meta, t, players))
        outcome = t.outcome or outcome
        botted.update(t.bots)
        schemas.note_stages(rules, t.state, by_stage)
    for i, (row, report) in enumerate(zip(rows, reports)):
        _write(out / row["href"], env.get_template("turn.html.j2").render(
            **common, t=row, report=report, prev=rows[i - 1]["page"] if i else None,
            next=rows[i + 1]["page"] if i + 1 < len(rows) else None))
    found = chart.series(points)
    names = {key: standings.word(rules, key, lang) for lines in found.values() for key in lines}
    names.update({p: v["name"] for p, v in players.items()})
    charts = [chart.chart(standings.word(rules, label, lang), lines, names, seats=list(players))
              for label, lines in found.items()]
    if charts:
        _write(out / "standings.svg", _stack(charts))
    published = schemas.publish(rules, by_stage, out / "schemas")
    rules_href = _rules_pages(env, rules, common, out)
    index = out / "index.html"
    _write(index, env.get_template("index.html.j2").render(
        **common, game_title=rules.title, players=players, bots=botted, outcome=outcome, turns=rows,
        charts=[Markup(c) for c in charts], schemas=published, rules_href=rules_href))
    return index


def _rules_pages(env, rules, common: dict, out: Path) -> str | None:
    """rules.LANG.html for each language the game has player rules in; the index links the
    match's language (else the first there is)."""
    made = []
    for lang in rules.languages:
        text = registry.player_rules(rules, lang)
        if text is not None:
            _write(out / rules_page_name(lang), env.get_template("rules.html.j2").render(
                **dict(common, W=words(lang), lang=lang), body=rules_page.render(text)))
            made.append(lang)
    if not made:
        return None
    return rules_page_name(common["lang"] if common["lang"] in made else made[0])


def _stack(charts: list[str]) -> str:
    """The charts in one SVG file, one under the other (an <svg> nests with its y)."""
    body = "".join(c.replace("<svg ", f'<svg y="{i * chart.HEIGHT}" ', 1) for i, c in enumerate(charts))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{chart.WIDTH}" '
            f'height="{len(charts) * chart.HEIGHT}">{body}</svg>\n')
