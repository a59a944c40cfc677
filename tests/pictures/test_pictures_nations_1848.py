"""The pictures of Nations: The Dice Game and 1848 show what the public view
says, nothing private, and render to PNG (kept in tests/pictures/out/)."""
from __future__ import annotations

import pytest
from seekit import OUT, SAMPLES, after, colours_in, last_turn, png_size, texts, views

from referee.game_api.contract import GM
from referee.pictures import board as pictures
from referee_games.nations_dice import RULES as NATIONS
from referee_games.revolution_1848 import RULES as R1848

ND = SAMPLES / "demo-nations_dice"
RV = SAMPLES / "demo-revolution_1848"
ND_LAST, RV_LAST = last_turn(ND), last_turn(RV)
ND_TURNS, RV_TURNS = (3, 12, ND_LAST), (5, 50, RV_LAST)


@pytest.fixture(scope="module")
def nations():
    return views(ND, ND_TURNS)


@pytest.fixture(scope="module")
def revolution():
    return views(RV, RV_TURNS)


def panel(drawn: list[str], heading: str, nth: int = 0) -> list[str]:
    """The texts drawn after the ``nth`` text that reads ``heading``."""
    at = [i for i, t in enumerate(drawn) if t == heading][nth]
    return drawn[at + 1:]


# --- Nations: The Dice Game -------------------------------------------------------

@pytest.mark.parametrize("lang, vp", [("en", "VP"), ("de", "SP")])
def test_nations_every_board_tile_with_its_vp_and_cost(nations, lang, vp):
    for view in nations.values():
        drawn = texts(NATIONS.picture(view, lang))
        for column in view["public"]["board"]:
            for slot in column["rows"]:
                if slot["tile"]:
                    assert after(drawn, slot["tile"]["name"][lang]) == f"{slot['tile']['vp']} {vp}"
                    assert drawn[drawn.index(slot["tile"]["name"][lang]) + 2].startswith(f"{slot['cost']} ")


def test_nations_the_age_and_its_event(nations):
    for view in nations.values():
        pub = view["public"]
        drawn = texts(NATIONS.picture(view, "en"))
        assert drawn[0] == f"Nations: The Dice Game · Age {pub['age']}/4"
        ev = pub["event"]
        assert f"Event: {ev['name']['en']} · food {ev['food']} · strength {ev['strength']} · {ev['vp']} VP" in drawn


def test_nations_each_players_culture_vp_and_markers(nations):
    words = {"book": "Books", "food": "Food", "stone": "Stone", "gold": "Gold", "strength": "Strength"}
    for view in nations.values():
        drawn = texts(NATIONS.picture(view, "en"))
        for q in view["public"]["players"]:
            own = panel(drawn, q["id"])
            assert after(own, "Culture") == str(q["culture"])
            assert after(own, "VP") == str(q["vp"])
            assert after(own, "VP from tiles") == str(q["tile_vp"])
            for kind, word in words.items():
                m = q["markers"].get(kind, {"available": 0, "held": 0})
                assert after(own, word) == f"{m['available']}/{m['held']}"


def test_nations_developments_advisor_and_colonies_by_name(nations):
    view = nations[ND_LAST]
    drawn = texts(NATIONS.picture(view, "de"))
    for q in view["public"]["players"]:
        own = panel(drawn, q["id"])
        devs = [d["tile"]["name"]["de"] for d in q["developments"] if d["tile"]]
        assert after(own, "Entwicklungen") == (", ".join(devs) or "—")
        assert after(own, "Kolonien") == (", ".join(t["name"]["de"] for t in q["colonies"]) or "—")
        assert after(own, "Gebaute Wunder") == (", ".join(t["name"]["de"] for t in q["built"]) or "—")
        if q["advisor"]:
            assert after(own, "Berater") == q["advisor"]["name"]["de"]


def test_nations_the_picture_is_the_same_for_every_viewer_and_shows_no_plan():
    public = views(ND, [3])[3]
    assert NATIONS.picture(public, "en") == NATIONS.picture(views(ND, [3], GM)[3], "en")
    for p in public["public"]["order"]:
        own = views(ND, [3], p)[3]
        # a pending plan of the reader's own (the demo's bots send plans of one step, run at once)
        own["private"]["plan"] = own["private"]["plan"] or ["buy: Hanging Gardens", "reroll", "ask"]
        svg = NATIONS.picture(own, "en")
        assert svg == NATIONS.picture(public, "en")
        for step in own["private"]["plan"]:
            assert str(step) not in svg


def test_nations_standings_are_vp_and_culture(nations):
    view = nations[ND_LAST]
    st = NATIONS.standings(view)
    assert st["vp"] == view["public"]["outcome"]["scores"]
    assert st["culture"] == {q["id"]: q["culture"] for q in view["public"]["players"]}
    assert NATIONS.messages["standings.vp"]["de"] == "Siegpunkte"


# --- 1848 --------------------------------------------------------------------------

def test_1848_every_person_on_the_table_with_its_value_and_party_sums(revolution):
    for view in revolution.values():
        drawn = texts(R1848.picture(view, "de"))
        for t in view["public"]["table"]:
            own = panel(drawn, t["player"])
            for here in t["parties"].values():
                assert str(here["sum"]) in own[:40]
            for person in t["persons"]:
                shown = [i for i, x in enumerate(own[:60]) if x.startswith(person["name"][:12])]
                assert shown and own[shown[0] + 1] == str(person["value"])


def test_1848_tallies_per_player_and_party_totals(revolution):
    for view in revolution.values():
        pub = view["public"]
        drawn = texts(R1848.picture(view, "en"))
        for p in pub["players"]:
            row = panel(drawn, p["id"], 1)[:4]
            assert row == [str(p["tally"][q]) for q in ("RR", "DL", "L", "R")]
        assert panel(drawn, "Total")[:4] == [str(pub["party_totals"][q]) for q in ("RR", "DL", "L", "R")]


def test_1848_ablaufkarten_won_per_player(revolution):
    view = revolution[RV_LAST]
    pub = view["public"]
    drawn = texts(R1848.picture(view, "en"))
    for p in pub["players"]:
        won = panel(drawn, p["id"], 2)
        assert won[0] == str(len(p["won"]))
        assert won[1].startswith(pub["cards"][p["won"][0]]["name"][:20])
    assert f"score: {', '.join(f'{p} {n}' for p, n in pub['outcome']['scores'].items())}" in drawn


def test_1848_no_hand_is_drawn():
    public = views(RV, [50])[50]
    assert R1848.picture(public, "de") == R1848.picture(views(RV, [50], GM)[50], "de")
    for p in public["public"]["players"]:
        own = views(RV, [50], p["id"])[50]
        svg = R1848.picture(own, "de")
        assert svg == R1848.picture(public, "de")
        assert own["private"]["hand"]
        for card in own["private"]["hand"]:
            assert public["public"]["cards"][card]["name"] not in svg


def test_1848_standings_are_points_noted_ablaufkarten_and_final_score(revolution):
    pub = revolution[50]["public"]
    st = R1848.standings(revolution[50])
    assert st == {"noted": {p["id"]: sum(p["tally"].values()) for p in pub["players"]},
                  "ablauf": {p["id"]: len(p["won"]) for p in pub["players"]}}
    assert any(st["noted"].values()) and "score" not in st   # points noted by turn 50, the game not over
    final = revolution[RV_LAST]["public"]["outcome"]["scores"]
    assert R1848.standings(revolution[RV_LAST])["score"] == final and any(final.values())


# --- both: to PNG ------------------------------------------------------------------

@pytest.mark.parametrize("rules, sample, numbers, width",
                         [(NATIONS, ND, ND_TURNS, 720), (R1848, RV, RV_TURNS, 720)])
def test_the_pictures_render_to_png(rules, sample, numbers, width):
    OUT.mkdir(parents=True, exist_ok=True)
    for number, view in views(sample, numbers).items():
        for lang in rules.languages:
            png = pictures.picture_png(rules, view, lang)
            assert png_size(png)[0] == width
            assert colours_in(png) > 50
            (OUT / f"{rules.name}-t{number:03d}.{lang}.png").write_bytes(png)
