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
The work is done by parts, each with its own small state and its dependencies
in its constructor (``referee.py`` wires them; docs/INTERNALS.md draws them).
"""
from __future__ import annotations

from referee.authority.base import Settings
from referee.authority.closing import TickReport
from referee.authority.intake import Handled
from referee.authority.matches import Created, MatchError, load_spec
from referee.authority.outbox import SendReport
from referee.authority.referee import Referee
from referee.authority.spec import MatchSpec

__all__ = ["Referee", "Settings", "Handled", "Created", "MatchError", "MatchSpec", "load_spec",
           "TickReport", "SendReport"]
