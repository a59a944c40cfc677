"""Templates mean what Jinja means: ``a.b`` on a dict reads
the item unless b names a dict method, and a call of a macro or builtin method is a plain
call, while anything that asks for the context still gets it."""
from __future__ import annotations

import jinja2
import pytest

from referee.render.renderer import Renderer


def render(source: str, html: bool = False, **ctx) -> str:
    r = Renderer()
    env = r.html_env if html else r.text_env
    return env.from_string(source).render(**ctx)


def test_macros_and_dict_methods_called_in_loops_and_blocks():
    src = ("{% macro m(x, y=2) %}<{{ x }}{{ y }}{{ caller() if caller is defined }}>{% endmacro %}"
           "{% for i in xs %}{{ m(i) }}{{ m(i, y=i) }}{{ d.get('a' ~ i, '-') }}{% set k = i %}{{ k }}{% endfor %}"
           "{% call m(9) %}c{% endcall %}")
    assert render(src, xs=[1, 2], d={"a1": "A"}) == "<12><11>A1<22><22>-2<92c>"


def test_a_function_that_asks_for_the_context_still_gets_it():
    @jinja2.pass_context
    def who(context, greeting):
        return f"{greeting} {context['viewer']}"

    assert render("{% for i in [1] %}{{ who('hi') }}{% endfor %}", who=who, viewer="ana") == "hi ana"


def test_a_builtin_method_that_raises_stop_iteration_is_undefined_as_in_jinja():
    gen = iter(())

    def exhausted():
        yield from gen

    g = exhausted()
    list(g)
    with pytest.raises(jinja2.UndefinedError, match="StopIteration"):
        render("{{ g.send(None) }}", g=g)


def test_a_dict_item_wins_over_an_attribute_but_not_over_a_dict_method():
    d = {"items": "mine", "keys": 1, "x": "<b>"}
    assert render("{{ d.x }}|{{ d.items()|list|length }}|{{ d['items'] }}", d=d) == "<b>|3|mine"
    assert render("{{ d.x }}", html=True, d=d) == "&lt;b&gt;"
    with pytest.raises(jinja2.UndefinedError, match="nothing"):
        render("{{ d.nothing }}", d=d)


def test_an_object_keeps_jinjas_attribute_then_item_order():
    class Both(dict):
        title = "attr"

    assert render("{{ o.title }}/{{ o.other }}", o=Both(title="item", other="only item")) == "attr/only item"
