"""Setting one item aside: when a mail, a turn, an archive write, an outbox row,
a reminder or a deadline computation fails unexpectedly, that item alone is
recorded (``referee status`` counts it), logged with its id, and the match's GM
told once; every other item goes on."""
from __future__ import annotations

import logging

from referee.intake import checks
from referee.store.transient import transient

log = logging.getLogger("referee.faults")


class Faults:
    def __init__(self, store, lookups, renderer, queue, now) -> None:
        self.store, self.lookups, self.renderer, self.queue, self.now = store, lookups, renderer, queue, now

    def note_fault(self, stage: str, item: str, error: BaseException, match_id: str | None = None,
                   turn: int | None = None) -> bool:
        """Record the fault (in the caller's transaction, or one of its own) and,
        the first time this item fails, tell the match's GM.  True the first time."""
        text = checks.echo(f"{type(error).__name__}: {error}", 300)
        with self.store.transaction():
            first = self.store.note_fault(stage, item, match_id, text, self.now())
            match = self.store.match(match_id) if match_id else None
            if first and match is not None:
                self._tell_gm_of_fault(match, stage, item, text, turn)
        return first

    def _tell_gm_of_fault(self, match: dict, stage: str, item: str, error: str, turn: int | None) -> None:
        lang = self.lookups.lang_of(match)
        try:
            ctx = self.lookups.match_ctx(match, self.lookups.rules(match))
        except Exception:  # the game itself may be what is broken
            ctx = {"id": match["id"]}
        subject, text = self.renderer.mail("fault", lang, match=ctx, stage=stage, turn=turn, error=error)
        self.queue.queue(f"fault:{stage}:{item}", match["id"], match["gm_email"], subject, text)

    def guarded(self, stage: str, item: str, match_id: str | None = None, turn: int | None = None):
        """A context that sets the item aside on any unexpected error instead of raising."""
        return _Guard(self, stage, item, match_id, turn)


class _Guard:
    def __init__(self, owner: Faults, stage: str, item: str, match_id, turn) -> None:
        self.owner, self.stage, self.item, self.match_id, self.turn = owner, stage, item, match_id, turn
        self.failed = False

    def __enter__(self) -> _Guard:
        return self

    def __exit__(self, kind, error, tb) -> bool:
        if error is None or not isinstance(error, Exception) or transient(error):
            return False   # a locked store is no fault of this item: the whole cycle is tried again
        self.failed = True
        first = True
        try:
            first = self.owner.note_fault(self.stage, self.item, error, self.match_id, self.turn)
        except Exception:  # even recording it failed (a broken store): the log has it
            log.exception("recording the fault of %s %s failed", self.stage, self.item)
        # the whole trace once; a retried item that keeps failing only a line each time
        log.log(logging.ERROR if first else logging.WARNING, "%s %s failed; set aside: %s", self.stage, self.item,
                error, exc_info=(kind, error, tb) if first else None)
        return True
