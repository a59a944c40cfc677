"""The renderer's start-up work: ``warm()`` compiles what a close renders, and ``uses``
reads what a game's template refers to from the compile, not from a second parse."""
from __future__ import annotations

import jinja2
import jinja2.meta
import pytest
from refkit import random_turn

from referee.game_api import registry
from referee.game_api.contract import GM, Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.render.renderer import Renderer

GAMES = ["founding_fathers", "perricumer_ratsspiel", "nations_dice", "revolution_1848"]


def game_reports(renderer: Renderer, game: str, lang: str, turns: int = 2, names: dict | None = None) -> dict:
    """Every reader's (game body, wrapped mail) of a random turn of ``game`` in ``lang``
    (``names``: the players' names by seat, else the seat's own, title-cased)."""
    rules = registry.get(game)
    seats = ["ana", "bo", "cy", "di", "ed"][: max(rules.min_players, 3)]
    state = rules.setup(seats, {}, Rng(derive_seed("warm", game)))
    rand = random_player(rules)
    for number in range(1, turns + 1):
        res = random_turn(rules, state, rand, "warm", number)
        state = res.state
    players = {p: {"name": (names or {}).get(p, p.title())} for p in seats}
    out = {}
    for viewer in (*seats, None, GM):
        ctx = {"match": {"id": "m", "title": rules.title, "game": rules.name, "lang": lang, "timezone": "UTC"},
               "turn": turns, "viewer": viewer, "view": rules.view(state, viewer),
               "log": [{"kind": e.kind, "data": e.data} for e in res.log if e.visible_for(viewer)],
               "missing": [seats[0]], "players": players, "outcome": res.outcome, "order_form": "",
               "next": None, "picture": None, "standings": []}
        body = renderer.game_report(rules.name, rules.languages, lang, ctx)
        out[viewer] = (body, renderer.report(lang, ctx, *body, game_template=renderer.last_game_template))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_after_warm_a_close_of_every_game_compiles_nothing(game):
    r = Renderer()
    names = r.warm()
    assert f"{game}/report.en.txt.j2" in names and "mail/report.en.txt.j2" in names
    compiled = {id(env): set(env.cache) for env in (r.text_env, r.html_env, r.mail_env)}
    for lang in ("en", "de"):
        game_reports(r, game, lang)
    for env in (r.text_env, r.html_env, r.mail_env):
        assert set(env.cache) == compiled[id(env)]


@pytest.mark.parametrize("game", GAMES)
def test_a_warmed_renderer_gives_the_same_reports_as_a_cold_one(game):
    warm = Renderer()
    warm.warm()
    for lang in ("en", "de"):
        assert game_reports(warm, game, lang) == game_reports(Renderer(), game, lang)


def test_warm_leaves_out_the_other_mails_unless_asked():
    r = Renderer()
    assert "mail/welcome.en.txt.j2" not in r.warm()
    assert "mail/welcome.en.txt.j2" in r.warm(all_mails=True)


@pytest.mark.parametrize("game", GAMES)
def test_uses_tells_what_a_fresh_parse_of_the_template_tells(game):
    r = Renderer()
    for lang in ("en", "de"):
        name = f"{game}/report.{lang}.txt.j2"
        source = r.text_env.loader.get_source(r.text_env, name)[0]
        reads = jinja2.meta.find_undeclared_variables(Renderer().text_env.parse(source, name))
        for variable in ("missing", "next", "order_form", "viewer", "view", "nowhere_at_all"):
            assert r.uses(name, variable) == (variable in reads)


def test_after_warm_uses_parses_nothing():
    r = Renderer()
    r.warm()
    name = "perricumer_ratsspiel/report.en.txt.j2"

    def refuse(*args, **kwargs):
        raise AssertionError("parsed again")

    r.text_env.parse = r.text_env.compile = refuse   # type: ignore[method-assign]
    assert r.uses(name, "missing") and r.uses(name, "next") and not r.uses(name, "order_form")


def test_has_compiles_nothing():
    r = Renderer()
    assert r.has("founding_fathers/report.en.html.j2") and not r.has("founding_fathers/report.xx.html.j2")
    assert len(r.text_env.cache) == 0 and len(r.html_env.cache) == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_renderer_loading_compiled_templates_compiles_nothing_and_renders_the_same(game, tmp_path):
    first = Renderer(code_cache=tmp_path)
    first.warm()
    expected = {lang: game_reports(first, game, lang) for lang in ("en", "de")}
    second = Renderer(code_cache=tmp_path)

    def refuse(*args, **kwargs):
        raise AssertionError("compiled again")

    for env in (second.text_env, second.html_env, second.mail_env):
        env.compile = refuse   # type: ignore[method-assign]
    second.warm()
    assert {lang: game_reports(second, game, lang) for lang in ("en", "de")} == expected
    name = f"{game}/report.en.txt.j2"
    assert all(second.uses(name, v) == first.uses(name, v) for v in ("missing", "next", "order_form"))


def test_the_environments_keep_their_own_compiled_code(tmp_path):
    folder = tmp_path / "games"
    (folder / "g").mkdir(parents=True)
    (folder / "g" / "t.j2").write_text("{% if x %}\n{{ x }}\n{% endif %}\n")
    for _ in range(2):   # compiled, then loaded compiled
        r = Renderer(extra_dirs=[folder], code_cache=tmp_path / "code")
        got = [env.get_template("g/t.j2").render(x="<b>") for env in (r.text_env, r.html_env, r.mail_env)]
        assert got == ["\n<b>\n\n", "\n&lt;b&gt;\n\n", "<b>\n"]


def test_a_changed_template_is_compiled_again(tmp_path):
    folder = tmp_path / "games"
    (folder / "g").mkdir(parents=True)
    (folder / "g" / "t.j2").write_text("one {{ x }}")
    assert Renderer(extra_dirs=[folder], code_cache=tmp_path / "code").text_env.get_template("g/t.j2").render(x=1) == "one 1"
    (folder / "g" / "t.j2").write_text("two {{ x }}")
    assert Renderer(extra_dirs=[folder], code_cache=tmp_path / "code").text_env.get_template("g/t.j2").render(x=1) == "two 1"


def test_no_cache_when_asked_for_none_or_its_folder_cannot_be_made(tmp_path, monkeypatch):
    assert Renderer(code_cache="off").text_env.bytecode_cache is None
    monkeypatch.setenv("REFEREE_TEMPLATE_CACHE", "off")
    assert Renderer().html_env.bytecode_cache is None
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = Renderer(code_cache=blocker / "code")
    assert r.text_env.bytecode_cache is None
    assert r.text_env.get_template("mail/report.en.txt.j2") is not None


def test_a_broken_cache_file_is_compiled_over(tmp_path):
    first = Renderer(code_cache=tmp_path)
    expected = game_reports(first, "founding_fathers", "en")
    for f in tmp_path.glob("__referee_*.cache"):
        f.write_bytes(f.read_bytes()[:40])
    assert game_reports(Renderer(code_cache=tmp_path), "founding_fathers", "en") == expected
