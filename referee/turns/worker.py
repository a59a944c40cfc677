"""A close worker process (``turns/workers.py`` starts them): identical processes, each with a
``Referee`` of its own built from the parent's recipe, that claim due turns in the store's
queue (``store.closing.claim_due``) a few at a time and close each the one way every close
goes (``Closing.close_turn``, its commit ending the claim).  A turn another worker holds is
never looked at; a worker that dies leaves its claims to expire, or to its parent, which
frees them at once.  Once every worker has emptied the queue (the parent says so) each
draws the PNGs of its closes' pictures and hands each to the parent (which keeps them for the sending);
given a sink, it then sends its own closes' mail through the outbox (``Outbox.send_pending`` with its
matches: claimed in the store, recorded sent one by one, so a message is sent by one process, and a
worker killed while sending leaves its claims to whoever sends next, which sees its pid gone), with the
PNGs it holds, on its own core; then it says it is done.  It ends with its parent (``lifeline.die_with_parent``) and runs at a lower priority
than the service, which answers mail."""
from __future__ import annotations

import gc
import logging
import os
import signal
import time
from datetime import datetime

from referee.game_api import registry
from referee.pictures import board as pictures
from referee.runtime import gc_policy
from referee.runtime.lifeline import die_with_parent
from referee.store import closing as close_rows

log = logging.getLogger("referee.turns.worker")
CLAIM = 4   # turns claimed at once: few, so that workers end a pass together; each claim is a round trip
SEND_MATCHES = 200   # matches one outbox claim names (``Outbox.send_pending(matches=...)``)
SEND_BATCH = 50   # messages an outbox claim takes: a stop is seen between them
MAIL_FIRST_WAIT = 5.0   # seconds a worker lets mail being handled go first, at most, before its next claim


class WorkerClock:
    """The worker's clock: the time the parent gave the pass (a simulated clock), else the wall clock."""
    at: datetime | None = None

    def __call__(self) -> datetime:
        from referee.authority.base import utcnow
        return self.at or utcnow()


def warm_renderer(renderer) -> None:
    """Every game loaded and every template a close renders compiled (``Renderer.warm``): once a
    worker's life, not in its first closes (a second or two of CPU each)."""
    for name in registry.names():
        try:
            registry.get(name)
        except Exception:   # a broken game fails its own closes, with its fault recorded there
            continue
    try:
        renderer.warm()
    except Exception:   # a template that does not compile fails the close that uses it, as ever
        log.exception("compiling the templates ahead failed")


def main(build, conn, parent: int, lifeline, nice: int, mail_first, stopping, writes=None, sink=None) -> None:
    """A worker's life: built, warmed, then a pass each time the parent says ``("pass", at)``;
    ``sink``: where it sends its closes' mail (None: the parent's outbox sends it)."""
    die_with_parent(parent, lifeline)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle: it stops the workers
    if nice:
        os.nice(nice)
    clock = WorkerClock()
    ref = build(clock)
    if writes is not None and hasattr(ref.store, "writes_under"):   # SQLite: the workers queue for its one writer
        ref.store.writes_under(writes)
    warm_renderer(ref.renderer)
    pictures.prime()   # the pass's PNGs are made here: fonts read and libvips loaded before the first
    profile = _profile_if_asked()
    gc_policy.settle()   # games, templates, fonts: never walked by the collector again
    owner = close_rows.worker_name()
    conn.send(("up", os.getpid()))
    try:
        while True:
            try:
                message = conn.recv()
            except EOFError:   # the parent is gone
                return
            if message[0] != "pass":
                return
            clock.at = message[1]
            if profile is not None:
                profile.enable()
            try:
                run_pass(ref, conn, owner, mail_first, stopping, message[2], sink)
            finally:
                if profile is not None:
                    profile.disable()
    finally:
        ref.store.close()
        if sink is not None and hasattr(sink, "close"):
            sink.close()


def run_pass(ref, conn, owner: str, mail_first, stopping, drawn_at_most: int, sink=None) -> None:
    """Claim and close until the queue holds nothing this worker may take; then the pictures, and
    with a ``sink`` the mail of its closes."""
    mine: list[str] = []   # the matches this pass closed
    with gc_policy.closing_pass(), ref.closing.flags.batch():   # the pass's records flagged after one fsync round
        while not stopping.is_set():
            _mail_first(mail_first)
            try:
                claimed = close_rows.claim_due(ref.store, owner, CLAIM)
            except Exception as e:   # the store is locked or gone: the next tick tries again
                conn.send(("trouble", repr(e)))
                break
            if not claimed:
                break
            for at, (match_id, number) in enumerate(claimed):
                if stopping.is_set():   # the service stops: what is left goes back to the queue
                    _give_up(ref, claimed[at:], owner)
                    break
                outcome = close_one(ref, match_id, number, owner)
                if outcome == "closed":
                    mine.append(match_id)
                conn.send(("close", match_id, number, outcome))
    conn.send(("closed",))
    drawn, ref.closing.drawn[:] = list(dict.fromkeys(ref.closing.drawn)), []
    try:   # every worker's closes first: the parent says when to draw
        if conn.recv()[0] != "draw":
            raise SystemExit(0)   # told to stop
    except EOFError:   # the parent is gone
        raise SystemExit(0) from None
    for svg in reversed(drawn[-drawn_at_most:]):   # latest first: the sending meets them in the middle
        if stopping.is_set():
            break
        try:
            png = pictures.png_of(svg)
            if sink is not None:   # held here too, until this worker's mails take it
                pictures.keep(svg, png)
            conn.send(("picture", svg, png))
        except Exception:   # a picture is an extra: the sending renders it
            log.exception("drawing a picture failed")
    if sink is not None:
        conn.send(("sent", send_own(ref, sink, mine, stopping)))
    conn.send(("done", gc.get_freeze_count(), gc.get_threshold()))


def send_own(ref, sink, matches: list[str], stopping) -> int:
    """The due mail of ``matches`` (this pass's closes) sent from here; how many went.  What is left
    (a message to retry later, a stop, a store away) the service's outbox sends, as any."""
    sent = 0
    matches = list(dict.fromkeys(matches))
    for start in range(0, len(matches), SEND_MATCHES):
        chunk = matches[start:start + SEND_MATCHES]
        while not stopping.is_set():
            try:
                done = ref.outbox.send_pending(sink, SEND_BATCH, matches=chunk)
            except Exception:   # the store is away: the service's outbox sends them
                log.warning("sending from a close worker failed; the outbox sends the rest", exc_info=True)
                return sent
            sent += done.sent
            if done.sent + done.retrying + done.failed < SEND_BATCH:
                break
    return sent


def close_one(ref, match_id: str, number: int, owner: str) -> str:
    """One claimed turn closed: "closed", "failed" (set aside in its fault guard, as in any
    process), "passed" (tried, and held or given way), "gone" (closed meanwhile: not tried),
    or "trouble" (the store locked or gone)."""
    try:
        turn = ref.store.current_turn(match_id)
        if turn is None or turn["number"] != number or turn["status"] != "open":
            _give_up(ref, [(match_id, number)], owner)
            return "gone"   # closed meanwhile: not tried
        with ref.faults.guarded("close", f"{match_id}:{number}.{turn['rev']}", match_id, number) as guard:
            closed = ref.closing.close_turn(match_id, number, owner=owner)
    except Exception:   # transient: nothing stored; the claim goes back, the next tick queues it again
        log.warning("closing %s:%d met a locked or lost store", match_id, number, exc_info=True)
        _give_up(ref, [(match_id, number)], owner)
        return "trouble"
    if guard.failed or closed is None:
        _give_up(ref, [(match_id, number)], owner)
        return "failed" if guard.failed else "passed"
    return "closed"


def _give_up(ref, turns: list[tuple[str, int]], owner: str) -> None:
    """Claims let go: a failed close waits for the next tick, as in any process."""
    try:
        with ref.store.transaction():
            for match_id, _ in turns:
                close_rows.end_claim(ref.store, match_id, owner)
    except Exception:   # the claims expire
        log.warning("letting claims go failed", exc_info=True)


def _mail_first(mail_first) -> None:
    """Mail being handled goes first: the store's one writer (SQLite) answers it before the next claim."""
    until = time.monotonic() + MAIL_FIRST_WAIT
    while mail_first is not None and mail_first.is_set() and time.monotonic() < until:
        time.sleep(0.01)


def _profile_if_asked():
    """``REFEREE_CLOSE_PROFILE=PREFIX``: this worker's passes profiled into ``PREFIX.<pid>`` as it ends (benches)."""
    prefix = os.environ.get("REFEREE_CLOSE_PROFILE")
    if not prefix:
        return None
    import atexit
    import cProfile
    prof = cProfile.Profile(time.process_time)   # CPU: the machine is shared
    atexit.register(lambda: prof.dump_stats(f"{prefix}.{os.getpid()}"))
    return prof
