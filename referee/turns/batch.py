"""A close worker's batch of due turns (issue 8): the core works while the disk syncs.

A worker is handed its part's due turns in batches (``batches``: large first, single turns
at the part's end, so that the workers end a part together).  Within a batch it begins
each close (``Closing.begin_close``: worked out, its files staged, their sync handed to the
sync threads) before it finishes the last one (``Closing.finish_close``: that sync waited
for, then its transaction), so the next close is worked out while the last one's files
sync.  No close is stored before its files are durable; a batch that stops between the two
removes what it began (``Closing.abandon``)."""
from __future__ import annotations

from typing import Any


def batches(due: list, workers: int) -> list[list]:
    """``due`` in the batches a worker closes at a call: large first, smaller toward the part's
    end, down to single turns."""
    out, at = [], 0
    while at < len(due):
        size = max(1, (len(due) - at) // (2 * workers))
        out.append(due[at:at + size])
        at += size
    return out


def close_many(ref, turns: list[tuple[str, int]], drawn: list[str]) -> list[tuple]:
    """Close ``turns`` with ``ref`` (a worker's ``Referee``), each close begun before the last is
    finished.  ``drawn``: where the closes' ``pictures.prerender`` notes the SVGs they drew.
    Each turn's outcome, as it is known (a close is stored after the next one began): (match,
    turn, "closed" | "failed" | "passed", the distinct SVGs it drew, the turns whose record it
    named, for the parent to flag archived), or (match, turn, "trouble", the error, ...): the
    store locked or gone, no fault of the match's (tried again next tick)."""
    out: list[tuple] = []
    pending = None   # the close begun last: (match, turn, its guard's item, Begun)
    try:
        for match_id, number in turns:
            last, pending = pending, _begin(ref, match_id, number, out)
            if last is not None:
                _finish(ref, last, drawn, out)
        if pending is not None:
            last, pending = pending, None
            _finish(ref, last, drawn, out)
    finally:
        if pending is not None:   # stopped before finishing it (the worker is ending): nothing was stored
            ref.closing.abandon(pending[3])
    return out


def _begin(ref, match_id: str, number: int, out: list) -> tuple[str, int, str, Any] | None:
    """The close of turn ``number`` begun (for ``_finish``), or its outcome noted in ``out``."""
    try:
        turn = ref.store.current_turn(match_id)
        if turn is None or turn["number"] != number:
            out.append(_outcome(ref, match_id, number, "passed"))
            return None
        item = f"{match_id}:{number}.{turn['rev']}"
        begun = None
        with ref.faults.guarded("close", item, match_id, number) as guard:
            begun = ref.closing.begin_close(match_id, number)
    except Exception as e:   # a transient one (the guard sets the others aside)
        out.append(_outcome(ref, match_id, number, "trouble", e))
        return None
    if guard.failed or begun is None:   # set aside and logged here, as a close in the parent would be
        out.append(_outcome(ref, match_id, number, "failed" if guard.failed else "passed"))
        return None
    return match_id, number, item, begun


def _finish(ref, pending: tuple, drawn: list[str], out: list) -> None:
    """A begun close finished (``Closing.finish_close``), its outcome noted in ``out``."""
    match_id, number, item, begun = pending
    drawn.clear()
    try:
        with ref.faults.guarded("close", item, match_id, number) as guard:
            closed = ref.closing.finish_close(begun)
    except Exception as e:   # transient: nothing stored (the try's files removed, its stripe let go)
        out.append(_outcome(ref, match_id, number, "trouble", e))
        return
    if guard.failed:
        out.append(_outcome(ref, match_id, number, "failed"))
    elif closed is None:
        out.append(_outcome(ref, match_id, number, "passed"))
    else:   # its fault, if any, cleared in the close's transaction
        out.append(_outcome(ref, match_id, number, "closed", list(dict.fromkeys(drawn))))


def _outcome(ref, match_id: str, number: int, outcome: str, what: Any = None) -> tuple:
    """A turn's outcome as ``close_many`` gives it: ``what`` (the SVGs a close drew, or a transient
    error; none: []), and the turns whose record was named meanwhile, handed over for the parent to flag."""
    return match_id, number, outcome, [] if what is None else what, ref.closing.flags.take()
