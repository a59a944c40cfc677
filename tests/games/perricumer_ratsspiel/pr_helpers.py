"""Shared set-up for the Perricumer Ratsspiel tests."""
from __future__ import annotations

import copy

from referee.game_api.contract import GM, Rng
from referee_games.perricumer_ratsspiel import RULES
from referee_games.perricumer_ratsspiel.orders import SessionOrders

ALL_CARDS = ["familienstern", "fremdes_revier", "fremde_schichten", "aufstaende",
             "klassenkampf", "entfuehrung", "marionette", "kaiserhof"]


def new_game(members=None, cards=None, agendas=None, **options):
    members = members or {"p1": "alrik", "p2": "efferdan"}
    opts = {"members": members, **options}
    opts["cards"] = cards or {p: ["familienstern", "marionette", "kaiserhof"] for p in members}
    if agendas:
        opts["agendas"] = agendas
    assert RULES.check_options(list(members), opts) == []
    return RULES.setup(list(members), opts, Rng(7))


def session_state(session, members=None, cards=None, **changes):
    """A state in round 2 with ``session`` up for the vote."""
    s = new_game(members, cards)
    s = copy.deepcopy(s)
    s["round"] = 2
    s["session"] = list(session)
    s["selection"] = [n for n in s["selection"] if n not in session]
    for key, value in changes.items():
        s[key] = value
    return s


def orders(**kw) -> SessionOrders:
    return SessionOrders.model_validate(kw)


def votes_all(s, choice="pro"):
    return {nr: choice for nr in s["session"]}


def play(s, by_player: dict, seed=1):
    """Resolve one session; players not named send only an empty document."""
    full = {p: orders(**by_player.get(p, {})) for p in s["players"]}
    return RULES.resolve(s, full, Rng(seed))


def record(state, nr):
    return next(p for p in state["last"]["proposals"] if p["nr"] == nr)


def gm_entries(res, kind):
    return [e for e in res.log if e.kind == kind and e.visible_for(GM)]


ESTATES = ["klerus", "magus", "patrizier", "buergerschaft", "seeleute", "militaer"]


def add_proposal(s, nr, pro=(), contra=(), value="zufriedenheit", direction="up", kind="vorschlag", **extra):
    """Put a made-up proposal into the state (e.g. one every estate favours)."""
    s["proposals"][str(nr)] = {"nr": nr, "title": {"de": f"Vorschlag {nr}", "en": f"Proposal {nr}"},
                               "kind": kind, "value": value, "direction": direction, "pro": list(pro),
                               "contra": list(contra), "office": extra.get("office"),
                               "candidates": extra.get("candidates", []), "source": "test"}
    return nr


def consensus_state(extra_pro=(), members=None, cards=None, without=()):
    """Round 2 with proposal 99 on the agenda: every estate (but ``without``)
    is on its pro side, so every NPC leans pro."""
    s = session_state([], members=members or {"p1": "alrik", "p2": "sarina"}, cards=cards)
    add_proposal(s, 99, pro=[e for e in ESTATES if e not in without] + list(extra_pro))
    s["session"] = [99]
    return s
