"""The three ends: common defeat at Korruption 13, Machtübernahme, and the
vote for Reichsvogt after the last round with its tie-breaks."""
from pr_helpers import consensus_state, gm_entries, new_game, play, session_state

from referee.game_api.contract import Rng
from referee_games.perricumer_ratsspiel import council as C
from referee_games.perricumer_ratsspiel.session import GameOver, settle


def _effects():
    return {"double": [], "extra": {}, "absent": {}, "puppets": {}, "kaiserhof": [], "kidnapped": []}


def test_korruption_13_after_a_vote_without_result_all_players_lose():
    s = session_state([1], members={"p1": "alrik"}, korruption=12)
    ids = C.member_ids(s)
    votes = {"1": {m: ("pro" if i < 9 else "contra") for i, m in enumerate(ids)}}   # 4+8×2 = 20 : 20
    rec = {"proposals": [], "korruption_steps": [], "offices_lost": []}
    try:
        settle(s, votes, _effects(), [], rec, Rng(1))
        raise AssertionError("the game should have ended")
    except GameOver:
        pass
    assert rec["proposals"][0]["tally"] == {"pro": 20, "contra": 20} and rec["proposals"][0]["result"] is None
    assert s["korruption"] == 13
    assert s["outcome"]["reason"] == "korruption" and s["outcome"]["winners"] == []


def test_korruption_13_from_a_gap_in_the_selection_ends_the_game_and_nobody_is_awaited():
    from referee_games.perricumer_ratsspiel import RULES
    s = new_game({"p1": "alrik", "p2": "sarina"})
    s["korruption"] = 12
    res = play(s, {"p1": {"auswahl": 3}, "p2": {"auswahl": 3}})
    assert res.outcome["reason"] == "korruption" and res.outcome["winners"] == []
    assert RULES.awaiting(res.state) == {}


def test_takeover_needs_twenty_and_the_second_and_third_together():
    assert C.takeover_candidates({"a": 20, "b": 15, "c": 6}) == []
    assert C.takeover_candidates({"a": 21, "b": 15, "c": 6}) == ["a"]
    assert C.takeover_candidates({"a": 19, "b": 0, "c": 0}) == []


def test_machtuebernahme_by_a_player_wins_at_once():
    s = consensus_state()
    s["influence"].update(alrik=30, sarina=10, efferdan=5)
    res = play(s, {})
    assert res.outcome["reason"] == "machtuebernahme" and res.outcome["winners"] == ["p1"]
    assert res.state["last"]["proposals"] == []          # at once: before the votes


def test_machtuebernahme_by_an_npc_means_no_player_wins():
    s = consensus_state()
    s["influence"]["wallgrin"] = 25
    res = play(s, {})
    assert res.outcome["winner_member"] == "wallgrin" and res.outcome["winner_npc"] is True
    assert res.outcome["winners"] == []


def test_agenda_bonus_counts_and_is_revealed_only_when_it_decides_the_win():
    s = consensus_state()
    s["agendas"]["p1"] = "gelehrt"                     # +6 while Wissenschaft > 13
    s["values"]["wissenschaft"] = 14
    s["influence"]["alrik"] = 16
    res = play(s, {})
    assert res.outcome["reason"] == "machtuebernahme" and res.outcome["winners"] == ["p1"]
    assert res.state["revealed"] == ["p1"] and res.outcome["scores"]["p1"] == 22
    s["influence"]["alrik"] = 25
    res = play(s, {})
    assert res.outcome["winners"] == ["p1"] and res.state["revealed"] == []


def _last_round(s):
    s["round"] = s["campaign"]["rounds"]
    s["session"] = []
    return s


def test_most_influence_after_the_last_round_wins_and_agendas_are_revealed():
    s = _last_round(new_game({"p1": "alrik", "p2": "sarina"}))
    s["influence"].update(alrik=12, sarina=14)
    s["agendas"] = {"p1": "gelehrt", "p2": "volk"}
    s["values"]["wissenschaft"] = 15                   # p1's +6 holds: 18 > 14
    res = play(s, {})
    assert res.outcome["reason"] == "wahl" and res.outcome["winners"] == ["p1"]
    assert res.outcome["scores"] == {"p1": 18, "p2": 14}
    assert res.state["revealed"] == ["p1", "p2"]


def test_final_tie_goes_to_more_event_cards_left_then_to_lot():
    s = _last_round(new_game({"p1": "alrik", "p2": "sarina"}))
    s["influence"].update(alrik=12, sarina=12)
    s["cards"] = {"p1": ["kaiserhof"], "p2": ["kaiserhof", "marionette"]}
    res = play(s, {})
    assert res.outcome["winners"] == ["p2"] and not gm_entries(res, "lot")
    s["cards"] = {"p1": ["kaiserhof"], "p2": ["marionette"]}
    winners = set()
    for seed in range(8):
        res = play(s, {}, seed=seed)
        lots = [e for e in gm_entries(res, "lot") if e.data["why"] == "gleichstand"]
        assert lots and lots[0].data["among"] == ["alrik", "sarina"]
        winners.add(res.outcome["winners"][0])
    assert winners == {"p1", "p2"}
