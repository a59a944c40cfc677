"""One digest scope a close (referee/render/shared.py): inside ``one_report()`` a shared part
given the very same objects again is found by their identity, with no digest.  Values that
compare equal but pickle differently (1, 1.0 and True; a dict's order) never share a part."""
from __future__ import annotations

import jinja2

from referee.render.shared import SharedExtension, one_report


def env(templates: dict[str, str], autoescape: bool = False) -> jinja2.Environment:
    e = jinja2.Environment(loader=jinja2.DictLoader(templates), undefined=jinja2.StrictUndefined,
                           autoescape=autoescape, extensions=[SharedExtension])
    runs = []
    e.globals["ran"] = lambda: runs.append(1) or ""
    e.globals["runs"] = runs
    return e


def test_inside_a_scope_values_that_compare_equal_but_pickle_differently_render_their_own_text():
    e = env({"t": "{% shared v=v %}{{ ran() }}{{ v }}{% endshared %}"})
    t = e.get_template("t")
    with one_report():
        assert [t.render(v=v) for v in (1, 1.0, True, {"y": 2, "x": 1}, {"x": 1, "y": 2})] == \
            ["1", "1.0", "True", "{'y': 2, 'x': 1}", "{'x': 1, 'y': 2}"]
        assert len(e.globals["runs"]) == 5


def test_inside_a_scope_the_very_same_values_render_a_part_once_without_a_digest_each_time():
    e = env({"t": "{% shared pub=pub, L=L %}{{ ran() }}{{ pub.n }}{{ L.x }}{% endshared %}"})
    t = e.get_template("t")
    pub, labels = {"n": [1, 2]}, {"x": "!"}
    with one_report():
        assert {t.render(pub=pub, L=labels) for _ in range(4)} == {"[1, 2]!"}
        assert len(e.globals["runs"]) == 1
        # only the first found the cache (a digest); the others found the values themselves
        assert e.shared_parts.hits + e.shared_parts.misses == 1
    assert t.render(pub=dict(pub), L=dict(labels)) == "[1, 2]!" and e.shared_parts.hits == 1


def test_a_close_renders_the_labels_a_report_imports_as_one_object():
    from referee.render.renderer import Renderer
    r = Renderer(code_cache="off")
    for game in ("founding_fathers", "perricumer_ratsspiel"):
        for lang in ("en", "de"):
            first = r.html_env.get_template(f"{game}/_labels.{lang}.j2").module.L
            again = r.html_env.get_template(f"{game}/_labels.{lang}.j2").module.L
            assert first is again and first["game" if game != "founding_fathers" else "turn"]
