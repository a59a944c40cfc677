"""A seat's board pictures, by mail (issue 38): ``command: no-pictures`` and the
seat's reports come without the board picture (a mail a fifth of the weight, for
a phone on a slow line); ``command: pictures`` and they carry it again (the
default).  Kept per seat in the store (``seats.set_pictures``), forgotten when the
seat goes to someone new; honoured when a report mail is built
(``outbox.no_pictures``), so a resent report follows the setting too.

Neither command takes anything but its name: a line more (``pictures: off``,
a guess at the syntax) is refused rather than read as the opposite wish.
"""
from __future__ import annotations

from referee.authority.picture_words import NOTED
from referee.authority.replies import Handled, _at
from referee.authority.wording import Own
from referee.store import seats as seat_rows

PICTURE_COMMANDS = ("pictures", "no-pictures")


class PictureSetting:
    def __init__(self, store, renderer, lookups, queue, replies, notices, settings, now) -> None:
        self.store, self.renderer, self.lookups = store, renderer, lookups
        self.replies, self.notices, self.now = replies, notices, now

    def set(self, mail, match, player, env, doc) -> Handled:
        lang = self.lookups.lang_of(match, player)
        cmd = env.command
        if env.args:
            arg = sorted(str(a) for a in env.args)[0]
            return self.replies.refuse(mail, match, lang, [Own("pictures.args", {"command": cmd, "arg": arg},
                                                               *_at(doc, arg))], player=player, code="pictures.args")
        seat_rows.set_pictures(self.store, match["id"], player["id"], cmd == "pictures", self.now())
        subject, text = self.renderer.mail("status", lang, **self.notices.status_ctx(match, player), command=cmd)
        said = NOTED[(cmd, lang if (cmd, lang) in NOTED else "en")]
        self.replies.reply(mail, match, player, subject, said + "\n\n" + text.lstrip("\n"))
        return Handled("processed", cmd, match["id"], player["id"])
