"""An age from start to end: new tiles and event (R37–R43), books and culture
scoring (R112–R121), famine (R129–R133), new turn order (R134–R139), war
(R141–R144), and the end of the game (R145–R150); the solo rules (R161–R174)."""
from __future__ import annotations

from .famine import feed
from .pieces import refresh
from .state import AGES, columns, free, hall_of_fame, markers_free, shows, tile_vp


def start_age(d: dict, ed, rng, log: list) -> None:
    d["age"] += 1
    age = d["age"]
    cols = columns(len(d["players"]))
    tiles = d["stacks"][str(age)][:cols * 3]
    d["board"] = [tiles[c * 3:c * 3 + 3] for c in range(cols)]          # column c: rows 1, 2, 3
    d["event"] = d["event_stacks"][str(age)][0]
    for q in d["p"].values():
        refresh(q)
        q["passed"] = q["rolled"] = False
        q["plan"], q["food_trade"] = [], None
    d["stage"], d["current"], d["phase_at"] = "actions", 0, 0
    log.append(("age_started", {"age": age, "event": d["event"], "columns": cols,
                                "order": list(d["order"])}, None))
    if d["solo"] is not None:                                           # R166–R167
        blue = ed.faces["blue"]
        rolled = [blue[rng.below(6)] for _ in range(age)]
        books = sum(f.get("book", 0) for f in rolled)
        d["solo"]["culture"] += books
        log.append(("opponent_culture", {"dice": rolled, "books": books,
                                         "culture": d["solo"]["culture"]}, None))


def spend_books(d: dict, ed, p: str, hold, log: list) -> None:
    """Spend every book marker and every book die not held back (R112–R113, R119)."""
    pl = d["p"][p]
    books = markers_free(pl, "book")
    pl["markers"]["book"][1] += books
    used = []
    for x in pl["dice"]:
        if not x[3] and x[0] not in hold and shows(ed, x, "book"):
            books += shows(ed, x, "book")
            x[3] = True
            used.append(x[0])
    pl["culture"] += books
    log.append(("books", {"player": p, "books": books, "dice": used, "held": list(hold),
                          "culture": pl["culture"]}, None))


def score_culture(d: dict, log: list) -> None:
    """1 VP per opponent further back on the culture track, 2 with 1–2 players;
    none for a tie (R115–R117, R170)."""
    ps = d["p"]
    per = 2 if len(d["players"]) <= 2 else 1
    gained = {}
    for p, q in ps.items():
        behind = sum(1 for o, r in ps.items() if o != p and r["culture"] < q["culture"])
        if d["solo"] is not None and d["solo"]["culture"] < q["culture"]:
            behind += 1
        gained[p] = per * behind
        q["vp"] += gained[p]
    log.append(("culture_scored", {"vp": gained, "culture": {p: q["culture"] for p, q in ps.items()},
                                   "opponent": None if d["solo"] is None else d["solo"]["culture"]}, None))


def new_order(d: dict, ed, log: list) -> None:
    """Most available strength first; ties keep their relative order; nothing is
    spent (R134–R138).  The solo player always starts (R165)."""
    strength = {p: sum(shows(ed, x, "strength") for x in free(q)) + markers_free(q, "strength")
                for p, q in d["p"].items()}
    old = d["order"]
    d["order"] = sorted(old, key=lambda p: (-strength[p], old.index(p)))
    log.append(("turn_order", {"order": list(d["order"]), "strength": strength}, None))


def war(d: dict, ed, log: list) -> None:
    """Each player in reverse order spends his strength; VP = age if it meets the
    event (R141–R143).  Automatic: strength has no later use (decision R128)."""
    need = ed.events[d["event"]]["strength"]
    for p in reversed(d["order"]):
        q = d["p"][p]
        total = markers_free(q, "strength")
        q["markers"]["strength"][1] += total
        for x in q["dice"]:
            if not x[3] and shows(ed, x, "strength"):
                total += shows(ed, x, "strength")
                x[3] = True
        vp = d["age"] if total >= need else 0
        q["vp"] += vp
        log.append(("war", {"player": p, "strength": total, "need": need, "vp": vp}, None))


def end_game(d: dict, ed, log: list) -> dict:
    """Tile VP added; the most VP wins, ties by the final turn order (R145–R150)."""
    tiles = {p: tile_vp(ed, q) for p, q in d["p"].items()}
    scores = {}
    for p, q in d["p"].items():
        q["vp"] += tiles[p]
        scores[p] = q["vp"]
    ranking = sorted(d["order"], key=lambda p: (-scores[p], d["order"].index(p)))
    outcome = {"winners": [ranking[0]], "scores": scores, "ranking": ranking, "tile_vp": tiles}
    if d["solo"] is not None:
        outcome["hall_of_fame"] = hall_of_fame(scores[ranking[0]])
    log.append(("game_over", dict(outcome), None))
    d["stage"], d["outcome"], d["waiting"] = "over", outcome, {}
    return outcome


def finish_age(d: dict, ed, rng, log: list) -> None:
    """After famine: turn order, war, then the next age or the end."""
    new_order(d, ed, log)
    war(d, ed, log)
    if d["age"] >= AGES:
        end_game(d, ed, log)
    else:
        start_age(d, ed, rng, log)


def books_phase(d: dict, ed, log: list, must_decide) -> str | None:
    """Walk the books phase in reverse order; return a player who must decide."""
    rev = list(reversed(d["order"]))
    while d["phase_at"] < len(rev):
        p = rev[d["phase_at"]]
        q = d["p"][p]
        if d["variant"] == "accelerated":
            hold = [i for pair in q["food_trade"] or [] for i in pair]
            spend_books(d, ed, p, hold, log)
        elif must_decide(d, ed, p, "books"):
            return p
        else:
            spend_books(d, ed, p, [], log)
        d["phase_at"] += 1
    score_culture(d, log)
    d["stage"], d["phase_at"] = "famine", 0
    return None


def famine_phase(d: dict, ed, log: list, must_decide, auto_trade) -> str | None:
    rev = list(reversed(d["order"]))
    while d["phase_at"] < len(rev):
        p = rev[d["phase_at"]]
        if d["variant"] == "accelerated":
            feed(d, ed, p, d["p"][p]["food_trade"] or [], log, reveal=True)
        elif must_decide(d, ed, p, "famine"):
            return p
        else:
            feed(d, ed, p, auto_trade(d, ed, p), log)
        d["phase_at"] += 1
    return None
