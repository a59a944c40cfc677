"""Pure arithmetic of the council: influence gains, NPC inclinations, the
costs of actions, bonuses and the win checks.  Everything takes the JSON
state dict and never changes it."""
from __future__ import annotations

from .campaign import RANK_VOTES

LEVELS = ("contra", "zufaellig", "pro")     # Einflussnahme moves one step per AP
TAKEOVER_MIN = 20
KORRUPTION_LIMIT = 13


def members(state: dict) -> dict[str, dict]:
    return {m["id"]: m for m in state["campaign"]["members"]}


def member_ids(state: dict) -> list[str]:
    """Roster order (Reichsvogt, Zwölferrat, Zwölferbeirat as the campaign lists them)."""
    return [m["id"] for m in state["campaign"]["members"]]


def votes_of(member: dict) -> int:
    return RANK_VOTES[member["rank"]]


def player_of(state: dict, member_id: str) -> str | None:
    for player, m in sorted(state["players"].items()):
        if m == member_id:
            return player
    return None


def npcs(state: dict) -> list[str]:
    played = set(state["players"].values())
    return [m for m in member_ids(state) if m not in played]


def own_symbols(member: dict) -> set[str]:
    return {member["viertel"], member["schicht"]}


def symbol_gain(symbols: set[str], side: list[str] | set[str]) -> int:
    """2 influence for one matching symbol, 5 for two (or more, with an
    event card's extra quarter/estate: the seed knows no higher step)."""
    n = len(symbols & set(side))
    return 0 if n == 0 else 2 if n == 1 else 5


def candidate_symbols(state: dict, candidate: str) -> set[str]:
    return own_symbols(members(state)[candidate])


def vote_gains(state: dict, member_id: str, proposal: dict) -> dict[str, int]:
    """What each possible vote would bring the member if it carried."""
    mems = members(state)   # read once: an election asks every candidate's symbols
    syms = own_symbols(mems[member_id])
    if proposal["kind"] == "wahl":
        return {c: symbol_gain(syms, own_symbols(mems[c])) for c in proposal["candidates"]}
    return {"pro": symbol_gain(syms, proposal["pro"]), "contra": symbol_gain(syms, proposal["contra"])}


def inclination(state: dict, member_id: str, proposal: dict) -> tuple[list[str], dict[str, int]]:
    """The choices that would gain an NPC the most influence (several = a tie,
    decided by lot) and the gains behind them."""
    gains = vote_gains(state, member_id, proposal)
    best = max(gains.values())
    return sorted(k for k, v in gains.items() if v == best), gains


def initial_level(best: list[str]) -> int:
    """Index into LEVELS of an NPC's own inclination on a Ratsvorschlag."""
    if best == ["pro"]:
        return 2
    if best == ["contra"]:
        return 0
    return 1


def pushed_level(initial: int, pro_points: int, contra_points: int) -> int:
    """All players' pushes are netted first, then applied step by step."""
    return max(0, min(2, initial + pro_points - contra_points))


def election_field(best: list[str], candidates: list[str], pushes: dict[str, int]) -> list[str]:
    """Candidates an NPC may vote for after persuasion: the majority of the
    players' persuasion points plus one point for a clear own preference;
    a tie among the leaders is left to lot."""
    score = {c: pushes.get(c, 0) for c in candidates}
    if len(best) == 1:
        score[best[0]] += 1
    top = max(score.values())
    if top == 0:
        return list(best)
    return sorted(c for c, v in score.items() if v == top)


def verwaltung_reduction(points: int) -> tuple[int, int]:
    """(Korruption reduction, points used): the k-th point costs k AP."""
    k = 0
    while (k + 1) * (k + 2) // 2 <= points:
        k += 1
    return k, k * (k + 1) // 2


def wahlkampf_cost(influence: int) -> int:
    """AP for the next point of influence: 2 in 0..9, 4 in 10..19, 6 in 20..29 …"""
    return 2 * (max(influence, 0) // 10 + 1)


def wahlkampf(influence: int, ap: int) -> tuple[int, int]:
    """(influence gained, AP spent); AP left over below the next price are lost."""
    gained = spent = 0
    while True:
        cost = wahlkampf_cost(influence + gained)
        if spent + cost > ap:
            return gained, spent
        spent += cost
        gained += 1


def office_bonus(state: dict, member_id: str) -> int:
    """Two temporary points per point of the office's city value above ten."""
    bonus = 0
    for office in state["campaign"]["offices"]:
        if state["offices"][office["id"]]["holder"] == member_id:
            bonus += 2 * max(0, state["values"][office["value"]] - 10)
    return bonus


def agenda_of(state: dict, player: str) -> dict | None:
    aid = state["agendas"].get(player)
    for agenda in state["campaign"]["agendas"]:
        if agenda["id"] == aid:
            return agenda
    return None


def agenda_holds(state: dict, agenda: dict) -> bool:
    for c in agenda["conditions"]:
        v = state["values"][c["value"]]
        if c["below"] is not None and not v < c["below"]:
            return False
        if c["above"] is not None and not v > c["above"]:
            return False
    return True


def agenda_bonus(state: dict, player: str) -> int:
    agenda = agenda_of(state, player)
    return agenda["bonus"] if agenda and agenda_holds(state, agenda) else 0


def public_influence(state: dict, member_id: str) -> int:
    """Influence as everyone sees it: permanent points + office bonus."""
    return state["influence"][member_id] + office_bonus(state, member_id)


def totals(state: dict, with_agenda: bool = True) -> dict[str, int]:
    out = {m: public_influence(state, m) for m in member_ids(state)}
    if with_agenda:
        for player, m in sorted(state["players"].items()):
            out[m] += agenda_bonus(state, player)
    return out


def takeover_candidates(scores: dict[str, int]) -> list[str]:
    """Members with ≥ 20 and at least the 2nd and 3rd best together."""
    out = []
    for m, v in sorted(scores.items()):
        if v < TAKEOVER_MIN:   # most members: no need to rank the others
            continue
        others = sorted((w for o, w in scores.items() if o != m), reverse=True)
        if v >= sum(others[:2]):
            out.append(m)
    return out


def cards_left(state: dict, member_id: str) -> int:
    player = player_of(state, member_id)
    if player is None:
        return 0
    return len(state["cards"].get(player) or [])
