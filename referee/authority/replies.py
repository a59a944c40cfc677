"""Answering a mail: the reply (and its copy to a seat's registered address),
refusals, the short answer to strangers within its hourly budget, and the
notice to a seat's owner that someone tried a wrong key."""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from referee.authority.wording import NOTHING_TO_FIX, describe
from referee.intake import checks
from referee.store.senders import SenderRecords

STRANGER_REPLIES_PER_HOUR = 20    # all unknown senders together (the default of Trust.strangers_per_hour)
STRANGERS = "@strangers"          # their shared bucket in the rate table (no address has an '@' first)
MAX_PROBLEMS = 20                 # problems listed in one refusal
_IDENT = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
_SUBJECT_TAG = re.compile(r"\[([a-z0-9][a-z0-9_-]{0,62})\]")
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
        thread = match or self._thread_match(mail)    # a reply to a report keeps its [match] tag
        turn = self.store.current_turn(match["id"]) if match and match["status"] != "ended" else None
        owes = (turn is not None and player is not None and match["status"] == "running"
                and turn["status"] == "open" and player["id"] in turn["awaiting"])
        subject, text = self.renderer.mail("refused", lang, match=ctx_match, problems=[describe(p, lang, source) for p in problems],
                                           fixable=fixable, tag=thread["id"] if thread else None,
                                           deadline=self.lookups.deadline_info(match, turn, lang) if owes else None,
                                           subject=mail.subject)
        if mail.sender:
            self.reply(mail, match, player, subject, text)
        reason = code or (problems[0].code if problems else "refused")
        return Handled("refused", reason, match["id"] if match else None, player["id"] if player else None)

    def _thread_match(self, mail):
        """The match of the report a mail answers, if its sender plays in it: from our
        Message-IDs in In-Reply-To/References (``<digest.match@domain>``), else a
        ``[match]`` tag in the subject."""
        suffix = "@" + self.settings.domain
        named = [r[1:-len(suffix) - 1].partition(".")[2] for r in reversed(mail.references)
                 if r.endswith(suffix + ">")]
        named += [m.group(1) for m in _SUBJECT_TAG.finditer(mail.subject or "")]
        for name in named[:MAX_PROBLEMS]:
            match = self.store.match(name) if _IDENT.fullmatch(name) else None
            if match is not None and self.known(mail.sender, match):
                return match
        return None

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
        """Mail from an address the referee does not know.  Its sender is answered
        (one short fixed answer, reflecting nothing and telling nothing of matches or
        seats) only where the policy allows (by default: a sender whose From is
        proven, see ``senderauth.Trust``) and while a global hourly budget lasts;
        the rest is filed as ignored: forged senders must not turn the referee into
        a mail cannon (backscatter)."""
        trust = self.settings.trust
        if mail.sender and trust.answers_stranger(getattr(mail, "auth", None)) and self.stranger_budget():
            subject, text = self.renderer.mail("stranger", self.settings.default_lang)
            self.queue.queue(f"reply:{mail.message_id}:{mail.content_hash[:16]}", None, mail.sender, subject, text,
                             reply_to=mail)
            self._stranger(mail, "answered")
            log.info("mail %s from an unknown sender refused (%s)", checks.echo(mail.message_id, 80), reason)
            return Handled("refused", reason, match_id)
        self._stranger(mail, "ignored")
        log.info("mail %s from an unknown sender ignored (%s)", checks.echo(mail.message_id, 80), reason)
        return Handled("ignored", reason, match_id)

    def stranger_answered(self, mail, anyone: bool = False) -> bool:
        """For an answer in full to a stranger (a joiner, an address not proven yet):
        True where the policy of ``refuse_stranger`` allows its sender (``anyone``: a
        code that proves the address goes to whoever asked) and the budget lasts (one
        answer taken); else False, and the mail is filed as ignored."""
        allowed = anyone or self.settings.trust.answers_stranger(getattr(mail, "auth", None))
        if mail.sender and allowed and self.stranger_budget():
            self._stranger(mail, "answered")
            return True
        self._stranger(mail, "ignored")
        return False

    def _stranger(self, mail, what: str) -> None:
        SenderRecords(self.store).mark_stranger(mail.message_id, mail.content_hash, what)

    def stranger_budget(self) -> bool:
        limit = self.reader.RateLimit(capacity=self.settings.trust.strangers_per_hour)
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
