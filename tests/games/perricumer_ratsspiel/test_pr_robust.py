"""Any order document the schema accepts is resolved: faulty parts only warn
and fall back to their Standardaktion (property test)."""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pr_helpers import ALL_CARDS, session_state

from referee.game_api.contract import Rng
from referee_games.perricumer_ratsspiel import RULES

IDS = ["efferdan", "alrik", "wallgrin", "sarina", "nobody", "pro", "contra", "retodan"]
NRS = st.sampled_from([1, 2, 3, 8, 99, -1, 0])
WORDS = st.sampled_from(IDS + ["neustadt", "klerus", "atlantis", ""])

card = st.one_of(st.none(), st.just("keine"), st.sampled_from(ALL_CARDS + ["joker"]),
                 st.fixed_dictionaries({"karte": st.sampled_from(ALL_CARDS + ["joker"])}, optional={
                     "viertel": WORDS, "schicht": WORDS, "ziel": WORDS, "vorschlag": NRS, "seite": WORDS,
                     "abstimmung": st.dictionaries(NRS, WORDS, max_size=3)}))
push = st.fixed_dictionaries({"ziel": WORDS, "vorschlag": NRS, "richtung": WORDS,
                              "punkte": st.integers(-2, 14)})
actions = st.one_of(st.none(), st.fixed_dictionaries({}, optional={
    "verwaltungsarbeit": st.integers(-3, 20), "wahlkampf": st.integers(-3, 20),
    "einflussnahme": st.lists(push, max_size=4)}))
document = st.fixed_dictionaries({}, optional={
    "ereigniskarte": card, "aktionen": actions, "abstimmung": st.dictionaries(NRS, WORDS, max_size=4),
    "auswahl": st.one_of(st.none(), st.integers(-1, 60)),
    "ereigniskarten": st.lists(st.sampled_from(ALL_CARDS + ["joker"]), max_size=4)})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=document, b=document, seed=st.integers(0, 10_000))
def test_any_schema_valid_orders_only_warn_and_resolve(a, b, seed):
    s = session_state([1, 8], members={"p1": "alrik", "p2": "efferdan"},
                      cards={"p1": ["aufstaende", "marionette", "kaiserhof"],
                             "p2": ["entfuehrung", "marionette", "fremdes_revier"]})
    orders = {}
    for player, doc in (("p1", a), ("p2", b)):
        model = RULES.order_schema(s, "session").model_validate(doc)
        assert all(p.severity == "warning" for p in RULES.validate(s, player, model))
        orders[player] = model
    before = json.dumps(s, sort_keys=True)
    res = RULES.resolve(s, orders, Rng(seed))
    assert json.dumps(s, sort_keys=True) == before
    st_ = res.state
    assert 0 <= st_["korruption"] and all(0 <= v <= 20 for v in st_["values"].values())
    assert all(len(c) <= 3 for c in st_["cards"].values())
    used = sum(e["punkte"] for e in (st_["last"]["private"]["p1"]["ap"]["einfluss"]))
    assert st_["last"]["private"]["p1"]["ap"]["ap_total"] <= 12 and used >= 0
    json.dumps(RULES.view(st_, "p1"))
