"""One turn = one council session: phases 1–6 in order (1–3 skipped in round
one), the end checks after every step that can change them, and the record
the reports are built from."""
from __future__ import annotations

from referee.game_api.contract import LogEntry, Rng, json_copy

from . import council as C
from .orders import CARDS, proposal
from .phases import cast_votes, do_actions, play_cards

THRESHOLD = 24
GM_ONLY: frozenset[str] = frozenset()


class GameOver(Exception):
    pass


def _korruption(s: dict, delta: int, why: str, log: list, rec: dict, nr: int | None = None) -> None:
    s["korruption"] = max(0, s["korruption"] + delta)
    rec["korruption_steps"].append({"why": why, "nr": nr, "delta": delta, "now": s["korruption"]})
    if s["korruption"] >= C.KORRUPTION_LIMIT:
        _finish(s, log, "korruption", None, [])
        raise GameOver


def _check_takeover(s: dict, log: list, rng: Rng) -> None:
    scores = C.totals(s)
    winners = C.takeover_candidates(scores)
    if not winners:
        return
    winner = _tie_break(s, winners, rng, log)
    reveal = []
    player = C.player_of(s, winner)
    # published only if the secret bonus decided the win
    if player and C.agenda_bonus(s, player) and winner not in C.takeover_candidates(
            {**scores, winner: scores[winner] - C.agenda_bonus(s, player)}):
        reveal = [player]
    _finish(s, log, "machtuebernahme", winner, reveal)
    raise GameOver


def _tie_break(s: dict, tied: list[str], rng: Rng, log: list) -> str:
    if len(tied) == 1:
        return tied[0]
    most = max(C.cards_left(s, m) for m in tied)
    tied = sorted(m for m in tied if C.cards_left(s, m) == most)
    if len(tied) == 1:
        return tied[0]
    winner = rng.choice(tied)
    log.append(LogEntry("lot", {"why": "gleichstand", "among": tied, "drawn": winner}))
    return winner


def _finish(s: dict, log: list, reason: str, winner: str | None, reveal: list[str] | None = None) -> None:
    if reveal is None:      # after the last round every agenda is revealed
        reveal = sorted(s["players"])
    s["revealed"] = sorted(set(s["revealed"]) | set(reveal))
    scores = C.totals(s, with_agenda=False)     # secret bonuses count only once revealed
    for p in s["revealed"]:
        scores[s["players"][p]] += C.agenda_bonus(s, p)
    player = C.player_of(s, winner) if winner else None
    s["outcome"] = {
        "reason": reason, "winner_member": winner, "winner_npc": bool(winner) and player is None,
        "winners": [player] if player else [],
        "scores": {p: scores[m] for p, m in sorted(s["players"].items())},
        "totals": scores, "round": s["round"],
    }
    log.append(LogEntry("end", dict(s["outcome"])))


def _gains(s, nr, p, votes, result, eff, rec_p):
    mems = C.members(s)
    by_member = {m: pl for pl, m in s["players"].items()}
    kidnapped = set(eff["kidnapped"])
    gains: dict[str, int] = {}
    if result is not None:
        side = C.candidate_symbols(s, result) if p["kind"] == "wahl" else set(p[result])
        for m in C.member_ids(s):
            if m in kidnapped or not (votes[m] == result or (votes[m] is None and m in eff["absent"])):
                continue
            player = by_member.get(m)
            syms = C.own_symbols(mems[m]) | set(eff["extra"].get(player, []))
            g = C.symbol_gain(syms, side)
            if g and player and mems[m]["rank"] == "zwoelferbeirat" and player in s["picked"].get(str(nr), []):
                g *= 2
            if g and player in eff["double"]:
                g *= 2
            if g:
                gains[m] = g
    rec_p["symbol_gains"] = dict(sorted(gains.items()))
    groups = []
    for field, names in (("viertel", s["campaign"]["viertel"]), ("schicht", s["campaign"]["schichten"])):
        for gid in sorted(names):
            group = [m for m in C.member_ids(s) if mems[m][field] == gid]
            cast = {votes[m] for m in group if votes[m] is not None}
            voters = [m for m in group if votes[m] is not None]
            if len(voters) >= 2 and len(cast) == 1:
                groups.append(gid)
                for m in group:
                    if m not in kidnapped:
                        gains[m] = gains.get(m, 0) + 1
    rec_p["gains"] = dict(sorted(gains.items()))
    rec_p["groups"] = groups
    for m, g in gains.items():
        s["influence"][m] += g


def settle(s: dict, votes: dict, eff: dict, log: list, rec: dict, rng: Rng) -> None:
    """Phase 4: proposals in order; end checks after each."""
    mems = C.members(s)
    for nr in s["session"]:
        p = proposal(s, nr)
        vs = votes[str(nr)]
        rp = {"nr": nr, "kind": p["kind"], "title": p["title"], "votes": vs}
        tally: dict[str, int] = {c: 0 for c in (p["candidates"] if p["kind"] == "wahl" else ["pro", "contra"])}
        for m, v in vs.items():
            if v is not None:
                tally[v] += C.votes_of(mems[m])
        rp["kaiserhof"] = [k["seite"] for k in eff["kaiserhof"] if k["vorschlag"] == nr]
        for side in rp["kaiserhof"]:
            tally[side] += 3
        rp["tally"] = tally
        result = None
        if p["kind"] == "wahl":
            top = max(tally.values())
            leaders = [c for c, v in tally.items() if v == top]
            result = leaders[0] if len(leaders) == 1 else None
        else:
            passed = [side for side in ("pro", "contra") if tally[side] >= THRESHOLD]
            if len(passed) == 1 or (passed and tally["pro"] != tally["contra"]):
                result = max(passed, key=lambda side: tally[side])
        rp["result"] = result
        rec["proposals"].append(rp)
        if p["kind"] == "wahl" and result is not None:
            office = s["offices"][p["office"]]
            rp["office"] = {"id": p["office"], "before": office["holder"], "after": result}
            office.update(holder=result, low=0)
        elif result is not None:
            v = p["value"]
            step = 1 if (p["direction"] == "up") == (result == "pro") else -1
            before = s["values"][v]
            s["values"][v] = max(0, min(20, before + step))
            rp["value"] = {"id": v, "before": before, "after": s["values"][v]}
        _gains(s, nr, p, vs, result, eff, rp)
        log.append(LogEntry("vote", rp))
        if result is None:
            _korruption(s, 1, "kein_ergebnis", log, rec, nr)
        _check_takeover(s, log, rng)
    for office in s["campaign"]["offices"]:
        st = s["offices"][office["id"]]
        if st["holder"] is None:
            continue
        st["low"] = st["low"] + 1 if s["values"][office["value"]] < 7 else 0
        if st["low"] >= 2:
            rec["offices_lost"].append({"office": office["id"], "holder": st["holder"]})
            log.append(LogEntry("office_lost", {"office": office["id"], "holder": st["holder"]}))
            st.update(holder=None, low=0)
            s["reelect"].append(office["id"])
    _check_takeover(s, log, rng)


def _reelection(s: dict, office_id: str) -> int:
    """A fresh Wahlvorschlag for a lost office, with the candidates of the
    campaign's (first) election for that office."""
    base = next(p for p in s["campaign"]["proposals"] if p["kind"] == "wahl" and p["office"] == office_id)
    nr = s["next_nr"]
    s["next_nr"] += 1
    s["proposals"][str(nr)] = {**base, "nr": nr, "source": "neuwahl",
                               "title": {"de": "Neuwahl: " + base["title"]["de"],
                                         "en": "Re-election: " + base["title"]["en"]}}
    return nr


def select(s: dict, read: dict, gm: dict, log: list, rec: dict, rng: Rng) -> None:
    """Phases 5 and 6: the players' picks, gaps filled by the Spielleitung
    (+1 Korruption each), then the selection refilled at the bottom."""
    picks: dict[str, int] = {}
    for player, o in sorted(read.items()):
        if not s["selection"]:
            break
        if o["pick"] is None:
            picks[player] = rng.choice(s["selection"])
            log.append(LogEntry("lot", {"why": "auswahl", "player": player, "drawn": picks[player]}, frozenset({player})))
        else:
            picks[player] = o["pick"]
    chosen = sorted(set(picks.values()), key=s["selection"].index)
    gaps = min(len(picks), len(s["selection"])) - len(chosen)
    fills = []
    pool = [n for n in gm["prio"] if n not in chosen] + [n for n in s["selection"] if n not in chosen]
    for nr in pool:
        if len(fills) == gaps:
            break
        if nr not in fills:
            fills.append(nr)
    rec["selection"] = {"picks": picks, "fills": fills}
    log.append(LogEntry("selection", {"picks": picks, "fills": fills}))
    picked: dict[str, list[str]] = {}
    for player, nr in picks.items():
        picked.setdefault(str(nr), []).append(player)
    in_sel = [n for n in s["selection"] if n in chosen or n in fills]
    from_deck = [n for n in fills if n not in s["selection"]]
    s["session"] = in_sel + from_deck + [_reelection(s, o) for o in s["reelect"]]
    s["reelect"] = []
    s["picked"] = picked
    s["selection"] = [n for n in s["selection"] if n not in in_sel]
    s["deck"] = [n for n in s["deck"] if n not in from_deck]
    for nr in fills:
        _korruption(s, 1, "luecke", log, rec, nr)
    want = 2 * len(s["players"])
    added = []
    for nr in [n for n in gm["prio"] if n in s["deck"]] + list(s["deck"]):
        if len(s["selection"]) >= want:
            break
        if nr not in s["selection"]:
            s["selection"].append(nr)
            s["deck"].remove(nr)
            added.append(nr)
    rec["refill"] = added
    log.append(LogEntry("refill", {"added": added, "deck_left": len(s["deck"])}))


def gm_prelude(s: dict, gm: dict, log: list) -> None:
    for player in gm["publish"]:
        if player not in s["revealed"]:
            s["revealed"] = sorted(s["revealed"] + [player])
            log.append(LogEntry("agenda_published", {"player": player, "agenda": s["agendas"][player]}))
    new = []
    for p in gm["new"]:
        nr = s["next_nr"]
        s["next_nr"] += 1
        s["proposals"][str(nr)] = {
            "nr": nr, "title": {"de": p["title_de"], "en": p["title_en"] or p["title_de"]},
            "kind": p["kind"], "value": p["value"], "direction": p["direction"], "pro": p["pro"],
            "contra": p["contra"], "office": p["office"], "candidates": p["candidates"], "source": "gm"}
        new.append(nr)
    if new:     # the GM's new proposals are the next to be laid out
        s["deck"] = new + s["deck"]
        log.append(LogEntry("proposals_added", {"nrs": new}))


def resolve_session(state: dict, read: dict, gm: dict, rng: Rng) -> tuple[dict, list]:
    # the state is JSON-shaped: a plain copy, several times faster than deepcopy; the campaign
    # is never written during play, so the new state shares it (the bots resolve thousands a turn)
    s = {k: v if k == "campaign" else json_copy(v) for k, v in state.items()}
    log: list[LogEntry] = []
    r = s["round"]
    rec = {"round": r, "proposals": [], "events": [], "korruption_steps": [], "offices_lost": [],
           "verwaltung": None, "selection": None, "refill": [], "session": list(s["session"]),
           "private": {p: {"card": None, "ap": None} for p in sorted(s["players"])}}
    for p in sorted(s["players"]):
        if s["cards"].get(p) is None:
            picks = read[p]["picks"]
            if picks is None:
                picks = sorted(rng.sample(list(CARDS), 3), key=CARDS.index)
                log.append(LogEntry("lot", {"why": "ereigniskarten", "player": p, "drawn": picks}, frozenset({p})))
            s["cards"][p] = picks
    gm_prelude(s, gm, log)
    try:
        if r > 1:
            eff = play_cards(s, read, log, rec)
            pushes = do_actions(s, read, log, rec)
            _check_takeover(s, log, rng)
            votes = cast_votes(s, read, eff, pushes, rng, log)
            settle(s, votes, eff, log, rec, rng)
        if r < s["campaign"]["rounds"]:
            select(s, read, gm, log, rec, rng)
        else:
            scores = C.totals(s)
            top = max(scores.values())
            winner = _tie_break(s, sorted(m for m, v in scores.items() if v == top), rng, log)
            _finish(s, log, "wahl", winner)
    except GameOver:
        pass
    s["kidnapped"] = {m: u for m, u in sorted(s["kidnapped"].items()) if u > r}
    s["last"] = rec
    s["round"] = r + 1
    return s, log
