"""Every worked example of the seed (004), checked to the point."""
from pr_helpers import gm_entries, new_game, play, record, session_state

from referee.game_api.contract import Rng
from referee_games.perricumer_ratsspiel import council as C
from referee_games.perricumer_ratsspiel.phases import cast_votes
from referee_games.perricumer_ratsspiel.session import settle

LIEGEGEBUEHR = 1


def _empty_effects():
    return {"double": [], "extra": {}, "absent": {}, "puppets": {}, "kaiserhof": [], "kidnapped": []}


def test_efferdan_power_base_is_klerus_and_efferdgrund():
    s = new_game()
    m = C.members(s)["efferdan"]
    assert (m["viertel"], m["schicht"], m["rank"]) == ("efferdgrund", "klerus", "zwoelferbeirat")


def test_efferdan_speaks_contra_liegegebuehr_by_default():
    s = new_game({"p1": "alrik"})
    best, gains = C.inclination(s, "efferdan", s["proposals"][str(LIEGEGEBUEHR)])
    assert gains == {"pro": 0, "contra": 5}
    assert best == ["contra"] and C.LEVELS[C.initial_level(best)] == "contra"


def test_efferdan_one_ap_makes_random_two_ap_make_pro():
    assert C.LEVELS[C.pushed_level(0, 1, 0)] == "zufaellig"
    assert C.LEVELS[C.pushed_level(0, 2, 0)] == "pro"
    assert C.pushed_level(0, 5, 0) == 2          # no step beyond pro


def test_efferdan_pushed_two_pro_votes_pro_in_session():
    s = session_state([LIEGEGEBUEHR], members={"p1": "alrik"})
    res = play(s, {"p1": {"aktionen": {"einflussnahme": [
        {"ziel": "efferdan", "vorschlag": 1, "richtung": "pro", "punkte": 2}]}, "abstimmung": {1: "pro"}}})
    assert record(res.state, 1)["votes"]["efferdan"] == "pro"
    why = [r for e in gm_entries(res, "npc_votes") for r in e.data["reasons"] if r["member"] == "efferdan"][0]
    assert why["level"] == "pro" and why["lot"] is False and why["pushes"] == {"pro": 2}


def test_netting_two_pro_against_one_contra_leaves_efferdan_to_chance():
    assert C.LEVELS[C.pushed_level(0, 2, 1)] == "zufaellig"
    s = session_state([LIEGEGEBUEHR], members={"p1": "alrik", "p2": "sarina"})
    res = play(s, {
        "p1": {"aktionen": {"einflussnahme": [{"ziel": "efferdan", "vorschlag": 1, "richtung": "pro", "punkte": 2}]}},
        "p2": {"aktionen": {"einflussnahme": [{"ziel": "efferdan", "vorschlag": 1, "richtung": "contra", "punkte": 1}]}},
    })
    why = [r for e in gm_entries(res, "npc_votes") for r in e.data["reasons"] if r["member"] == "efferdan"][0]
    assert why["pushes"] == {"pro": 2, "contra": 1}
    assert why["level"] == "zufaellig" and why["lot"] is True


def test_verwaltungsarbeit_five_plus_three_lowers_korruption_by_three():
    assert C.verwaltung_reduction(8) == (3, 6)        # 1+2+3 = 6, two points lost
    s = session_state([LIEGEGEBUEHR], members={"p1": "alrik", "p2": "sarina"}, korruption=5)
    res = play(s, {"p1": {"aktionen": {"verwaltungsarbeit": 5}, "abstimmung": {1: "contra"}},
                   "p2": {"aktionen": {"verwaltungsarbeit": 3}, "abstimmung": {1: "contra"}}})
    v = res.state["last"]["verwaltung"]
    assert (v["points"], v["reduction"], v["before"], v["after"]) == (8, 3, 5, 2)


def test_wahlkampf_from_nine_to_eleven_for_six_ap():
    assert C.wahlkampf(9, 6) == (2, 6)       # 2 AP for the 10th point, 4 for the 11th
    assert [C.wahlkampf_cost(i) for i in (0, 9, 10, 19, 20, 30)] == [2, 2, 4, 4, 6, 8]
    s = session_state([], members={"p1": "alrik"})
    s["influence"]["alrik"] = 9
    res = play(s, {"p1": {"aktionen": {"wahlkampf": 6}}})
    assert res.state["influence"]["alrik"] == 11
    assert res.state["last"]["private"]["p1"]["ap"]["wahlkampf"] == {"ap": 6, "spent": 6, "from": 9, "gained": 2}


def _fourteen_to_twentysix(s):
    """Reichsvogt + the first five Zwölferrat members (4+5×2 = 14) vote pro."""
    ids = C.member_ids(s)
    return {str(LIEGEGEBUEHR): {m: ("pro" if i < 6 else "contra") for i, m in enumerate(ids)}}


def test_liegegebuehr_14_to_26_contra_carries_without_korruption_and_stadtkasse_sinks():
    s = session_state([LIEGEGEBUEHR], members={"p1": "makil"}, korruption=2)
    rec = {"proposals": [], "korruption_steps": [], "offices_lost": []}
    settle(s, _fourteen_to_twentysix(s), _empty_effects(), [], rec, Rng(1))
    rp = rec["proposals"][0]
    assert rp["tally"] == {"pro": 14, "contra": 26}
    assert rp["result"] == "contra"
    assert s["korruption"] == 2 and rec["korruption_steps"] == []
    assert rp["value"] == {"id": "stadtkasse", "before": 10, "after": 9}


def test_efferdan_gains_five_and_ten_when_he_selected_the_liegegebuehr():
    for picked, expected in ((False, 5), (True, 10)):
        s = session_state([LIEGEGEBUEHR], members={"p1": "efferdan"})
        s["picked"] = {str(LIEGEGEBUEHR): ["p1"]} if picked else {}
        rec = {"proposals": [], "korruption_steps": [], "offices_lost": []}
        settle(s, _fourteen_to_twentysix(s), _empty_effects(), [], rec, Rng(1))
        assert rec["proposals"][0]["symbol_gains"]["efferdan"] == expected


def test_doubling_is_only_for_zwoelferbeirat():
    s = session_state([LIEGEGEBUEHR], members={"p1": "sarina"})
    s["picked"] = {str(LIEGEGEBUEHR): ["p1"]}
    votes = {str(LIEGEGEBUEHR): {m: "pro" for m in C.member_ids(s)}}
    rec = {"proposals": [], "korruption_steps": [], "offices_lost": []}
    settle(s, votes, _empty_effects(), [], rec, Rng(1))
    assert rec["proposals"][0]["symbol_gains"]["sarina"] == 5     # Zwölferrat: not doubled


def test_kaemmerer_with_stadtkasse_14_gets_8_temporary_points():
    s = new_game({"p1": "efferdan"})
    s["offices"]["kaemmerer"]["holder"] = "efferdan"
    s["values"]["stadtkasse"] = 14
    assert C.office_bonus(s, "efferdan") == 8
    assert C.public_influence(s, "efferdan") == 8 and s["influence"]["efferdan"] == 0
    s["values"]["stadtkasse"] = 9
    assert C.office_bonus(s, "efferdan") == 0      # temporary: gone when the value falls


def test_cast_votes_uses_npc_inclination_without_persuasion():
    s = session_state([LIEGEGEBUEHR], members={"p1": "alrik"})
    read = {"p1": {"votes": {"1": "pro"}}}
    votes = cast_votes(s, read, _empty_effects(), {}, Rng(3), [])
    assert votes["1"]["efferdan"] == "contra" and votes["1"]["sarina"] == "pro"
    assert votes["1"]["alrik"] == "pro"


def test_agenda_example_plus_ten_while_stadtkasse_and_zufriedenheit_below_five():
    s = new_game({"p1": "alrik"}, agendas={"p1": "not"})
    s["values"].update(stadtkasse=4, zufriedenheit=4)
    assert C.agenda_bonus(s, "p1") == 10
    assert C.totals(s)["alrik"] == 10 and C.public_influence(s, "alrik") == 0   # secret: not public
    s["values"]["zufriedenheit"] = 5
    assert C.agenda_bonus(s, "p1") == 0


def test_council_has_forty_votes():
    s = new_game()
    assert sum(C.votes_of(m) for m in C.members(s).values()) == 40
    assert C.votes_of(C.members(s)["wallgrin"]) == 4 and C.votes_of(C.members(s)["alrik"]) == 2
