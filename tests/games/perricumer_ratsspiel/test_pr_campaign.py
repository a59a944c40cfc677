"""The sample campaign, option checks, the contract's invariants and a whole
campaign played by scripted players from a fixed seed."""
import json
from pathlib import Path

import pytest
import yaml

from referee.game_api.contract import GM, Rng, canonical_json, derive_seed, state_hash
from referee_games.perricumer_ratsspiel import RULES, random_orders
from referee_games.perricumer_ratsspiel.campaign import load_campaign

PLAYERS = ["anna", "bert", "carla", "dora", "emil"]


def test_sample_campaign_is_complete_and_marked_as_sample():
    c = load_campaign(None)
    assert c.sample is True and "SAMPLE CAMPAIGN" in (Path(load_campaign.__code__.co_filename).parent / "sample_campaign.yaml").read_text()
    assert [sum(m.rank == r for m in c.members) for r in ("reichsvogt", "zwoelferrat", "zwoelferbeirat")] == [1, 12, 12]
    assert len(c.proposals) >= 30 and len(c.offices) >= 3 and len(c.agendas) >= len(PLAYERS)
    assert c.viertel["efferdgrund"] == "Efferdgrund & Kriegshafen"
    names = {m.name for m in c.members}
    assert {"Efferdan dylli Turakis", "Wallgrîn von Perricum", "Alrik Sturmfels"} <= names
    assert sum(RULES_votes(m.rank) for m in c.members) == 40


def RULES_votes(rank):
    from referee_games.perricumer_ratsspiel.campaign import RANK_VOTES
    return RANK_VOTES[rank]


def test_a_broken_campaign_is_refused_by_check_options():
    data = yaml.safe_load(open(load_campaign.__code__.co_filename.replace("campaign.py", "sample_campaign.yaml")))
    data["members"] = data["members"][:-1]
    probs = RULES.check_options(["a"], {"campaign": data})
    assert [p.code for p in probs] == ["options.campaign"] and probs[0].is_error
    data = yaml.safe_load(open(load_campaign.__code__.co_filename.replace("campaign.py", "sample_campaign.yaml")))
    data["proposals"][0]["pro"] = ["atlantis"]
    assert [p.code for p in RULES.check_options(["a"], {"campaign": data})] == ["options.campaign"]


def test_members_option_is_checked():
    assert RULES.check_options(["a", "b"], {"members": {"a": "alrik", "b": "alrik"}})[0].code == "options.members"
    assert RULES.check_options(["a"], {"members": {"a": "wallgrin"}})[0].code == "options.members"
    assert RULES.check_options(["a"], {"members": {"a": "nobody"}})[0].code == "options.members"
    assert RULES.check_options(["a", "b"], {"members": {"a": "alrik"}})[0].code == "options.members"
    assert RULES.check_options(["a"], {"agendas": {"a": "xyz"}})[0].code == "options.agendas"
    assert RULES.check_options(["a"], {"members": {"a": "efferdan"}}) == []


def test_setup_follows_the_seed():
    s = RULES.setup(PLAYERS, {}, Rng(3))
    assert set(s["values"].values()) == {10} and len(s["values"]) == 7 and s["korruption"] == 0
    assert set(s["influence"].values()) == {0}
    assert len(s["selection"]) == 2 * len(PLAYERS)
    assert len(set(s["agendas"].values())) == len(PLAYERS)          # distinct, by lot
    assert s["players"] == {"anna": "odoardo", "bert": "sarina", "carla": "yargunde",
                            "dora": "alrik", "emil": "makil"}          # roster order without `members`
    assert RULES.awaiting(s) == {p: "session" for p in PLAYERS}
    s = RULES.setup(["zoe", "alrik", "boronian"], {}, Rng(3))
    assert s["players"] == {"alrik": "alrik", "boronian": "boronian", "zoe": "odoardo"}   # ids naming councillors


def _play(seed: str, players=PLAYERS, options=None):
    rules = RULES
    state = rules.setup(players, options or {}, Rng(derive_seed(seed, "setup")))
    hashes = [state_hash(rules, state)]
    turn = 0
    outcome = None
    while rules.awaiting(state):
        turn += 1
        prng = Rng(derive_seed(seed, f"players-{turn}"))
        orders = {}
        for p, stage in sorted(rules.awaiting(state).items()):
            data = random_orders(state, p, prng)
            model = rules.order_schema(state, stage).model_validate(yaml.safe_load(yaml.safe_dump(data)))
            probs = rules.validate(state, p, model)
            assert not [x for x in probs if x.is_error], probs
            assert not [x for x in probs if not x.code.startswith(("vote.missing", "picks"))], probs
            orders[p] = model
        before = canonical_json(rules.dump(state))
        res = rules.resolve(state, orders, Rng(derive_seed(seed, turn)))
        assert canonical_json(rules.dump(state)) == before              # input untouched
        state = res.state
        d = rules.dump(state)
        assert rules.dump(rules.load(json.loads(json.dumps(d)))) == d
        hashes.append(state_hash(rules, state))
        outcome = res.outcome
        assert turn <= 60
    return hashes, outcome, state


def test_whole_sample_campaign_by_scripted_players_is_reproducible():
    h1, out1, st = _play("perricum-1037")
    h2, out2, _ = _play("perricum-1037")
    assert h1 == h2 and out1 == out2
    assert out1 is not None and out1["reason"] in ("wahl", "machtuebernahme", "korruption")
    assert set(out1["scores"]) == set(PLAYERS)
    h3, _, _ = _play("perricum-1038")
    assert h3 != h1


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_scripted_games_end_and_views_are_json_safe(seed):
    _, outcome, st = _play(seed, players=["x", "y", "z"])
    assert outcome is not None and RULES.awaiting(st) == {}
    for viewer in ("x", GM, None):
        json.dumps(RULES.view(st, viewer))
    assert RULES.order_form(st, "x", "de") == ""


def test_view_is_an_allow_list():
    s = RULES.setup(["x", "y"], {"members": {"x": "alrik", "y": "efferdan"}}, Rng(1))
    px, py, obs, gm = (RULES.view(s, v) for v in ("x", "y", None, GM))
    assert px["private"]["agenda"]["id"] == s["agendas"]["x"]
    assert s["agendas"]["y"] not in json.dumps(px) or s["agendas"]["y"] == s["agendas"]["x"]
    assert obs["private"] == {} and px["public"] == obs["public"] == py["public"]
    assert set(gm["private"]["players"]) == {"x", "y"}
    assert "agendas" not in px["public"] and px["public"]["revealed_agendas"] == []


def test_order_form_is_the_copy_template_prefilled_and_parses():
    s = RULES.setup(["x", "y"], {"members": {"x": "alrik", "y": "efferdan"},
                                 "cards": {"x": ["familienstern", "marionette", "kaiserhof"],
                                           "y": ["aufstaende", "klassenkampf", "entfuehrung"]}}, Rng(1))
    s = RULES.resolve(s, {}, Rng(2)).state
    for lang in ("de", "en"):
        text = RULES.order_form(s, "y", lang)
        data = yaml.safe_load(text)
        assert set(data) == {"spielerfigur", "aktionen", "abstimmung", "auswahl"}   # no card: none is played
        assert set(data["abstimmung"]) == set(s["session"])
        model = RULES.order_schema(s, "session").model_validate(data)
        assert [p for p in RULES.validate(s, "y", model)] == []
    assert "Efferdan dylli Turakis" in RULES.order_form(s, "y", "de")
    assert "Kaiserhofe" in RULES.order_form(s, "x", "de")


def test_a_short_deck_warns_and_a_long_match_with_many_players_still_ends():
    probs = RULES.check_options([f"p{i}" for i in range(10)], {})
    assert [(p.code, p.severity) for p in probs] == [("options.deck", "warning")]
    assert probs[0].params == {"have": 48, "need": 80}
    players = [f"p{i:02d}" for i in range(12)]
    _, outcome, st = _play("many", players=players)
    assert outcome is not None and st["deck"] == []


def test_views_keep_the_seeds_order_of_city_values_after_a_json_round_trip():
    s = RULES.setup(["x"], {}, Rng(1))
    again = RULES.load(json.loads(json.dumps(RULES.dump(s), sort_keys=True)))
    assert [v["id"] for v in RULES.view(again, None)["public"]["values"]] == [
        "zufriedenheit", "truppenstaerke", "ordnung", "stadtkasse", "seehandel", "landhandel", "wissenschaft"]
