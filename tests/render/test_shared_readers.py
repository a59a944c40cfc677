"""Every reader of a turn shares the public parts of its report: a part is given only what it
reads, so what differs between readers elsewhere (Founding Fathers' "since your last turn")
does not make each reader render it again."""
from __future__ import annotations

import jinja2
import pytest
from test_renderer_warm import game_reports

from referee.render.renderer import Renderer
from referee.render.shared import PartCache, SharedExtension, without

# (game, environments with a shared part): 1848's HTML report has none
SHARING = [("founding_fathers", ("text_env", "html_env")), ("perricumer_ratsspiel", ("text_env", "html_env")),
           ("nations_dice", ("text_env", "html_env")), ("revolution_1848", ("text_env",))]


@pytest.mark.parametrize("game,envs", SHARING)
@pytest.mark.parametrize("turns", [2, 4])
def test_every_reader_of_a_turn_shares_one_rendering_of_the_public_part(game, envs, turns):
    r = Renderer()
    reports = game_reports(r, game, "en", turns)
    for name in envs:
        parts = getattr(r, name).shared_parts
        assert (parts.misses, parts.hits) == (1, len(reports) - 1), name


@pytest.mark.parametrize("game", [g for g, _ in SHARING])
def test_shared_reports_are_the_reports_of_a_renderer_that_shares_nothing(game):
    fresh = Renderer()
    for env in (fresh.text_env, fresh.html_env):
        env.shared_parts = PartCache(entries=0)
    for lang in ("en", "de"):
        assert game_reports(Renderer(), game, lang, 4) == game_reports(fresh, game, lang, 4)


def test_without_copies_the_dict_without_the_keys():
    d = {"a": 1, "b": {"c": 2}, "d": 3}
    assert without(d, "a", "missing") == {"b": {"c": 2}, "d": 3}
    assert d == {"a": 1, "b": {"c": 2}, "d": 3}


def test_a_part_given_a_value_without_a_key_cannot_read_that_key():
    e = jinja2.Environment(loader=jinja2.DictLoader({"t": "{% shared p=p | without('x') %}{{ p.x }}{% endshared %}"}),
                           undefined=jinja2.StrictUndefined, extensions=[SharedExtension])
    with pytest.raises(jinja2.UndefinedError):
        e.get_template("t").render(p={"x": 1})


def test_readers_that_differ_only_in_a_left_out_key_share_the_part():
    e = jinja2.Environment(loader=jinja2.DictLoader({"t": "{% shared p=p | without('mine') %}{{ p.n }}{% endshared %}"}),
                           undefined=jinja2.StrictUndefined, extensions=[SharedExtension])
    t = e.get_template("t")
    assert [t.render(p={"n": 5, "mine": m}) for m in (1, 2, 3)] == ["5"] * 3
    assert (e.shared_parts.misses, e.shared_parts.hits) == (1, 2)
