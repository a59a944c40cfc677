"""The player commands of issue 18 that concern a seat itself: ``new-key`` and
``address`` (identity.py), ``absent`` (absence.py); issue 38's ``pictures`` and
``no-pictures`` (picture_setting.py).  ``Commands`` hands them here."""
from __future__ import annotations

from referee.authority.matches.absence import Absence
from referee.authority.matches.identity import Identity
from referee.authority.matches.picture_setting import PICTURE_COMMANDS, PictureSetting
from referee.authority.replies import Handled

SEAT_COMMANDS = ("new-key", "address", "absent") + PICTURE_COMMANDS


class SeatCommands:
    def __init__(self, store, renderer, lookups, queue, replies, notices, settings, now) -> None:
        parts = (store, renderer, lookups, queue, replies, notices, settings, now)
        self.identity, self.absence, self.pictures = Identity(*parts), Absence(*parts), PictureSetting(*parts)
        self.handlers = {"new-key": self.identity.new_key, "address": self.identity.address,
                         "absent": self.absence.declare, "pictures": self.pictures.set, "no-pictures": self.pictures.set}

    def handle(self, mail, match, player, env, doc) -> Handled:
        return self.handlers[env.command](mail, match, player, env, doc)

    def confirming(self, env) -> bool:
        """A mail bringing back an address code: it proves itself by the code, not a key."""
        return env.command == "address" and "code" in env.args
