"""Answering a mail: the reply (and its copy to a seat's registered address),
refusals, the short answer to strangers within its hourly budget, and the
notice to a seat's owner that someone tried a wrong key."""
from __future__ import annotations

import logging
from dataclasses import dataclass

from referee import checks
from referee.authority.wording import NOTHING_TO_FIX, describe

STRANGER_REPLIES_PER_HOUR = 20    # all unknown senders together
STRANGERS = "@strangers"          # their shared bucket in the rate table (no address has an '@' first)
MAX_PROBLEMS = 20                 # problems listed in one refusal
log = logging.getLogger("referee.intake")


@dataclass
class Handled:
    outcome: str                 # "processed" | "refused" | "ignored" (what MailSource.done wants)
    reason: str = ""             # accepted, command name, problem code, auto-submitted, duplicate ...
    match: str | None = None
    player: str | None = None
    duplicate: bool = False


class Replies:
    def __init__(self, store, renderer, lookups, queue, reader, settings, now) -> None:
        self.store, self.renderer, self.lookups, self.queue = store, renderer, lookups, queue
        self.reader, self.settings, self.now = reader, settings, now

    def reply(self, mail, match, player, subject: str, text: str) -> None:
        """Answer the sender; if that is not the registered address, copy it there."""
        mid = match["id"] if match else None
        self.queue.queue(f"reply:{mail.message_id}:{mail.content_hash[:16]}", mid, mail.sender or player["email"],
                         subject, text, reply_to=mail)
        if player is not None and mail.sender and mail.sender != player["email"]:
            lang = self.lookups.lang_of(match, player)
            csubject, ctext = self.renderer.mail("copy", lang, match=self.lookups.match_ctx(match, self.lookups.rules(match)),
                                                 player=player, sender=mail.sender or "?", subject=subject, body=text)
            self.queue.queue(f"copy:{mail.message_id}:{mail.content_hash[:16]}", mid, player["email"], csubject, ctext)

    def refuse(self, mail, match, lang: str, problems: list, player=None, code: str | None = None,
               source: str | None = None) -> Handled:
        ctx_match = self.lookups.match_ctx(match, self.lookups.rules(match)) if match else None
        problems = list(problems)[:MAX_PROBLEMS]
        fixable = any(getattr(p, "code", None) not in NOTHING_TO_FIX for p in problems)
        subject, text = self.renderer.mail("refused", lang, match=ctx_match, problems=[describe(p, lang, source) for p in problems],
                                           fixable=fixable,
                                           subject=mail.subject)
        if mail.sender:
            self.reply(mail, match, player, subject, text)
        reason = code or (problems[0].code if problems else "refused")
        return Handled("refused", reason, match["id"] if match else None, player["id"] if player else None)

    def tell_wrong_key(self, mail, match, player) -> None:
        if mail.sender == player["email"] or not mail.sender:
            return  # the reply itself reaches the registered address; no sender: nobody to name
        lang = self.lookups.lang_of(match, player)
        subject, text = self.renderer.mail("wrong_key", lang, match=self.lookups.match_ctx(match, self.lookups.rules(match)),
                                           player=player, sender=checks.echo(mail.sender))
        # at most one notice per seat and hour, however many forged senders try
        hour = self.now().strftime("%Y%m%d%H")
        self.queue.queue(f"wrongkey:{match['id']}:{player['id']}:{hour}", match["id"], player["email"], subject, text)

    def known(self, sender: str, match=None) -> bool:
        """Whether ``sender`` may be answered in full: a player or the GM of
        ``match``; without a match, of any running match, or a creator."""
        if not sender:
            return False
        if match is not None:
            return sender == match["gm_email"] or self.store.plays_in(match["id"], sender)
        return sender in self.settings.gm_keys or self.store.language_of_address(sender) is not None

    def refuse_stranger(self, mail, reason: str, match_id: str | None = None) -> Handled:
        """Mail from an address the referee does not know: one short fixed answer,
        reflecting nothing and telling nothing of matches or seats, and only while a
        global hourly budget lasts (forged senders must not turn it into a mail cannon)."""
        if mail.sender and self.stranger_budget():
            subject, text = self.renderer.mail("stranger", self.settings.default_lang)
            self.queue.queue(f"reply:{mail.message_id}:{mail.content_hash[:16]}", None, mail.sender, subject, text,
                             reply_to=mail)
        log.info("mail %s from an unknown sender refused (%s)", checks.echo(mail.message_id, 80), reason)
        return Handled("refused", reason, match_id)

    def stranger_budget(self) -> bool:
        limit = self.reader.RateLimit(capacity=STRANGER_REPLIES_PER_HOUR)
        stored = self.store.rate_bucket(STRANGERS)
        decision = limit.take(self.reader.Bucket.from_json(stored) if stored else None, self.now())
        self.store.put_rate_bucket(STRANGERS, decision.bucket.to_json())
        return decision.allowed


def _at(doc, key: str) -> tuple:
    """(line, column) of a top-level key in the document, if it can say."""
    try:
        line, column = doc.position((key,))
        return (line, column)
    except Exception:
        return ()
