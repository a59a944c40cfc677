"""The referee's template code (referee/render/codegen.py) gives what Jinja's own code gives:
the same template rendered by the referee's environments and by plain Jinja environments
(same options, Jinja's code generator) must give the same characters, hostile values included."""
from __future__ import annotations

import enum
import types

import jinja2
import jinja2.compiler
import pytest
from markupsafe import Markup, escape
from test_renderer_warm import GAMES, game_reports

from referee.render.codegen import out
from referee.render.renderer import Renderer, _indent_block

HOSTILE = ['<script>alert("x")</script>', "Tom & Jerry's <b>", "&amp; already", "\u2028<\u00a0>", "", " ' \" "]


class Colour(enum.IntEnum):
    RED = 1


class Shown:
    def __html__(self) -> str:
        return "<i>shown</i>"

    def __str__(self) -> str:
        return "<plain>"


class Getter:
    """Not a dict, but with get/items: the template must call these as Jinja does."""

    def get(self, key, default=None):
        return f"<got {key}>"

    def items(self):
        return [("<k>", "<v>")]


def plain(html: bool) -> jinja2.Environment:
    """Jinja's own environment with the renderer's options (its getattr: the attribute first)."""
    return jinja2.Environment(autoescape=html, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def both(source: str, html: bool = True, **ctx) -> tuple[str, str]:
    r = Renderer(code_cache="off")
    mine = (r.html_env if html else r.text_env).from_string(source).render(**ctx)
    return mine, plain(html).from_string(source).render(**ctx)


@pytest.mark.parametrize("value", [*HOSTILE, 0, -7, 10**30, True, False, 1.5, -0.0, None, Colour.RED,
                                   Markup("<b>safe</b>"), Shown(), ["<x>"], {"<k>": "&"}])
def test_out_gives_the_characters_escape_gives(value):
    assert out(value) == str(escape(value))


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_values_are_escaped_in_every_kind_of_output(name):
    src = ("{% macro who(p) %}<b>{{ p }}</b>{% endmacro %}"
           "{{ n }}|{{ who(n) }}|{{ d.name }}|{{ d['name'] }}|{{ d.get('name') }}|{{ [n, n] | join(', ') }}|"
           "{% for k, v in d.items() %}{{ k }}={{ v }}{% if not loop.last %};{% endif %}{% endfor %}|"
           "{{ n ~ '<' }}|{{ n if n else '<none>' }}|{{ m }}|{{ who(m) }}|{{ shown }}|{{ 3 }}|{{ x }}")
    mine, jinja = both(src, n=name, d={"name": name, "<k>": name}, m=Markup(f"<i>{name}</i>"), shown=Shown(), x=-0.0)
    assert mine == jinja
    if "<script>" in name:   # only in what the context marked safe itself (m, twice)
        assert mine.count("<script>") == 2 and mine.count("&lt;script&gt;") == 11


def test_nested_lookups_and_calls_keep_their_own_values():
    # a.b.c, calls inside calls' arguments, dict methods of a dict inside an argument: each held value
    # (referee_t, referee_m<n>, referee_o) must not be overwritten by what its arguments evaluate
    src = ("{% macro m(a, b) %}[{{ a }}/{{ b }}]{% endmacro %}"
           "{{ a.b.c }}{{ d.get(e.get('k'), e.k) }}{{ m(m(a.b.c, e.k), d.get('z', a.b.c)) }}"
           "{{ m(e.get('k'), m(e.k, d.get(e.k, 'no'))) }}{% for x in xs %}{{ x.get(e.k, x.y) }}{{ m(x.y, loop.last) }}"
           "{% endfor %}{{ g.get(e.k) }}{% for k, v in g.items() %}{{ k }}{{ v }}{% endfor %}{{ e.values() | list }}")
    ctx = dict(a={"b": {"c": "<C>"}}, d={"<K>": "dk"}, e={"k": "<K>"}, xs=[{"y": 1}, {"<K>": 2, "y": 3}], g=Getter())
    for html in (True, False):
        mine, jinja = both(src, html=html, **ctx)
        assert mine == jinja
    assert "[[&lt;C&gt;/&lt;K&gt;]/&lt;C&gt;]" in both(src, **ctx)[0]


def test_macros_with_defaults_kwargs_varargs_and_caller_answer_as_in_jinja():
    src = ("{% macro m(x, y='<d>') %}{{ x }}{{ y }}{{ varargs | join }}{{ kwargs | dictsort | join }}"
           "{% if caller is defined %}{{ caller() }}{% endif %}{% endmacro %}"
           "{{ m(1) }}|{{ m(1, 2) }}|{{ m(1, 2, 3, '<4>') }}|{{ m(1, z='<z>') }}|{% call m('<c>') %}in{% endcall %}"
           "{% macro n(x) %}{{ x is defined }}{% endmacro %}{{ n() }}")
    for html in (True, False):
        mine, jinja = both(src, html=html)
        assert mine == jinja


def test_a_macro_given_too_many_arguments_fails_as_in_jinja():
    src = "{% macro n(x) %}{{ x }}{% endmacro %}{{ n(1, 2) }}"
    with pytest.raises(TypeError, match="takes not more than 1 argument"):
        both(src)
    with pytest.raises(TypeError, match="takes not more than 1 argument"):
        plain(True).from_string(src).render()


def test_a_missing_key_is_undefined_and_fails_as_in_jinja():
    r = Renderer(code_cache="off")
    with pytest.raises(jinja2.UndefinedError):
        r.html_env.from_string("{{ d.missing }}").render(d={})
    assert r.html_env.from_string("{{ d.missing is defined }}").render(d={}) == "False"


def test_globals_set_before_a_template_loads_are_seen_by_it():
    r = Renderer(code_cache="off")
    r.html_env.globals["site"] = "<site>"
    assert r.html_env.from_string("{{ site }}|{{ range(2) | list }}").render() == "&lt;site&gt;|[0, 1]"


@pytest.mark.parametrize("text", ["a\n  \nb\n", "x\r\ny\rz\x0bw\x0c\u2028v\x1c \u00a0\nend", "", "\n\n", "one"])
def test_indent_block_indents_as_before_and_keeps_str_and_markup_apart(text):
    pad = "  "
    expected = "".join(pad + line if line.strip() else line for line in text.splitlines(True))
    assert _indent_block(text) == expected
    assert _indent_block(Markup(text)) == expected
    assert _indent_block(text, 4) == "".join("    " + ln if ln.strip() else ln for ln in text.splitlines(True))


def jinjas_own_code(r: Renderer) -> Renderer:
    """``r`` with Jinja's own code generator and template globals (the renderer's other
    shortcuts, tested in test_renderer_calls.py, stay)."""
    for env in (r.text_env, r.html_env, r.mail_env):
        env.code_generator_class = jinja2.compiler.CodeGenerator
        env.make_globals = types.MethodType(jinja2.Environment.make_globals, env)
        env.bytecode_cache = None
        env.cache.clear()
    return r


@pytest.mark.parametrize("game", GAMES)
def test_every_readers_report_of_every_game_is_what_jinjas_own_code_gives(game):
    hostile = {"ana": '<script>alert("ana")</script>', "bo": "Bo & <b>Co</b>", "cy": "Cy's \"quote\""}
    for lang in ("en", "de"):
        mine = game_reports(Renderer(code_cache="off"), game, lang, 3, names=hostile)
        assert mine == game_reports(jinjas_own_code(Renderer(code_cache="off")), game, lang, 3, names=hostile)
        htmls = [html or "" for (_, html), _ in mine.values()] + [mail_html for _, (_, _, mail_html) in mine.values()]
        assert not any("<script>" in h for h in htmls)
        assert any("&lt;script&gt;alert(&#34;ana&#34;)" in h for h in htmls)   # the name is shown, escaped


def test_jinjas_own_code_is_what_the_comparison_renders_with():
    own = jinjas_own_code(Renderer(code_cache="off"))
    assert "referee_" not in own.html_env.compile("{{ a.b }}{{ m(x) }}{{ d.get(1) }}", raw=True)
    assert "referee_out" in Renderer(code_cache="off").html_env.compile("{{ a.b }}", raw=True)


def test_a_macro_called_inside_autoescape_false_gives_plain_text_as_in_jinja():
    # Context.call hands a macro the caller's eval context: inside {% autoescape false %} of an HTML
    # template its text is a plain str, so |e escapes it and + does not escape what is added to it
    src = ("{% macro m(x) %}<b>{{ x }}</b>{% endmacro %}{% macro k(x, y='<d>') %}<i>{{ x }}{{ y }}</i>{% endmacro %}"
           "{{ m('<a>') | e }}|{{ m('<a>') + '<c>' }}|"
           "{% autoescape false %}{{ m('<a>') | e }}|{{ m('<a>') + '<c>' }}|{{ k('<a>') | e }}"
           "{% for v in ['<v>'] %}{{ m(v) | e }}{% endfor %}{% endautoescape %}|{{ k('<a>') | e }}")
    mine, jinja = both(src, html=True)
    assert mine == jinja
    assert mine.count("&lt;b&gt;") == 2 and "&lt;i&gt;" in mine   # escaped inside the block only
    assert "<b>&lt;a&gt;</b>" in mine and "&lt;c&gt;" in mine      # Markup outside it
