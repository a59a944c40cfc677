"""Founding Fathers' board picture shows what the view says, and nothing private."""
from __future__ import annotations

import pytest
from seekit import FF, after, last_turn, texts, views

from referee_games.founding_fathers import RULES
from referee_games.founding_fathers.edition import STATES

LAST = last_turn(FF)
WORD = {"en": {"yea": "YEA", "nay": "NAY", None: "open"}, "de": {"yea": "JA", "nay": "NEIN", None: "offen"}}


@pytest.fixture(scope="module")
def seen():
    return views(FF, [1, 30, LAST])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_state_shows_its_vote_on_the_tracker(seen, lang):
    for number, view in seen.items():
        drawn = texts(RULES.picture(view, lang))
        tracker = view["public"]["assembly"]["tracker"]
        assert [s for s in drawn if s in STATES] == list(STATES)
        for state in STATES:
            assert after(drawn, state) == WORD[lang][tracker[state]], (number, state)


def test_the_sample_at_turn_30_has_votes_on_both_sides(seen):
    tracker = seen[30]["public"]["assembly"]["tracker"]
    assert {"yea", "nay", None} <= set(tracker.values())


def test_a_delegation_shows_its_controller_under_the_state(seen):
    view = seen[30]
    drawn = texts(RULES.picture(view, "en"))
    controlled = [dl for dl in view["public"]["assembly"]["delegations"] if dl["controller"]]
    assert controlled
    for dl in controlled:
        at = drawn.index(dl["state"])
        assert drawn[at + 2] == dl["controller"]


def test_the_yea_and_nay_counts_against_their_need(seen):
    pub = seen[30]["public"]["assembly"]
    drawn = texts(RULES.picture(seen[30], "en"))
    assert f"YEA {pub['yea']}/7" in drawn and f"NAY {pub['nay']}/6" in drawn


def test_scores_committee_markers_and_debate_positions(seen):
    for view in seen.values():
        pub = view["public"]
        drawn = texts(RULES.picture(view, "en"))
        scores = drawn[drawn.index("Scores"):]
        for p in pub["players"]:
            assert after(scores, p["id"]) == str(p["score"])
        for p, n in pub["committee"]["markers"].items():
            assert f"{p}: {n}" in drawn
        for track in pub["debate"].values():
            for m in track:
                assert f"{m['player']} {m['position']}" in drawn


def test_the_articles_on_the_table_are_named_in_the_readers_language(seen):
    pub = seen[30]["public"]
    en, de = "".join(texts(RULES.picture(seen[30], "en"))), "".join(texts(RULES.picture(seen[30], "de")))
    assert pub["assembly"]["article"]["title"]["en"] in en
    assert pub["assembly"]["article"]["title"]["de"] in de
    assert "Versammlungszimmer" in de and "Assembly Room" in en


def test_the_final_picture_names_the_winner(seen):
    pub = seen[LAST]["public"]
    drawn = " ".join(texts(RULES.picture(seen[LAST], "en")))
    assert pub["outcome"]["winners"] and f"won by {pub['outcome']['winners'][0]}" in drawn


def test_a_players_picture_is_the_public_one_and_names_no_card_in_hand():
    mine = views(FF, [30], viewer="wilson")[30]
    assert RULES.picture(mine, "en") == RULES.picture(views(FF, [30])[30], "en")
    drawn = " ".join(texts(RULES.picture(mine, "en")))
    assert not any(card["name"] in drawn for card in mine["private"]["hand"])


def test_standings_are_the_scores(seen):
    pub = seen[LAST]["public"]
    assert RULES.standings(seen[LAST]) == {"score": {p["id"]: p["score"] for p in pub["players"]}}
