"""Hand-built Nations positions for the tests."""
from __future__ import annotations

from referee.game_api.contract import Rng
from referee_games.nations_dice import RULES
from referee_games.nations_dice.edition import DEFAULT
from referee_games.nations_dice.state import LETTER, NState

ED = DEFAULT


def face_of(colour: str, **symbols) -> int:
    """Index of the face of ``colour`` showing exactly ``symbols``."""
    return next(i for i, f in enumerate(ED.faces[colour]) if f == symbols)


def game(players=("red", "yellow", "violet", "green"), seed=1, **options) -> NState:
    """A set-up match with the turn order = ``players`` as given; nobody rolled yet
    except the start player, whose action is awaited."""
    st = RULES.setup(list(players), options, Rng(seed))
    d = st.d
    d["order"] = list(players)
    starts = [1] if len(players) == 1 else ([1, 3] if len(players) == 2 else [1, 2, 3, 4])
    for p, c in zip(players, starts):
        d["p"][p]["culture"] = c
    for q in d["p"].values():
        q["rolled"] = False
        for x in q["dice"]:
            x[2] = None
    d["current"] = 0
    d["waiting"] = {players[0]: "plan"}
    d["p"][players[0]]["rolled"] = True
    for x in d["p"][players[0]]["dice"]:
        x[2] = face_of("white", food=1)
    return st


def dice(st: NState, p: str, *spec) -> None:
    """Give ``p`` exactly these dice: ("orange", {"gold": 2}) or ("white", {...}, "spent")."""
    pl = st.d["p"][p]
    for x in pl["dice"]:
        st.d["supply"]["dice"][x[1]] += 1
    pl["dice"] = []
    pl["next"] = {c: 0 for c in pl["next"]}
    for item in spec:
        colour, f = item[0], item[1]
        pl["next"][colour] += 1
        st.d["supply"]["dice"][colour] -= 1
        pl["dice"].append([f"{LETTER[colour]}{pl['next'][colour]}", colour, face_of(colour, **f),
                           len(item) > 2 and item[2] == "spent"])
    pl["rolled"] = True


def markers(st: NState, p: str, **kinds) -> None:
    """Set held markers (all available): markers(st, p, gold=2, reroll=1)."""
    pl = st.d["p"][p]
    for k in pl["markers"]:
        st.d["supply"]["markers"][k] += pl["markers"][k][0]
        n = kinds.get(k, 0)
        pl["markers"][k] = [n, 0]
        st.d["supply"]["markers"][k] -= n


def board(st: NState, *columns) -> None:
    """Lay out the progress board: board(st, ["granary", "aqueduct", None], ...)."""
    st.d["board"] = [list(c) for c in columns]


def event(st: NState, eid: str) -> None:
    st.d["event"] = eid


def order(st: NState, stage="plan", /, **raw):
    return RULES.order_schema(st, stage).model_validate(raw)


def problems(st: NState, player: str, stage="plan", /, **raw) -> list:
    return RULES.validate(st, player, order(st, stage, **raw))


def errors(st: NState, player: str, stage="plan", /, **raw) -> list[str]:
    return [p.code for p in problems(st, player, stage, **raw) if p.is_error]


def play(st: NState, player: str, stage="plan", /, seed=7, **raw):
    """Send ``raw`` orders for ``player`` (must be valid) and resolve; (state, log)."""
    o = order(st, stage, **raw)
    errs = [p for p in RULES.validate(st, player, o) if p.is_error]
    assert not errs, errs
    res = RULES.resolve(st, {player: o}, Rng(seed))
    return res.state, res.log


def kinds(log) -> list[str]:
    return [e.kind for e in log]


def first(log, kind: str, **match):
    """The data of the first entry of ``kind`` (LogEntry or the engine's raw tuples)."""
    entries = [(e.kind, e.data) if hasattr(e, "kind") else (e[0], e[1]) for e in log]
    return next(data for k, data in entries if k == kind and all(data.get(x) == v for x, v in match.items()))


def die(st: NState, p: str, die_id: str):
    return next((x for x in st.d["p"][p]["dice"] if x[0] == die_id), None)
