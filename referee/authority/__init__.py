"""The referee authority: matches, intake, commands, closing turns, the outbox.

``Referee(store, archive_root, renderer, clock, settings)`` is the one object
the CLI and the service loop talk to.  All outgoing mail goes through the
outbox (``send_pending``); everything else is a method here.
"""
from __future__ import annotations

from referee.authority.base import Settings
from referee.authority.closing import Closing, TickReport
from referee.authority.commands import Commands
from referee.authority.intake import Handled, Intake
from referee.authority.matches import Created, MatchError, Matches, load_spec
from referee.authority.outbox import Outbox, SendReport
from referee.authority.queries import Queries
from referee.authority.spec import MatchSpec


class Referee(Queries, Commands, Closing, Outbox, Intake, Matches):
    pass


__all__ = ["Referee", "Settings", "Handled", "Created", "MatchError", "MatchSpec", "load_spec",
           "TickReport", "SendReport"]
