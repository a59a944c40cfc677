"""The course of the game: walking the plans through a trick, the end of a
trick (notes, Ablaufkarte, Patt), drawing up to six, the next trick, the end."""
from __future__ import annotations

from referee.game_api.contract import follow_plan

from .actions import do_step, step_problems
from .edition import PARTIES
from .orders import MESSAGES
from .state import DRAW_MAX, HAND_MAX, PATT_LIMIT, TO_WIN, left_of, new_trick
from .table import assign_armies, evaluate

MAX_WALK = 2000   # a guard only: every step consumes a plan step or passes a player


def hand_kinds(d, ed, p) -> tuple[int, int]:
    persons = sum(1 for c in d["hands"][p] if c in ed.persons)
    return persons, len(d["hands"][p]) - persons


def draw_plan(n_hand: int) -> tuple[int, bool]:
    """(cards of each kind, whether one more of free choice follows) for a hand of ``n_hand``
    (seed: at most 2 + 2, up to 6 cards; the choice at 3 and 5 cards)."""
    n = min(2 * DRAW_MAX, max(HAND_MAX - n_hand, 0))
    return n // 2, n % 2 == 1


def _draw(d, p, deck: str, k: int) -> list:
    got = []
    for _ in range(k):
        if d[deck]:
            got.append(d[deck].pop())
    d["hands"][p].extend(got)
    return got


def default_draw(d, ed, p) -> str:
    """The obvious choice: the kind one holds fewer of (persons on a tie)."""
    persons, zusatz = hand_kinds(d, ed, p)
    return "person" if persons <= zusatz else "zusatz"


def draw_choice(d, ed, p, kind: str, log) -> None:
    deck = "persons_deck" if kind == "person" else "zusatz_deck"
    if not d[deck]:
        deck = "zusatz_deck" if deck == "persons_deck" else "persons_deck"
    got = _draw(d, p, deck, 1)
    if got:
        log.append(("drew", {"player": p, "persons": int(got[0] in ed.persons),
                             "zusatz": int(got[0] not in ed.persons), "choice": True}, None))
        log.append(("drew_cards", {"player": p, "cards": got}, (p,)))


def draw_all(d, ed, order: list[str], log) -> list[str]:
    """Everyone draws the fixed part; returns who still owes the free choice."""
    owe = []
    for p in order:
        each, choice = draw_plan(len(d["hands"][p]))
        got = _draw(d, p, "persons_deck", each) + _draw(d, p, "zusatz_deck", each)
        if got:
            np = sum(1 for c in got if c in ed.persons)
            log.append(("drew", {"player": p, "persons": np, "zusatz": len(got) - np, "choice": False}, None))
            log.append(("drew_cards", {"player": p, "cards": got}, (p,)))
        if not choice or not (d["persons_deck"] or d["zusatz_deck"]):
            continue
        if d["draw_pref"][p] is not None or not (d["persons_deck"] and d["zusatz_deck"]):
            draw_choice(d, ed, p, d["draw_pref"][p] or "person", log)
        else:
            owe.append(p)
    d["draw_pref"] = {p: None for p in d["players"]}
    return owe


def start_trick(d, ed, log) -> None:
    t = d["trick"]
    for p in d["players"]:   # steps still waiting for their condition go on into the next trick
        keep(d, p, [s for s in [*d.get("kept", {}).get(p, ()), *(d["plans"][p] or ())] if _waits(d, p, s)])
    d["trick"] = new_trick(t["opener"], d["players"])
    d["plans"] = {p: None for p in d["players"]}
    d["stage"] = "trick"
    d["tricks"] += 1
    card = d["ablauf"][0]
    log.append(("trick_started", {"number": d["tricks"], "ablauf": card, "name": ed.ablauf[card]["name"],
                                  "opener": d["players"][t["opener"]], "replay": d["patts"] > 0}, None))
    d["awaiting"] = [p for p in d["players"] if d["hands"][p]]
    for p in d["players"]:
        if not d["hands"][p]:
            d["plans"][p] = []
    if not d["awaiting"]:
        walk(d, ed, log)


def walk(d, ed, log) -> None:
    """Carry the trick forward until someone must be asked or it ends."""
    t = d["trick"]
    players = d["players"]
    d["awaiting"] = []
    for _ in range(MAX_WALK):
        if len(t["passed"]) >= len(players):
            end_trick(d, ed, log)
            return
        p = players[t["actor"]]
        if p in t["passed"]:
            t["actor"] = (t["actor"] + 1) % len(players)
            continue
        if not d["hands"][p]:
            do_step(d, ed, p, "pass", log)
            t["seen"][p] = len(t["plays"])
            continue
        plan = d["plans"][p]
        if plan is None:
            d["awaiting"] = [p]
            return
        choice = follow_plan(plan, lambda s, p=p: [_P(c) for c, _ in step_problems(d, ed, p, s)])
        skipped = [_skipped(d, ed, p, plan[i]) for i, _ in choice.failed]
        # a step with a condition waits for it ("answer when X happens") until it fires or a new plan comes
        waiting = [plan[i] for i, _ in choice.failed if _waits(d, p, plan[i])]
        for entry, (i, _) in zip(skipped, choice.failed, strict=True):
            entry["kept"] = _waits(d, p, plan[i])
        if choice.index is None:
            d["plans"][p] = None
            keep(d, p, waiting)   # asked: the waiting steps stay unless the answer is a new plan
            log.append(("plan_stopped", {"player": p, "asked": choice.asked, "skipped": skipped}, (p,)))
            log.append(("asked", {"player": p}, None))
            d["awaiting"] = [p]
            return
        if skipped:
            log.append(("plan_skipped", {"player": p, "skipped": skipped}, (p,)))
        d["plans"][p] = waiting + list(choice.rest)
        do_step(d, ed, p, plan[choice.index], log)
        t["seen"][p] = len(t["plays"])
        if p not in t["passed"]:
            t["actor"] = (t["actor"] + 1) % len(players)
    raise RuntimeError("trick did not end")   # unreachable by the bounds in RULES A7


def keep(d, p, steps) -> None:
    """Set ``p``'s steps kept while asked; the field ``kept`` exists only while some are
    (so a match where nothing waits keeps the state it always had)."""
    kept = d.get("kept", {})
    kept.pop(p, None)
    if steps:
        kept[p] = list(steps)
    if kept:
        d["kept"] = kept
    else:
        d.pop("kept", None)


def take_kept(d, p) -> list:
    """``p``'s kept steps, now leaving the store (into a plan, or replaced by a new one)."""
    steps = d.get("kept", {}).get(p, [])
    keep(d, p, [])
    return steps


def _waits(d, p, step) -> bool:
    """A step that did not run stays in the plan if it has a condition and its card is still in hand."""
    if not isinstance(step, dict) or not step.get("if"):
        return False
    return (step.get("play") or step.get("push")) in d["hands"][p]


def _skipped(d, ed, p, step) -> dict:
    """A step that could not run, with why in both languages: ``why`` as the player reads it
    and, where that speaks to the player ("not in your hand"), ``why_of`` naming them for
    everyone else, with {who} and {whose} for the report to fill in with the player's name."""
    probs = step_problems(d, ed, p, step)
    out = {"step": describe(ed, step), "why": _reasons(probs, "")}
    if any(c + ".of" in MESSAGES for c, _ in probs):
        out["why_of"] = _reasons(probs, ".of")
    return out


def _reasons(probs, form: str) -> dict:
    tokens = {"who": "{who}", "whose": "{whose}"}
    return {lang: "; ".join((MESSAGES.get(c + form) or MESSAGES.get(c, {})).get(lang, c).format(**tokens, **params)
                            for c, params in probs)
            for lang in ("de", "en")}


def describe(ed, step) -> str:
    """A step in the words of the orders (card ids with names)."""
    if isinstance(step, str):
        return step
    card = step.get("play") or step.get("push")
    what = f"{'play' if step.get('play') else 'push'}: {card} ({ed.name_of(card)})"
    for k in ("on", "player", "party", "to"):
        if step.get(k):
            what += f", {k}: {step[k]}"
    if step.get("if"):   # as the player writes it: true/false, not Python's True/False
        what += ", if: " + ", ".join(f"{k}: {str(v).lower() if isinstance(v, bool) else v}"
                                     for k, v in step["if"].items())
    return what


class _P:
    """The smallest Problem-like for follow_plan: every step problem is an error."""
    __slots__ = ("code",)
    is_error = True

    def __init__(self, code):
        self.code = code


def end_trick(d, ed, log) -> None:
    t = d["trick"]
    players = d["players"]
    res = evaluate(t, ed, players)
    armies = assign_armies(t, ed, players)
    card = d["ablauf"][0]
    for p, notes in res["notes"].items():
        for party, n in notes.items():
            d["tally"][p][party] += n
    entry = {k: res.get(k) for k in ("kind", "result", "winner", "party", "why", "parties", "red", "army_points")}
    entry.update(totals=dict(res["totals"]), notes=res["notes"], ablauf=card)
    log.append(("trick_result", entry, None))
    d["last_result"] = entry
    if res["result"] == "win":
        d["won"][res["winner"]].append(d["ablauf"].pop(0))
        d["patts"] = 0
        t["opener"] = players.index(res["winner"])
        log.append(("ablauf_won", {"player": res["winner"], "card": card}, None))
    elif res["result"] == "patt":
        d["patts"] += 1
        t["opener"] = left_of(d, t["first_passed"])   # seed: links von dem, der als erster gepasst hat
        if d["patts"] >= PATT_LIMIT:
            d["set_aside"].append(d["ablauf"].pop(0))
            d["patts"] = 0
            log.append(("ablauf_set_aside", {"card": card, "why": "patts"}, None))
    else:
        d["set_aside"].append(d["ablauf"].pop(0))
        d["patts"] = 0
        t["opener"] = (t["opener"] + 1) % len(players)
        log.append(("ablauf_set_aside", {"card": card, "why": "empty"}, None))
    # the table: armies and met pairs leave the game, the rest goes under its stack
    for p in players:
        for pid in t["persons"][p]:
            d["persons_deck"].insert(0, pid)
    for z in t["zusatz"]:
        (d["out"].append(z["card"]) if z["void"] else d["zusatz_deck"].insert(0, z["card"]))
    for a in armies:
        d["out"].append(a["card"])
    if _game_over(d):
        finish(d, ed, log)
        return
    order = players[t["opener"]:] + players[:t["opener"]]
    owe = draw_all(d, ed, order, log)
    if owe:
        d["stage"] = "draw"
        d["awaiting"] = owe
        return
    start_trick(d, ed, log)


def _game_over(d) -> bool:
    need = TO_WIN.get(len(d["players"]), 4)
    if any(len(w) >= need for w in d["won"].values()) or not d["ablauf"]:
        return True
    cards_left = d["persons_deck"] or d["zusatz_deck"] or any(d["hands"].values())
    return not cards_left


def final_scores(d) -> dict:
    """Seed "Und so wird abgerechnet!": absolute majority 5 / 0, else 4-3-2-1 by party rank."""
    players = d["players"]
    totals = {q: sum(d["tally"][p][q] for p in players) for q in PARTIES}
    vp = {p: 0 for p in players}
    awards = []

    def top(q):
        best = max(d["tally"][p][q] for p in players)
        return [p for p in players if d["tally"][p][q] == best and best > 0]

    for q in PARTIES:
        others = sum(v for k, v in totals.items() if k != q)
        if totals[q] > 0 and totals[q] > others:
            for p in top(q):
                vp[p] = 5
            awards.append({"party": q, "points": 5, "players": top(q), "majority": True})
            return {"vp": vp, "totals": totals, "awards": awards, "majority": q}
    ranked = sorted((q for q in PARTIES if totals[q] > 0), key=lambda q: -totals[q])
    for q in ranked:
        rank = sum(1 for r in ranked if totals[r] > totals[q])   # tied parties share the better rank
        points = 4 - rank
        for p in top(q):
            vp[p] += points
        awards.append({"party": q, "points": points, "players": top(q), "majority": False})
    return {"vp": vp, "totals": totals, "awards": awards, "majority": None}


def finish(d, ed, log) -> None:
    fs = final_scores(d)
    vp = fs["vp"]
    best = max(vp.values())
    tied = [p for p in d["players"] if vp[p] == best]
    most = max(len(d["won"][p]) for p in tied)
    winners = [p for p in tied if len(d["won"][p]) == most]
    d["outcome"] = {"winners": winners, "scores": dict(vp), "party_totals": fs["totals"],
                    "awards": fs["awards"], "majority": fs["majority"],
                    "ablauf": {p: len(d["won"][p]) for p in d["players"]}}
    d["stage"] = "over"
    d["awaiting"] = []
    log.append(("game_over", dict(d["outcome"]), None))
