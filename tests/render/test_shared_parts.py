"""``{% shared %}`` parts (referee/render/shared.py): a part sees only the values it is given,
is rendered once for every reader that gives equal values, and its cache stays bounded."""
from __future__ import annotations

import jinja2
import pytest
from markupsafe import Markup
from refkit import random_turn

from referee.game_api import registry
from referee.game_api.contract import GM, Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.render.renderer import Renderer
from referee.render.shared import MAX_DIGEST_BYTES, PartCache, SharedExtension, digest


def env(templates: dict[str, str], autoescape: bool = False) -> jinja2.Environment:
    e = jinja2.Environment(loader=jinja2.DictLoader(templates), undefined=jinja2.StrictUndefined,
                           autoescape=autoescape, extensions=[SharedExtension])
    e.globals["count"] = Counter()
    return e


class Counter:
    """A global the parts call: how often a part's body really ran."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return ""


def test_a_part_that_reads_a_value_it_was_not_given_is_refused_when_the_template_loads():
    e = env({"t": "{{ viewer }}{% shared pub=view.public %}{{ pub.n }} {{ viewer }}{% endshared %}"})
    with pytest.raises(jinja2.TemplateSyntaxError, match="viewer"):
        e.get_template("t")


def test_a_part_that_sets_or_loops_over_its_own_names_loads():
    e = env({"t": "{% shared xs=xs %}{% set n = xs | length %}{% for x in xs %}{{ x }}{% endfor %}/{{ n }}"
                  "{% endshared %}"})
    assert e.get_template("t").render(xs=[1, 2]) == "12/2"


def test_what_a_part_includes_or_imports_sees_only_the_parts_values():
    e = env({"t": "{% shared pub=pub %}{% include 'inner' %}{% endshared %}",
             "inner": "{{ pub }} {{ viewer }}",
             "m": "{% shared pub=pub %}{% from 'lib' import who with context %}{{ who() }}{% endshared %}",
             "lib": "{% macro who() %}{{ viewer }}{% endmacro %}"})
    with pytest.raises(jinja2.UndefinedError, match="viewer"):
        e.get_template("t").render(pub=1, viewer="alice")
    with pytest.raises(jinja2.UndefinedError, match="viewer"):
        e.get_template("m").render(pub=1, viewer="alice")


def test_readers_get_their_own_private_part_and_one_rendering_of_the_shared_part():
    e = env({"t": "[{{ viewer }}: {{ secret }}] {% shared pub=pub %}{{ count() }}board {{ pub.n }}{% endshared %}"})
    t = e.get_template("t")
    a = t.render(viewer="alice", secret="a-hand", pub={"n": 7})
    b = t.render(viewer="bob", secret="b-hand", pub={"n": 7})
    c = t.render(viewer="carol", secret="c-hand", pub={"n": 8})
    assert (a, b, c) == ("[alice: a-hand] board 7", "[bob: b-hand] board 7", "[carol: c-hand] board 8")
    assert e.globals["count"].n == 2   # 7 once for alice and bob, 8 once for carol
    assert (e.shared_parts.hits, e.shared_parts.misses) == (1, 2)


def test_equal_looking_values_of_other_types_are_not_one_part():
    e = env({"t": "{% shared v=v %}{{ v }}{% endshared %}"})
    t = e.get_template("t")
    assert [t.render(v=v) for v in (1, 1.0, True, "1", (1,), [1])] == ["1", "1.0", "True", "1", "(1,)", "[1]"]


def test_a_part_in_an_html_template_is_escaped_once():
    e = env({"t": "{{ x }}|{% shared x=x %}<b>{{ x }}</b>{% endshared %}|{% shared x=x %}<b>{{ x }}</b>{% endshared %}"},
            autoescape=True)
    assert e.get_template("t").render(x="<i>&") == "&lt;i&gt;&amp;|<b>&lt;i&gt;&amp;</b>|<b>&lt;i&gt;&amp;</b>"


def test_the_part_cache_is_bounded_in_entries_and_characters():
    cache = PartCache(entries=3, chars=100)
    for i in range(10):
        cache.put(("k", i), "x" * 10)
    assert len(cache) == 3 and cache.get(("k", 9)) and cache.get(("k", 0)) is None
    cache.put(("big",), "y" * 60)
    cache.put(("big2",), "z" * 60)            # 120 characters: the older one goes
    assert cache.get(("big",)) is None and cache.get(("big2",)) == "z" * 60
    cache.put(("huge",), "w" * 101)           # larger than the whole cache: not kept
    assert cache.get(("huge",)) is None
    e = env({"t": "{% shared v=v %}{{ v }}{% endshared %}"})
    e.shared_parts = PartCache(entries=5)
    for i in range(50):
        assert e.get_template("t").render(v=i) == str(i)
    assert len(e.shared_parts) == 5


class Drifting:
    """A value whose text changes every time it is shown: a cached part would show a stale one."""

    def __init__(self) -> None:
        self.n = 0

    def __str__(self) -> str:
        self.n += 1
        return f"shown {self.n}"


def test_values_that_cannot_be_digested_are_rendered_every_time():
    e = env({"t": "{% shared v=v %}{{ count() }}{{ v }}{% endshared %}"})
    t = e.get_template("t")
    d = Drifting()
    assert [t.render(v=d), t.render(v=d)] == ["shown 1", "shown 2"]
    assert t.render(v=lambda: 1).startswith("<function")
    assert t.render(v=Markup("<x>")) == "<x>"
    huge = "h" * (MAX_DIGEST_BYTES + 10)
    assert t.render(v=huge) == huge and t.render(v=huge) == huge
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert digest({"v": deep}) is None            # too deep to digest: no crash, no caching
    assert e.globals["count"].n == 6 and len(e.shared_parts) == 0
    assert digest({"v": Drifting()}) is None and digest({"v": huge}) is None


def test_a_cyclic_value_is_rendered_not_digested_and_shared_objects_digest_as_their_copies():
    loop: list = ["<x>"]
    loop.append(loop)
    assert digest({"v": loop}) is None
    e = env({"t": "{% shared v=v %}{{ count() }}{{ v[0] }}{% endshared %}"})
    assert [e.get_template("t").render(v=loop) for _ in range(2)] == ["<x>", "<x>"]
    assert e.globals["count"].n == 2 and len(e.shared_parts) == 0
    one = {"a": 1}
    assert digest({"v": [one, one]}) == digest({"v": [{"a": 1}, {"a": 1}]}) != digest({"v": [one, {"a": 1.0}]})


def test_a_part_naming_a_value_twice_is_refused():
    with pytest.raises(jinja2.TemplateSyntaxError, match="twice"):
        env({"t": "{% shared a=1, a=2 %}{{ a }}{% endshared %}"}).get_template("t")


def _ratsspiel_reports(renderer: Renderer, lang: str) -> dict:
    """Every reader's text and HTML report of a Ratsspiel turn, rendered by ``renderer``."""
    rules = registry.get("perricumer_ratsspiel")
    seats = ["ana", "bo", "cy", "di", "ed"]
    state = rules.setup(seats, {}, Rng(derive_seed("shared", "setup")))
    rand = random_player(rules)
    for number in (1, 2):
        res = random_turn(rules, state, rand, "shared", number)
        state = res.state
    out = {}
    for viewer in (*seats, None, GM):
        ctx = {"match": {"id": "m", "title": rules.title, "game": rules.name, "lang": lang, "timezone": "UTC"},
               "turn": 2, "viewer": viewer, "view": rules.view(state, viewer),
               "log": [{"kind": e.kind, "data": e.data} for e in res.log if e.visible_for(viewer)],
               "missing": [], "players": {p: {"name": p.title()} for p in seats}, "outcome": res.outcome,
               "order_form": "", "next": None}
        out[viewer] = renderer.game_report(rules.name, rules.languages, lang, ctx)
    return out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_real_report_shares_its_public_part_and_keeps_each_readers_own(lang):
    renderer = Renderer()
    reports = _ratsspiel_reports(renderer, lang)
    for env_ in (renderer.text_env, renderer.html_env):
        assert env_.shared_parts.misses == 1 and env_.shared_parts.hits == len(reports) - 1
    own = "For you only" if lang == "en" else "Nur für dich"
    texts = {v: t for v, (t, _) in reports.items()}
    for viewer in ("ana", "bo"):
        mine = texts[viewer].split(own)[1]
        others = [texts[v].split(own)[1] for v in ("ana", "bo", "cy") if v != viewer]
        assert all(mine != o for o in others)   # each reader's private part is their own
    public = [t.split("==")[1:4] for t in texts.values()]   # the sections every reader shares
    assert all(p == public[0] for p in public)
    # the same as a renderer that shares nothing gives (a part per reader, cache kept empty)
    fresh = Renderer()
    for env_ in (fresh.text_env, fresh.html_env):
        env_.shared_parts = PartCache(entries=0)
    assert _ratsspiel_reports(fresh, lang) == reports


def test_one_report_digests_a_value_once_and_gives_the_key_an_equal_value_gets():
    from referee.render.shared import digest_of, one_report, without
    pub = {"n": [1, 2], "mine": 7}
    outside = digest_of({"pub": pub, "X": "en"})
    with one_report():
        inside = digest_of({"pub": pub, "X": "en"})
        assert digest_of({"pub": pub, "X": "en"}) == inside
        assert without(pub, "mine") is without(pub, "mine") and without(pub, "mine") == {"n": [1, 2]}
    assert inside == outside == digest_of({"pub": {"n": [1, 2], "mine": 7}, "X": "en"})
    assert digest_of({"pub": pub, "X": "de"}) != outside and digest_of({"pub": {"n": [1, 2.0], "mine": 7}, "X": "en"}) != outside
    assert without(pub, "mine") is not without(pub, "mine")   # outside the scope a copy each time
    assert digest_of({"a": object()}) is None


def test_a_value_changed_between_reports_is_digested_again():
    from referee.render.shared import one_report
    e = env({"t": "{% shared pub=pub %}{{ pub.n }}{% endshared %}|{% shared p=pub %}{{ p.n }}{% endshared %}"})
    t = e.get_template("t")
    pub = {"n": 1}
    with one_report():
        assert t.render(pub=pub) == "1|1"
    pub["n"] = 2
    with one_report():
        assert t.render(pub=pub) == "2|2"


def test_a_part_outside_a_named_template_or_holding_a_block_is_refused_when_it_loads():
    with pytest.raises(jinja2.TemplateSyntaxError, match="loaded by its name"):
        env({}).from_string("{% shared x=x %}{{ x }}{% endshared %}")
    with pytest.raises(jinja2.TemplateSyntaxError, match="no {% block %}"):
        env({"t": "{% shared x=x %}{% block b %}{{ x }}{% endblock %}{% endshared %}"}).get_template("t")


def test_two_parts_of_a_template_and_of_the_template_it_extends_keep_their_own_bodies():
    e = env({"base": "{% shared x=x %}[{{ x }}]{% endshared %}{% block main %}{% endblock %}",
             "child": "{% extends 'base' %}{% block main %}{% shared y=y %}<{{ y }}>{% endshared %}"
                      "{% shared y=y %}({{ y }}){% endshared %}{% endblock %}"})
    assert e.get_template("child").render(x=1, y=2) == "[1]<2>(2)"
