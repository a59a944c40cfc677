"""The life of a campaign around its turns (issue 18, first half): table talk
(``press.Press``) and the chronicle with players' letters (``chronicle.Chronicle``),
behind the few names ``Commands`` and ``Intake`` hand over to."""
from __future__ import annotations

from referee.authority.replies import Handled
from referee.authority.talk.chronicle import Chronicle
from referee.authority.talk.press import Press

PLAYER_COMMANDS = ("press", "letter")
GM_COMMANDS = ("chronicle", "approve", "decline")


class Talk:
    def __init__(self, store, archive, renderer, lookups, queue, replies, reader, settings, now) -> None:
        self.press = Press(store, archive, renderer, lookups, queue, replies, reader, settings, now)
        self.chronicle = Chronicle(store, archive, renderer, lookups, queue, replies, settings, now)

    def player_command(self, mail, match, player, env, doc) -> Handled:
        if env.command == "press":
            return self.press.send(mail, match, player, env, doc)
        return self.chronicle.letter(mail, match, player, env, doc)

    def gm_command(self, match_id: str, cmd: str, args: dict, requested_by=None) -> str:
        if cmd == "chronicle":
            return self.chronicle.write(match_id, args, requested_by)
        return self.chronicle.decide(match_id, cmd == "approve", args)

    def match_of_answer(self, mail) -> dict | None:
        return self.press.match_of_answer(mail)

    def answer(self, mail, lang: str, check) -> Handled | None:
        """A reply to a relayed message of table talk, routed back; None if the mail is none.
        ``check``: the sender check every mail of a seat goes through (``Senders.check``)."""
        return self.press.answer(mail, lang, check)
