"""Handling one received mail, end to end, in one transaction before any reply.

Order of checks: dedupe, rate limit, archive the raw mail (only its header
section when over the rate or the size), loop guards (no reply to automatic
mail), size, document, envelope, match, player, key, then the command or the
orders; lateness by when the mail reached the server (``_arrived``).  The sender is
judged first from what needs no DNS (``senders``: a look-up must not hold the store);
where a step needs a verdict that waits for the DNS (after the per-sender limit and the
key check), the transaction is rolled back, the DNS asked, and the mail handled again.
The verdict is stored with the mail; a mail with the right key is checked against it
before it acts.  The reply is queued in the outbox inside the
same transaction, so a crash anywhere means the mail is handled again from
scratch, and a mail handled once is never answered twice.
"""
from __future__ import annotations

import dataclasses
import logging
import re

from referee.authority import keys
from referee.authority.gate.orders import orders_text  # noqa: F401 (named here for its readers)
from referee.authority.gate.senders import Senders
from referee.authority.replies import STRANGER_REPLIES_PER_HOUR, Handled, _at  # noqa: F401
from referee.authority.wording import Own, describe
from referee.intake.finding import PLACEHOLDER_KEYS  # what the reports' envelope lines show instead of a key
from referee.mail.inbound import MAX_BYTES, header_section
from referee.mail.senderauth import Deferred
from referee.runtime import crash
from referee.store import seats as seat_rows
from referee.store.transient import transient

GM_IDS = ("@gm", "gm")
TAKEN = "taken"   # another worker is handling the mail right now: it stays at the source
log = logging.getLogger("referee.intake")


class Intake:
    """The door: one received mail, checked in order, handed to ``commands`` or
    ``orders``, answered through ``replies``; all in one transaction."""

    def __init__(self, store, archive, renderer, lookups, queue, replies, orders, commands, reader,
                 settings, now, talk=None) -> None:
        self.talk = talk   # issue 18: answers to relayed table talk
        self.store, self.archive, self.renderer, self.lookups, self.queue = store, archive, renderer, lookups, queue
        self.replies, self.orders, self.commands, self.reader = replies, orders, commands, reader
        self.settings, self.now = settings, now
        self.senders = Senders(store, renderer, lookups, queue, replies, settings, now)

    def handle(self, mail) -> Handled:
        prior = self.store.processed(mail.message_id, mail.content_hash)
        if prior is not None:
            return Handled(prior, "duplicate", duplicate=True)
        # outside the transaction, without DNS look-ups (in a caller's transaction, which could
        # not be rolled back for them, with them at once)
        mail = self.senders.judged(mail, lookups=self.store.in_transaction())
        try:
            return self._handle_once(mail)
        except Deferred:
            # a step needs the verdict and it waits for the DNS: the transaction is rolled back, the
            # sender judged outside it (one time budget), and the mail handled afresh with the verdict
            return self._handle_once(self.senders.judged(mail, lookups=True))

    def _handle_once(self, mail) -> Handled:
        try:
            with self.store.transaction():
                # the processed record is the lock: a mail another worker has taken is left to it
                claimed = self.store.claim_mail(mail.message_id, mail.content_hash, self.now())
                if claimed is None:
                    return Handled(TAKEN, "duplicate", duplicate=True)
                if not claimed:
                    return Handled(self.store.processed(mail.message_id, mail.content_hash) or "duplicate",
                                   "duplicate", duplicate=True)
                self.senders.record(mail)
                result = self._handle(mail)
                crash.point("intake.before_commit")
                self.store.mark_processed(mail.message_id, mail.content_hash, result.outcome, result.match, self.now())
        except Deferred:
            raise
        except Exception as error:
            if transient(error):
                raise   # a locked store (hardening, issue 13): the mail stays at the source, the cycle is retried
            # A fault in our code or a game's must not make the mail come back
            # forever: refuse it with an apology, keep the mail, log the cause.
            log.exception("handling %s failed", mail.message_id)
            with self.store.transaction():
                self.senders.record(mail)
                self.archive.save_mail(None, None, mail.content_hash, mail.raw)
                if not mail.automatic and self.replies.known(mail.sender):   # a stranger's fault: no answer
                    lang = self.settings.default_lang
                    subject, text = self.renderer.mail("refused", lang, match=None, subject=mail.subject, fixable=False,
                                                       tag=None, deadline=None,
                                                       problems=[describe(Own("internal.error"), lang)])
                    self.queue.queue(f"reply:{mail.message_id}:{mail.content_hash[:16]}", None, mail.sender, subject, text,
                                     reply_to=mail)
                self.store.mark_processed(mail.message_id, mail.content_hash, "refused", None, self.now())
            return Handled("refused", "internal.error")
        crash.point("intake.committed")
        return result

    # -- the checks, in order ------------------------------------------------
    def _read(self, mail) -> tuple:
        """(document, envelope, problems) of a mail's text: the envelope None where it has none."""
        found = self.reader.read_document(mail)
        if isinstance(found, list):
            return None, None, found
        read = self.reader.read_envelope(found)
        return (found, None, read) if isinstance(read, list) else (found, read, [])

    def _handle(self, mail) -> Handled:
        doc, env, problems = None, None, []
        if not mail.too_large:
            doc, env, problems = self._read(mail)
            if env is None and getattr(mail, "literal", ""):   # HTML laid out as a browser would: try its own blanks
                again = self._read(dataclasses.replace(mail, text=mail.literal))
                if again[1] is not None:
                    doc, env, problems = again
        if env is not None:   # a close of this match waits for this mail, or this mail for the close
            self.store.claim_match(env.match)
        match = self.store.match(env.match) if env is not None else None
        if env is None and self.talk is not None:   # an answer to table talk is kept with its match
            match = self.talk.match_of_answer(mail)
        turn = self.store.current_turn(match["id"]) if match else None
        mid = match["id"] if match else None
        limited = None if mail.automatic else self._rate_limited(mail)
        # A mail over the rate is kept as its header section only (a flood must not fill the
        # disk); an over-size one is only that already (parse_inbound).
        self.archive.save_mail(mid, turn["number"] if turn else None, mail.content_hash,
                               mail.raw if limited is None else header_section(mail.raw)[0])
        if mail.automatic:
            return Handled("ignored", mail.automatic, mid)
        lang = self.lookups.lang_of(match) if match else self._sender_lang(mail)
        if limited is not None:
            if limited is True or not self.replies.known(mail.sender):
                return Handled("ignored", "mail.rate_limited", mid)
            return self.replies.refuse(mail, None, lang, [limited], code="mail.rate_limited")
        if mail.too_large:
            if not self.replies.known(mail.sender):
                return self.replies.refuse_stranger(mail, "mail.too_large")
            problem = Own("mail.head_cut") if getattr(mail, "over", "") == "head" else \
                Own("mail.over_limit", too_large_params(mail))
            return self.replies.refuse(mail, None, lang, [problem], code="mail.too_large")
        if env is None and self.talk is not None:   # an answer to relayed table talk carries no document
            answered = self.talk.answer(mail, lang, self.senders.check)
            if answered is not None:
                return answered
        if env is None:
            return self._refuse_envelope(mail, doc, lang, problems)
        if env.command == "create":
            return self.commands.create_by_mail(mail, env, doc)
        if match is None:
            if not self.replies.known(mail.sender):   # whether a match exists is no stranger's business
                return self.replies.refuse_stranger(mail, "match.unknown")
            return self.replies.refuse(mail, None, lang, [Own("match.unknown", {"match": env.match}, *_at(doc, "match"))])
        if self.commands.joining.takes(match, env, turn):   # issue 18: joining, and a match not started yet
            return self.commands.joining.handle(mail, match, env, doc, self.senders)
        if env.player in GM_IDS:
            right, fresh = keys.check(env.key, match["gm_key_hash"])
            if fresh:
                seat_rows.set_gm_key_hash(self.store, match["id"], fresh)   # an older scheme's hash, written anew
            if right:
                refused = self.senders.check(mail, match, None, lang, doc)
                if refused is not None:
                    return refused
            return self.commands.gm_mail(mail, match, env, doc)
        member = self.replies.known(mail.sender, match)
        player = self.store.player(match["id"], env.player)
        if player is None:
            if not member:
                return self.replies.refuse_stranger(mail, "player.unknown", mid)
            return self.replies.refuse(mail, match, lang, [Own("player.unknown", {"match": match["id"], "player": env.player},
                                                               *_at(doc, "player"))])
        if self.commands.seats.confirming(env):   # issue 18: an address code proves itself, no key
            return self.commands.seats.identity.confirm(mail, match, player, env, doc)
        lang = self.lookups.lang_of(match, player)
        if (env.key or "").strip().upper() in PLACEHOLDER_KEYS:  # nobody else's attempt: no warning to the owner
            if not member:
                return self.replies.refuse_stranger(mail, "key.placeholder", mid)
            return self.replies.refuse(mail, match, lang, [Own("key.placeholder", {"key": env.key.strip()},
                                                               *_at(doc, "key"))])
        if env.command == "new-key" and not (env.key or "").strip():   # a lost key: only its own address may ask
            return self._lost_key(mail, match, player, env, doc, lang, member, mid)
        right, fresh = keys.check(env.key, player["key_hash"])
        if fresh:
            seat_rows.set_key_hash(self.store, match["id"], player["id"], fresh)
        if not right:
            self.replies.tell_wrong_key(mail, match, player)  # the registered address hears of it (no copy as well)
            why = "key.wrong" if (env.key or "").strip() else "key.missing"
            if not member:
                return self.replies.refuse_stranger(mail, why, mid)
            at = _at(doc, "key") if why == "key.wrong" else ()   # a missing line has no place to point at
            return self.replies.refuse(mail, match, lang, [Own(why, {"player": player["id"]}, *at)])
        refused = self.senders.check(mail, match, player, lang, doc)
        if refused is not None:
            return refused
        if env.command:
            return self.commands.player_command(mail, match, player, env, doc)
        return self.orders.take(mail, match, player, turn, env, doc, lang)

    def _lost_key(self, mail, match, player, env, doc, lang: str, member: bool, mid) -> Handled:
        if mail.sender != (player["email"] or "").lower():
            if not member:
                return self.replies.refuse_stranger(mail, "key.lost_elsewhere", mid)
            return self.replies.refuse(mail, match, lang, [Own("key.lost_elsewhere", {"player": player["id"]},
                                                               *_at(doc, "command"))])
        refused = self.senders.check(mail, match, player, lang, doc)
        if refused is not None:
            return refused
        return self.commands.seats.identity.lost_key(mail, match, player, env, doc)

    def _refuse_envelope(self, mail, doc, lang: str, problems: list) -> Handled:
        """A document whose envelope is faulty may still name a known match: answer
        in that match's name (subject tag, wording) so the player sees which game
        the refusal is about.  The mail stays unattributed: nothing was proven.
        Without a readable document (a YAML error, two documents) the 'match:'
        lines of the mail itself are asked, if they agree on one name."""
        named = _named_match(mail, doc)
        match = self.store.match(named) if named else None
        if match is not None and not self.replies.known(mail.sender, match):
            match = None   # a stranger learns nothing of the match the mail names
        if match is None and not self.replies.known(mail.sender):
            return self.replies.refuse_stranger(mail, problems[0].code if problems else "envelope")
        if match is not None:   # the sender's language in the match named, not in their newest one (issue 33)
            seat = next((p for p in self.store.players(match["id"]) if p["email"] == mail.sender), None)
            lang = self.lookups.lang_of(match, None if mail.sender == match["gm_email"] else seat)
        handled = self.replies.refuse(mail, match, lang, problems, source=doc.source if doc is not None else None)
        handled.match = None
        return handled

    def _sender_lang(self, mail) -> str:
        known = self.store.language_of_address(mail.sender) if mail.sender else None
        return known or self.settings.default_lang

    def _rate_limited(self, mail):
        """None if the mail may pass; the problem to tell the sender once; True to stay silent."""
        if not mail.sender or self.settings.rate_limit_per_hour <= 0:
            return None
        limit = self.reader.RateLimit(capacity=self.settings.rate_limit_per_hour)
        stored = self.store.rate_bucket(mail.sender)
        decision = limit.take(self.reader.Bucket.from_json(stored) if stored else None, self.now())
        self.store.put_rate_bucket(mail.sender, decision.bucket.to_json())
        if decision.allowed:
            return None
        if decision.notify:
            return limit.problem(mail.sender, decision, decision.retry_after.strftime("%Y-%m-%d %H:%M UTC"))
        return True


def too_large_params(mail) -> dict:
    """Which limit a too-large mail broke, in words: the whole mail, its text, or a YAML file."""
    limit = getattr(mail, "limit", 0) or MAX_BYTES
    part = _OVER.get(getattr(mail, "over", ""), _OVER["mail"])
    size = f"{limit / 1_000_000:g} MB" if limit >= 1_000_000 else f"{limit / 1000:g} kB"
    return {"part_en": part[0], "part_de": part[1], "limit": size}


_OVER = {"mail": ("the whole mail", "die ganze Mail"), "text": ("its text", "ihr Text"),
         "yaml": ("its YAML attachment", "ihr YAML-Anhang")}
_MATCH_LINE = re.compile(r"^[ \t]*match[ \t]*:[ \t]*['\"]?([A-Za-z0-9_-]+)['\"]?[ \t]*$", re.M | re.I)


def _named_match(mail, doc) -> str | None:
    """The match a mail names, as far as it can be read (lower case), else None."""
    if doc is not None and isinstance(doc.data, dict):
        for key, value in doc.data.items():
            if str(key).strip().lower() == "match" and isinstance(value, str) and value.strip():
                return value.strip().lower()
        return None
    texts = [mail.text or ""] + [text for _, text in mail.attachments]
    names = {m.group(1).lower() for text in texts for m in _MATCH_LINE.finditer(text)}   # '>' quotes never match
    return names.pop() if len(names) == 1 else None
