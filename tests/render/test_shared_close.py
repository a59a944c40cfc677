"""One digest scope a close (referee/render_shared.py): inside ``one_report()`` a shared part is
found by its values' identity, a reader's public view holds the close's own objects where they
pickle the same (``SameParts``), and a dict made of such objects is digested from its items.
Values that compare equal but pickle differently (1, 1.0 and True; a dict's order; a str
subclass) never share a part."""
from __future__ import annotations

import jinja2
from markupsafe import Markup

from referee.render_shared import SameParts, SharedExtension, digest, digest_of, one_report, without


def env(templates: dict[str, str], autoescape: bool = False) -> jinja2.Environment:
    e = jinja2.Environment(loader=jinja2.DictLoader(templates), undefined=jinja2.StrictUndefined,
                           autoescape=autoescape, extensions=[SharedExtension])
    runs = []
    e.globals["ran"] = lambda: runs.append(1) or ""
    e.globals["runs"] = runs
    return e


def test_same_parts_gives_the_close_view_itself_when_a_reader_view_pickles_the_same():
    theirs = {"n": [1, 2], "who": {"a": "Ann"}}
    same = SameParts(theirs)
    assert same.same({"n": [1, 2], "who": {"a": "Ann"}}) is theirs
    assert same.same({"n": [1, 2], "who": {"a": "Ann"}}) is theirs


def test_same_parts_never_shares_a_value_that_compares_equal_but_pickles_differently():
    theirs = {"i": 1, "f": 1.0, "b": True, "order": {"x": 1, "y": 2}, "s": "<b>", "keep": [3]}
    for key, other in (("i", 1.0), ("i", True), ("f", 1), ("b", 1), ("order", {"y": 2, "x": 1}),
                       ("s", Markup("<b>"))):
        mine = dict(theirs, **{key: other})
        assert mine == theirs   # what == cannot tell apart
        got = SameParts(theirs).same(mine)
        assert got is not theirs and got[key] is other and type(got[key]) is type(other)
        assert got["keep"] is theirs["keep"]   # what is the same data is the close's own object
        assert list(got) == list(mine)


def test_same_parts_keeps_a_reader_own_key_and_a_reader_whose_keys_differ():
    theirs = {"board": [1], "since": []}
    same = SameParts(theirs)
    mine = same.same({"board": [1], "since": ["drew"]})
    assert mine == {"board": [1], "since": ["drew"]} and mine["board"] is theirs["board"]
    assert same.same({"since": [], "board": [1]}) is not theirs   # another order renders in another order
    extra = same.same({"board": [1], "since": [], "mine": 5})
    assert extra == {"board": [1], "since": [], "mine": 5} and extra is not theirs
    assert same.same({"board": [1], "since": []}) is theirs   # after a reader who differed, key by key


def test_same_parts_leaves_what_is_not_plain_data_as_the_reader_gave_it():
    thing = object()
    theirs = {"t": thing, "n": 1}
    mine = {"t": thing, "n": 1}
    got = SameParts(theirs).same(mine)
    assert got is not theirs and got["t"] is thing and got["n"] is theirs["n"]
    assert SameParts({"n": 1}).same(["not a dict"]) == ["not a dict"]


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


def test_a_value_changed_after_the_scope_renders_again():
    e = env({"t": "{% shared pub=pub %}{{ pub.n }}{% endshared %}"})
    t = e.get_template("t")
    pub = {"n": 1}
    with one_report():
        assert t.render(pub=pub) == "1"
    pub["n"] = 2
    with one_report():
        assert t.render(pub=pub) == "2"
    assert t.render(pub=pub) == "2"


def test_a_dict_made_of_the_close_objects_gets_the_key_of_its_data_and_never_another_data_key():
    pub = {"board": [1, 2], "n": 1, "since": ["x"]}
    with one_report():
        copy = without(pub, "since")   # made of pub's own objects: digested from its items
        composed = digest_of({"pub": copy})
        assert composed == digest_of({"pub": without(pub, "since")})
        other = without({"board": [1, 2], "n": 1.0, "since": []}, "since")
        assert digest_of({"pub": other}) != composed
        reordered = without({"n": 1, "board": [1, 2]}, "none")
        assert digest_of({"pub": reordered}) != composed
    # outside a scope the same data is digested whole: another key, the same text (a cache miss at worst)
    assert digest_of({"pub": {"board": [1, 2], "n": 1}}) is not None
    assert digest({"board": [1, 2], "n": 1}) != digest({"board": [1, 2], "n": 1.0})
