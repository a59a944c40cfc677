"""``Referee``: the parts of the authority built once and wired together; the
one object the CLI and the service loop talk to.  It holds no state of its own:
every method hands over to the part that owns it."""
from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import referee.intake as reader_module
from referee.archive.record import Archive
from referee.authority.base import Lookups, Settings, aware
from referee.authority.gate.commands import Commands
from referee.authority.gate.faults import Faults
from referee.authority.gate.intake import Intake
from referee.authority.gate.notices import Notices
from referee.authority.gate.orders import Orders
from referee.authority.matches.create import Matches
from referee.authority.queries import Queries
from referee.authority.queue import MailQueue
from referee.authority.replies import Replies
from referee.authority.talk.talk import Talk
from referee.outbox.sender import Outbox
from referee.render.renderer import Renderer
from referee.turns.closing import Closing
from referee.turns.guard import CloseGuard
from referee.turns.outage import Outages


class Referee:
    def __init__(self, store, archive_root: str | Path, renderer: Renderer | None = None,
                 clock: Callable[[], datetime] | None = None, settings: Settings | None = None,
                 intake=None, close_worker: bool = False, before_each_close: Callable[[], None] | None = None) -> None:
        """``close_worker``: a close worker process's (``Recipe``): the parent asked the close guard and
        took the snapshot before queueing its closes, and the worker draws its closes' pictures itself.
        ``before_each_close``: called before each close (the service's closing thread lets mail go first)."""
        self.store = store
        self.archive = Archive(Path(archive_root))
        self.renderer = renderer or Renderer()
        self.settings = settings or Settings()
        self.now = aware(clock)
        self.wall_clock = clock is None   # a simulated clock (tests, the demo) is handed to close workers per close
        reader = intake or reader_module   # the parsing and checking of documents (a test may bring its own)
        store, archive, renderer, settings, now = self.store, self.archive, self.renderer, self.settings, self.now
        # built in the order of their dependencies: each part gets only what it uses
        self.lookups = Lookups(store, settings)
        self.mail_queue = MailQueue(store, settings, now, archive)
        self.faults = Faults(store, self.lookups, renderer, self.mail_queue, now)
        self.outbox = Outbox(store, self.mail_queue, self.faults, now)
        self.notices = Notices(store, renderer, self.lookups, self.mail_queue, now)
        self.matches = Matches(store, archive, renderer, self.lookups, self.mail_queue, settings, now)
        # hardening (issue 13, ops): the close guard, a snapshot before closing (asked by every close, ``allow``)
        self.close_guard = CloseGuard(store, renderer, self.lookups, self.mail_queue, now)
        self.closing = Closing(store, archive, renderer, self.lookups, self.mail_queue, self.faults, self.notices, now,
                               allow=None if close_worker else self._before_close, pictures_later=close_worker,
                               wait=before_each_close)
        self.replies = Replies(store, renderer, self.lookups, self.mail_queue, reader, settings, now)
        self.orders = Orders(store, renderer, self.lookups, self.replies, reader, now)
        self.talk = Talk(store, archive, renderer, self.lookups, self.mail_queue, self.replies, reader, settings, now)
        self.commands = Commands(store, renderer, self.lookups, self.mail_queue, self.replies, self.orders,
                                 self.notices, self.matches, self.closing, settings, now, talk=self.talk)
        self.intake = Intake(store, archive, renderer, self.lookups, self.mail_queue, self.replies, self.orders,
                             self.commands, reader, settings, now, talk=self.talk)
        self.queries = Queries(store, self.lookups, self.faults, now)
        self.outages = Outages(store, renderer, self.lookups, self.mail_queue, self.notices, self.faults, now,
                               watch=self.settings.watch_outages)
        self._pass, self._snapshot_pass = 0, -1

    # -- mail in, mail out, the clock ----------------------------------------
    def handle(self, mail):
        return self.intake.handle(mail)

    def tick(self, budget: float | None = None, pool=None, bots: bool = True):
        """Close what is due, remind who is late; ``pool``: a ``referee.turns.workers.ClosePool``
        whose worker processes claim and close the due turns (this process decides what is due).
        ``bots``: once the pass is done, the bot seats of open turns decide (``play_bots``); a
        caller that sends the pass's reports first says False and calls ``play_bots`` after."""
        if self.closing._tick_cursor is None:   # a new pass over the matches
            self._pass += 1
            self.outages.check()
            self.close_guard.sweep()
        report = self.closing.tick(budget) if pool is None else pool.tick(self, budget)
        if bots and not report.more:
            played = self.closing.play_bots(budget)
            report.bots, report.more = played.bots, played.more
        return report

    def play_bots(self, budget: float | None = None):
        """The bots of open turns decide (issue 35); see ``Closing.play_bots``."""
        return self.closing.play_bots(budget)

    def mail_read(self) -> None:
        """The service read the whole mailbox: the heartbeat outages are measured by."""
        self.outages.mail_read()

    def _before_close(self, match_id: str, forced: bool) -> bool:
        if not self.close_guard.allows(match_id, forced):
            return False
        backup = self.settings.auto_backup
        if backup is not None and (forced or self._snapshot_pass != self._pass):
            self._snapshot_pass = self._pass   # one snapshot a pass: a league closing at once is one moment
            try:
                backup.take(self.store, self.archive.root, self.now(), match_id)
            except Exception:   # no snapshot is no reason to keep a table waiting; the log says so
                logging.getLogger("referee.store.backup").exception("the snapshot before closing %s failed", match_id)
        return True

    def send_pending(self, sink, limit: int = 500):
        return self.outbox.send_pending(sink, limit)

    # -- matches and the GM ----------------------------------------------------
    def create_match(self, spec, *, gm_key: str | None = None, seed: str | None = None):
        return self.matches.create_match(spec, gm_key=gm_key, seed=seed)

    def start(self, match_id: str) -> None:
        self.matches.start(match_id)

    def gm_command(self, match_id: str, cmd: str, args: dict, requested_by=None) -> str:
        return self.commands.gm_command(match_id, cmd, args, requested_by=requested_by)

    def pause(self, match_id: str) -> str:
        return self.commands.pause(match_id)

    def resume(self, match_id: str) -> str:
        return self.commands.resume(match_id)

    def extend(self, match_id: str, hours=None, until=None) -> str:
        return self.commands.extend(match_id, hours=hours, until=until)

    def replace_player(self, match_id: str, player_id: str, email: str, name: str | None = None) -> str:
        return self.commands.replace_player(match_id, player_id, email, name)

    def add_observer(self, match_id: str, email: str, lang: str | None = None) -> str:
        return self.commands.add_observer(match_id, email, lang)

    def end(self, match_id: str) -> str:
        return self.commands.end(match_id)

    def force(self, match_id: str) -> str:
        return self.closing.force(match_id)

    def preview(self, match_id: str, tag: str | None = None) -> str:
        return self.closing.preview(match_id, tag)

    def rollback(self, match_id: str) -> str:
        return self.closing.rollback(match_id)

    def close_turn(self, match_id: str) -> int | None:
        return self.closing.close_turn(match_id)

    # -- views, faults and look-ups --------------------------------------------
    def overview(self) -> list[dict]:
        return self.queries.overview()

    def set_aside(self) -> dict:
        return self.queries.set_aside()

    def next_due(self) -> datetime | None:
        return self.queries.next_due()

    def guarded(self, stage: str, item: str, match_id: str | None = None, turn: int | None = None):
        return self.faults.guarded(stage, item, match_id, turn)

    def rules(self, match: dict):
        return self.lookups.rules(match)

    def turn_state(self, rules, match_id: str, turn: dict):
        return self.lookups.turn_state(rules, match_id, turn)

    @property
    def _states(self) -> dict:
        return self.lookups._states

    def queue(self, *args, **kwargs) -> bool:
        return self.mail_queue.queue(*args, **kwargs)

    def build_message(self, data: bytes):
        return self.mail_queue.build_message(data)

    def wire_message(self, data: bytes):
        return self.mail_queue.wire_message(data)


@dataclass(frozen=True)
class Recipe:
    """How a close worker process builds a ``Referee`` like the parent's (it pickles: the workers are
    spawned); calling it builds one (``turns.workers.ClosePool`` is handed it)."""
    store: str                        # the SQLite file or the PostgreSQL address (its password: the environment)
    archive: str
    template_dirs: tuple[str, ...]
    settings: Settings
    wall_clock: bool                  # False: the parent's clock is a simulated one; each pass is given its time
    games: tuple = ()                 # games registered without an entry point (tests, tools)

    @classmethod
    def of(cls, ref: Referee) -> Recipe | None:
        """The recipe of ``ref``; None where a second connection would see another store (``:memory:``)."""
        from referee.game_api import registry
        from referee.store import location_of
        location = location_of(ref.store)
        if location is None:
            return None
        trust = dataclasses.replace(ref.settings.trust, txt=None)   # a test's DNS stub need not pickle; closes use none
        settings = dataclasses.replace(ref.settings, trust=trust, auto_backup=None)   # the parent snapshots
        return cls(store=location, archive=str(ref.archive.root),
                   template_dirs=tuple(str(d) for d in getattr(ref.renderer, "extra_dirs", ())),
                   settings=settings, wall_clock=ref.wall_clock, games=tuple(registry._extra.values()))   # registered by hand: not found by entry point

    def __call__(self, clock: Callable[[], datetime] | None = None) -> Referee:
        """A close worker's ``Referee`` on a store connection of its own; ``clock``: the worker's
        clock, used where the parent's is a simulated one."""
        from referee.game_api import registry
        from referee.store import open_store
        for rules in self.games:
            registry.register(rules)
        return Referee(open_store(self.store), self.archive, renderer=Renderer(self.template_dirs),
                       clock=None if self.wall_clock else clock, settings=self.settings, close_worker=True)
