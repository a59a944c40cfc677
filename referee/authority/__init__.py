"""The referee authority: matches, intake, commands, closing turns, the outbox.

``Referee(store, archive_root, renderer=None, clock=None, settings=None)`` is
the one object the CLI and the service loop talk to:

* ``create_match(spec | yaml text | mapping, gm_key=None, seed=None) -> Created``
  (welcome mails queued; ``MatchError.problems`` says what is wrong);
* ``handle(InboundMail) -> Handled`` — one transaction; then ``source.done(ref,
  handled.outcome)``;
* ``tick() -> TickReport`` — reminders, due / early closes (``closed``,
  ``failed``), archive repair;
* ``send_pending(sink) -> SendReport`` — the outbox, with retries;
* GM: ``start pause resume extend force preview rollback replace_player
  add_observer end`` or ``gm_command(match, name, args)``;
* ``overview()`` and ``next_due()`` for status lines and a sleeping loop.

All outgoing mail goes through the outbox; ``clock`` returns aware datetimes.
"""
from __future__ import annotations

from referee.authority.base import Settings
from referee.authority.closing import Closing, TickReport
from referee.authority.commands import Commands
from referee.authority.faults import Faults
from referee.authority.intake import Handled, Intake
from referee.authority.matches import Created, MatchError, Matches, load_spec
from referee.authority.outbox import Outbox, SendReport
from referee.authority.queries import Queries
from referee.authority.spec import MatchSpec


class Referee(Queries, Commands, Closing, Outbox, Intake, Matches, Faults):
    pass


__all__ = ["Referee", "Settings", "Handled", "Created", "MatchError", "MatchSpec", "load_spec",
           "TickReport", "SendReport"]
