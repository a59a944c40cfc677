"""Why a turn whose orders are all in does not close early: players who asked to wait
(``command: wait``) and players whose orders carry a fault (``contract.FAULT``) hold it by
the same wait flag (``Orders._hold``); the stored orders tell the two apart, so a player
reads "waiting for corrected orders from X", not that X asked to wait."""
from __future__ import annotations

from referee.game_api.contract import FAULT


def has_fault(rules, state, stage: str, player: str, orders: dict) -> bool | None:
    """Whether stored ``orders`` carry a fault now; None where they no longer read
    (stored under an older state)."""
    try:
        model = rules.order_schema(state, stage).model_validate(orders)
        return any(p.code.startswith(FAULT) for p in rules.validate(state, player, model))
    except Exception:   # noqa: BLE001 — any failure to re-read is "cannot tell", never a crash in a reply
        return None


def holds(store, lookups, match: dict, turn: dict, state=None) -> tuple[list[str], list[str]]:
    """(asked, faulty): ids of the players who hold the open turn's early close, those who
    asked to wait and those whose orders carry a fault (``state``: the turn's, if loaded)."""
    waits = store.waits(match["id"], turn["number"]) if turn["status"] == "open" else set()
    if not waits:
        return [], []
    rules = lookups.rules(match)
    state = state if state is not None else lookups.turn_state(rules, match["id"], turn)
    subs = store.submissions(match["id"], turn["number"])
    asked: list[str] = []
    faulty: list[str] = []
    for pid in sorted(waits):
        stage, sub = turn["awaiting"].get(pid), subs.get(pid)
        fault = has_fault(rules, state, stage, pid, sub["orders"]) if stage and sub else None
        (faulty if fault else asked).append(pid)
    return asked, faulty
