"""The game through the referee's contract: full random games, persistence,
privacy of views, the edition schema and the report templates."""
import json
from pathlib import Path

import jinja2
import pytest
from ffkit import board, put_delegation

from referee.game_api.contract import GM, GameRules, Rng, derive_seed, state_hash
from referee.render.shared import SharedExtension
from referee_games.founding_fathers import RULES, random_orders
from referee_games.founding_fathers.edition import DEFAULT

SEATS = ["ada", "bert", "cleo", "dora", "emil"]
TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def full_game(n: int, seed: str, each=None):
    st = RULES.setup(SEATS[:n], {}, Rng(derive_seed(seed, "setup")))
    hashes = [state_hash(RULES, st)]
    for turn in range(1, 3000):
        aw = RULES.awaiting(st)
        if not aw:
            return st, hashes
        orders = {}
        for p, stage in sorted(aw.items()):
            raw = random_orders(st, p, Rng(derive_seed(seed, f"orders:{turn}:{p}")))
            model = RULES.order_schema(st, stage).model_validate(raw)
            assert not [x for x in RULES.validate(st, p, model) if x.is_error], (turn, raw)
            orders[p] = model
        before = json.dumps(RULES.dump(st), sort_keys=True)
        res = RULES.resolve(st, orders, Rng(derive_seed(seed, turn)))
        assert json.dumps(RULES.dump(st), sort_keys=True) == before, "resolve mutated its input"
        if each:
            each(st, res)
        st = res.state
        hashes.append(state_hash(RULES, st))
    pytest.fail("no end")


def test_rules_object_satisfies_the_contract():
    assert isinstance(RULES, GameRules)
    assert RULES.languages == ("en", "de") and (RULES.min_players, RULES.max_players) == (3, 5)
    for code, texts in RULES.messages.items():
        assert set(texts) == {"en", "de"}, code


# Final scores of the fixed-seed games: a change to any rule, card or random
# choice shows up here (update deliberately, with the reason in the commit).
PINNED = {3: {"ada": 17, "bert": 18, "cleo": 16},
          4: {"ada": 24, "bert": 21, "cleo": 10, "dora": 10},
          5: {"ada": 10, "bert": 9, "cleo": 10, "dora": 9, "emil": 18}}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_full_game_is_reproducible(n):
    first, h1 = full_game(n, f"fixed-{n}")
    assert first.d["outcome"]["scores"] == PINNED[n]
    second, h2 = full_game(n, f"fixed-{n}")
    assert h1 == h2
    out = first.d["outcome"]
    assert out == second.d["outcome"] and set(out["scores"]) == set(SEATS[:n])
    assert len(first.d["resolved"]) == 12 and first.d["round"] == 4
    assert RULES.awaiting(first) == {}
    other, h3 = full_game(n, f"other-{n}")
    assert h3 != h1


def test_dump_load_round_trip_and_views_keep_hands_private():
    seen = {"turns": 0}

    def each(st, res):
        seen["turns"] += 1
        data = RULES.dump(st)
        assert RULES.dump(RULES.load(json.loads(json.dumps(data)))) == data
        if seen["turns"] % 7:
            return
        players = st.d["players"]
        pub = RULES.view(st, None)
        assert pub["private"] == {}
        for p in players:
            v = RULES.view(st, p)
            mine = {c["id"] for c in v["private"]["hand"]}
            assert mine == set(st.d["hands"][p])
            public = dict(v["public"])
            public.pop("roster")            # the edition's card list, the same for everyone
            text = json.dumps([public, v["private"]])
            for q in players:
                if q != p:
                    for c in st.d["hands"][q]:
                        if c in st.d["planners"]:
                            continue        # a planner's back (state + planner icon) names him anyway
                        assert f'"{c}"' not in text, f"{p} sees {q}'s {c}"
        gm = RULES.view(st, GM)
        assert set(gm["private"]["hands"]) == set(players)
        for e in res.log:
            json.dumps(e.to_json())
            if e.kind in ("took_cards", "drew_cards", "peeked_cards", "kept", "card_taken_front"):
                assert e.visible_to is not None

    full_game(4, "views", each)
    assert seen["turns"] > 20


def test_custom_edition_from_options_and_schema_errors():
    raw = json.loads(json.dumps({
        "name": "gm", "title": "GM edition",
        "delegates": [{"id": c.id, "name": c.name, "state": c.state, "faction": c.faction, "source": c.source,
                       "persistent": c.persistent, "event": {"text": c.text, "steps": list(c.steps)}}
                      for c in DEFAULT.cards.values()],
        "articles": [{"id": a, "source": v["source"], "front": v["front"], "back": v["back"], "title": v["title"]}
                     for a, v in DEFAULT.articles.items()]}))
    raw["delegates"][0]["event"]["steps"] = [{"do": "score", "points": 9}]
    assert RULES.check_options(SEATS[:3], {"edition": raw}) == []
    st = RULES.setup(SEATS[:3], {"edition": raw}, Rng(1))
    assert st.ed.cards[raw["delegates"][0]["id"]].steps == ({"do": "score", "points": 9},)
    assert RULES.dump(RULES.load(RULES.dump(st))) == RULES.dump(st)
    bad = json.loads(json.dumps(raw))
    bad["articles"][0]["back"] = bad["articles"][0]["front"]
    assert [p.code for p in RULES.check_options(SEATS[:3], {"edition": bad})] == ["options.edition"]
    bad2 = json.loads(json.dumps(raw))
    bad2["delegates"][0]["event"]["steps"] = [{"do": "teleport"}]
    assert [p.code for p in RULES.check_options(SEATS[:3], {"edition": bad2})] == ["options.edition"]
    bad3 = json.loads(json.dumps(raw))
    ing = next(d for d in bad3["delegates"] if d["id"] == "ingersoll")
    ing["persistent"] = False
    assert [p.code for p in RULES.check_options(SEATS[:3], {"edition": bad3})] == ["options.edition"]
    assert [p.code for p in RULES.check_options(SEATS[:2], {})] == ["options.players"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_report_renders_with_strict_undefined(lang):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                             extensions=[SharedExtension])
    tpl = env.get_template(f"founding_fathers/report.{lang}.txt.j2")
    renders = []

    def render(res, viewer):
        return tpl.render(
            match={"id": "m1", "title": "Test", "game": "founding_fathers", "lang": lang, "timezone": "UTC"},
            turn=res.state.d["turn"], viewer=viewer, view=RULES.view(res.state, viewer),
            log=[{"kind": e.kind, "data": e.data} for e in res.log if e.visible_for(viewer)],
            missing=["bert"], players={p: {"name": p.title()} for p in res.state.d["players"]},
            outcome=res.outcome,
            order_form=RULES.order_form(res.state, viewer, lang) if viewer not in (None, GM) else "",
            next={"turn": 9, "deadline_local": "x", "deadline_utc": "y", "awaiting": RULES.awaiting(res.state)})

    def each(st, res):
        if len(renders) < 90 or res.outcome:
            for viewer in (res.state.d["players"][0], None, GM):
                text = render(res, viewer)
                assert ("ASSEMBLY ROOM" if lang == "en" else "VERSAMMLUNGSZIMMER") in text
                assert ": {" not in text, "a log entry kind without its own phrase"
                renders.append(text)

    full_game(3, f"render-{lang}", each)
    assert ("GAME OVER" if lang == "en" else "SPIELENDE") in renders[-1]


def test_order_form_is_yaml_listing_legal_choices():
    import yaml
    st = board(hands={"madison": ["madison", "ingersoll", "mifflin"]})
    form = RULES.order_form(st, "madison", "en")
    data = yaml.safe_load(form)
    assert data == {"take": [1, 2, 3]}   # sent back as it is: a snub of no card (a pass)
    assert "#   PA yea: ingersoll, mifflin" in form and "#   PA nay: mifflin" in form
    assert "# action: vote" in form and "# state: PA" in form
    assert "mifflin: Declare Mifflin" in form
    assert RULES.order_form(st, "paterson", "en") == ""
    de = RULES.order_form(st, "madison", "de")
    assert "Nachziehbereich" in de and yaml.safe_load(de) == {"take": [1, 2, 3]}
    model = RULES.order_schema(st, "action").model_validate(data)
    assert [p for p in RULES.validate(st, "madison", model) if p.is_error] == []


def test_cards_and_markers_are_conserved_in_random_play():
    from referee_games.founding_fathers.state import MARKERS_PER_COLOUR, free_markers

    def each(st, res):
        d = res.state.d
        assert "orders_replaced" not in [e.kind for e in res.log]   # validated orders always apply
        places = (d["deck"] + d["discard"] + d["pool"] + [c for h in d["hands"].values() for c in h]
                  + [c for h in d["dealt"].values() for c in h] + [c for _, c in d["persistent"]]
                  + [c for v in d["delegations"].values() for c in v["cards"]])
        assert sorted(places) == sorted(DEFAULT.cards)
        for p in d["players"]:
            assert 0 <= free_markers(d, p) and d["markers"][p] <= MARKERS_PER_COLOUR
        assert len(d["pool"]) == 3 or not d["deck"]

    for n in (3, 5):
        full_game(n, f"conserve-{n}", each)


def test_order_form_lists_each_events_choices():
    st = board(hands={"madison": ["bassett", "gerry", "washington"], "sherman": ["sherman", "king"]})
    put_delegation(st, "PA", "yea", ["clymer"], ctrl="paterson")
    st.d["hands"]["madison"].append("blair")
    form = RULES.order_form(st, "madison", "en")
    assert "#       targets (1-1): clymer" in form
    assert "#       player + position: paterson (1-1), sherman (1-2)" in form
    assert "#       side: yea | nay; delegates (may join): blair" in form
