"""The Ratsspiel's council picture shows what the view says."""
from __future__ import annotations

import pytest
from seekit import RS, after, texts, views

from referee_games.perricumer_ratsspiel import RULES
from referee_games.perricumer_ratsspiel.council import KORRUPTION_LIMIT


@pytest.fixture(scope="module")
def seen():
    return views(RS, [1, 3, 8])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_city_value_stands_on_its_scale(seen, lang):
    for view in seen.values():
        drawn = texts(RULES.picture(view, lang))
        for v in view["public"]["values"]:
            assert after(drawn, v["name"][lang]) == str(v["value"])


def test_korruption_against_its_limit(seen):
    for view in seen.values():
        drawn = texts(RULES.picture(view, "de"))
        assert after(drawn, "Korruption") == f"{view['public']['korruption']}/{KORRUPTION_LIMIT}"


def test_every_councillors_influence_and_the_players_seats(seen):
    view = seen[3]
    drawn = texts(RULES.picture(view, "de"))
    for m in view["public"]["members"]:
        shown = drawn[drawn.index(m["name"]) + 1:][:2]
        assert shown[0] == str(m["total"])
        if m["player"]:
            assert shown[1] == m["player"]
    assert sum(1 for m in view["public"]["members"] if m["player"]) == 3


def test_each_vote_of_the_last_session_with_its_tally(seen):
    view = seen[3]
    drawn = texts(RULES.picture(view, "de"))
    joined = "\n".join(drawn)
    for p in view["public"]["last"]["proposals"]:
        assert f"{p['nr']}. {p['title']['de']}" in joined
        if p["kind"] != "wahl":
            assert f"dafür {p['tally']['pro']} : {p['tally']['contra']} dagegen" in joined


def test_offices_name_their_holder_or_vacancy(seen):
    view = seen[8]
    joined = "\n".join(texts(RULES.picture(view, "en")))
    for o in view["public"]["offices"]:
        assert f"{o['name']['en']}: {o['holder_name'] or 'vacant'}" in joined


def test_standings_are_influence_per_player_and_korruption(seen):
    st = RULES.standings(seen[8])
    assert set(st["influence"]) == {"alrik", "boronian", "cordovan"}
    assert st["korruption"] == {"city": seen[8]["public"]["korruption"]}


def test_the_heading_names_the_session_just_held(seen):
    for view in seen.values():
        pub = view["public"]
        heading = texts(RULES.picture(view, "de"))[0]
        assert heading.endswith(f"nach Sitzung {pub['last']['round']} von {pub['rounds']}")
