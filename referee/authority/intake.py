"""Handling one received mail, end to end, in one transaction before any reply.

Order of checks: dedupe, rate limit, archive the raw mail (only its header
section when over the rate or the size), loop guards (no reply to automatic
mail), size, document, envelope, match, player, key, then the command or the
orders; lateness by when the mail reached the server (``_arrived``).  The reply is queued in the outbox inside the
same transaction, so a crash anywhere means the mail is handled again from
scratch, and a mail handled once is never answered twice.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime

import yaml

from referee import checks
from referee.authority import crash, keys
from referee.authority.base import Base
from referee.authority.wording import NOTHING_TO_FIX, Own, describe
from referee.intake.finding import PLACEHOLDER_KEYS   # what the reports' envelope lines show instead of a key
from referee.mail.inbound import MAX_BYTES, header_section

GM_IDS = ("@gm", "gm")
STRANGER_REPLIES_PER_HOUR = 20    # all unknown senders together
STRANGERS = "@strangers"          # their shared bucket in the rate table (no address has an '@' first)
MAX_PROBLEMS = 20                 # problems listed in one refusal
log = logging.getLogger("referee.intake")
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@dataclass
class Handled:
    outcome: str                 # "processed" | "refused" | "ignored" (what MailSource.done wants)
    reason: str = ""             # accepted, command name, problem code, auto-submitted, duplicate ...
    match: str | None = None
    player: str | None = None
    duplicate: bool = False


class Intake(Base):
    def handle(self, mail) -> Handled:
        prior = self.store.processed(mail.message_id, mail.content_hash)
        if prior is not None:
            return Handled(prior, "duplicate", duplicate=True)
        try:
            with self.store.transaction():
                prior = self.store.processed(mail.message_id, mail.content_hash)
                if prior is not None:
                    return Handled(prior, "duplicate", duplicate=True)
                result = self._handle(mail)
                crash.point("intake.before_commit")
                self.store.mark_processed(mail.message_id, mail.content_hash, result.outcome, result.match, self.now())
        except Exception:
            # A fault in our code or a game's must not make the mail come back
            # forever: refuse it with an apology, keep the mail, log the cause.
            log.exception("handling %s failed", mail.message_id)
            with self.store.transaction():
                self.archive.save_mail(None, None, mail.content_hash, mail.raw)
                if not mail.automatic and self.known(mail.sender):   # a stranger's fault: no answer
                    lang = self.settings.default_lang
                    subject, text = self.renderer.mail("refused", lang, match=None, subject=mail.subject, fixable=False,
                                                       tag=None, deadline=None,
                                                       problems=[describe(Own("internal.error"), lang)])
                    self.queue(f"reply:{mail.message_id}:{mail.content_hash[:16]}", None, mail.sender, subject, text,
                               reply_to=mail)
                self.store.mark_processed(mail.message_id, mail.content_hash, "refused", None, self.now())
            return Handled("refused", "internal.error")
        crash.point("intake.committed")
        return result

    # -- the checks, in order ------------------------------------------------
    def _handle(self, mail) -> Handled:
        doc, env, problems = None, None, []
        if not mail.too_large:
            found = self.intake.read_document(mail)
            if isinstance(found, list):
                problems = found
            else:
                doc = found
                read = self.intake.read_envelope(doc)
                if isinstance(read, list):
                    problems = read
                else:
                    env = read
        match = self.store.match(env.match) if env is not None else None
        turn = self.store.current_turn(match["id"]) if match else None
        mid = match["id"] if match else None
        limited = None if mail.automatic else self._rate_limited(mail)
        # A mail over the rate is kept as its header section only (a flood must not fill the
        # disk); an over-size one is only that already (parse_inbound).
        self.archive.save_mail(mid, turn["number"] if turn else None, mail.content_hash,
                               mail.raw if limited is None else header_section(mail.raw)[0])
        if mail.automatic:
            return Handled("ignored", mail.automatic, mid)
        lang = self.lang_of(match) if match else self._sender_lang(mail)
        if limited is not None:
            if limited is True or not self.known(mail.sender):
                return Handled("ignored", "mail.rate_limited", mid)
            return self.refuse(mail, None, lang, [limited], code="mail.rate_limited")
        if mail.too_large:
            if not self.known(mail.sender):
                return self.refuse_stranger(mail, "mail.too_large")
            return self.refuse(mail, None, lang, [Own("mail.over_limit", too_large_params(mail))], code="mail.too_large")
        if env is None:
            return self._refuse_envelope(mail, doc, lang, problems)
        if env.command == "create":
            return self.create_by_mail(mail, env, doc)
        if match is None:
            if not self.known(mail.sender):   # whether a match exists is no stranger's business
                return self.refuse_stranger(mail, "match.unknown")
            return self.refuse(mail, None, lang, [Own("match.unknown", {"match": env.match}, *_at(doc, "match"))])
        if env.player in GM_IDS:
            return self.gm_mail(mail, match, env, doc)
        member = self.known(mail.sender, match)
        player = self.store.player(match["id"], env.player)
        if player is None:
            if not member:
                return self.refuse_stranger(mail, "player.unknown", mid)
            return self.refuse(mail, match, lang, [Own("player.unknown", {"match": match["id"], "player": env.player},
                                                       *_at(doc, "player"))])
        lang = self.lang_of(match, player)
        if (env.key or "").strip().upper() in PLACEHOLDER_KEYS:  # nobody else's attempt: no warning to the owner
            if not member:
                return self.refuse_stranger(mail, "key.placeholder", mid)
            return self.refuse(mail, match, lang, [Own("key.placeholder", {"key": env.key.strip()}, *_at(doc, "key"))])
        if not keys.verify(env.key, player["key_hash"]):
            self._tell_wrong_key(mail, match, player)  # the registered address hears of it (no copy as well)
            if not member:
                return self.refuse_stranger(mail, "key.wrong", mid)
            return self.refuse(mail, match, lang, [Own("key.wrong", {"player": player["id"]}, *_at(doc, "key"))])
        if env.command:
            return self.player_command(mail, match, player, env, doc)
        return self._orders(mail, match, player, turn, env, doc, lang)

    def _orders(self, mail, match, player, turn, env, doc, lang) -> Handled:
        if match["status"] == "ended":
            return self.refuse(mail, match, lang, [Own("match.ended", {"match": match["id"]})], player=player)
        if env.turn is not None and env.turn != turn["number"]:
            return self.refuse(mail, match, lang, [Own("turn.wrong", {"sent": env.turn, "current": turn["number"]},
                                                       *_at(doc, "turn"))], player=player)
        if turn["deadline"] and not self.timing(match).accepts_orders(datetime.fromisoformat(turn["deadline"]),
                                                                      self._arrived(mail, turn)):
            info = self.deadline_info(match, turn, lang)
            return self.refuse(mail, match, lang, [Own("turn.late", {"current": turn["number"], "deadline": info["local"]})],
                               player=player)
        stage = turn["awaiting"].get(player["id"])
        if stage is None:
            return self.refuse(mail, match, lang, [Own("turn.not_awaited", {"current": turn["number"]})], player=player)
        if env.orders is None:
            return self.refuse(mail, match, lang, [Own("orders.missing")], player=player)
        rules = self.rules(match)
        state = self.turn_state(rules, match["id"], turn)
        model, problems = self.intake.check_orders(rules, state, stage, player["id"], env.orders, doc)
        # the intake's own warnings (tabs read as spaces, attachments left aside) are news to the player too
        problems = list(problems) + list(getattr(doc, "notes", ()))
        if model is None or any(p.severity == "error" for p in problems):
            return self.refuse(mail, match, lang, problems, player=player, source=doc.source)
        orders = model.model_dump(mode="json")
        self.store.put_submission(match["id"], turn["number"], player["id"], orders, mail.message_id,
                                  mail.content_hash, self.now())
        names = self.names(match["id"])
        awaited = [names.get(p, {"name": p})["name"] for p in self.still_awaited(match["id"], turn)]
        subject, text = self.renderer.mail(
            "accepted", lang, match=self.match_ctx(match, rules), player=player, turn=turn["number"],
            orders=orders_text(orders, model.model_fields_set),
            warnings=[describe(p, lang, doc.source) for p in problems], deadline=self.deadline_info(match, turn, lang),
            awaited=awaited, paused=match["status"] == "paused", subject=mail.subject,
            early_close=bool(match["spec"].get("early_close", True)))
        self.reply(mail, match, player, subject, text)
        return Handled("processed", "accepted", match["id"], player["id"])

    def _arrived(self, mail, turn) -> datetime:
        """When the mail reached our server (IMAP INTERNALDATE, Maildir delivery), so
        orders in time are in time after an outage too; never the Date: header, which
        the sender writes.  A time in the future or before the turn opened is not
        believed: then it is now."""
        now = self.now()
        arrived = getattr(mail, "received", None)
        opened = datetime.fromisoformat(turn["opened"]) if turn.get("opened") else None
        if arrived is None or arrived > now or (opened is not None and arrived < opened):
            return now
        return arrived

    # -- replies ---------------------------------------------------------------
    def reply(self, mail, match, player, subject: str, text: str) -> None:
        """Answer the sender; if that is not the registered address, copy it there."""
        mid = match["id"] if match else None
        self.queue(f"reply:{mail.message_id}:{mail.content_hash[:16]}", mid, mail.sender or player["email"],
                   subject, text, reply_to=mail)
        if player is not None and mail.sender and mail.sender != player["email"]:
            lang = self.lang_of(match, player)
            csubject, ctext = self.renderer.mail("copy", lang, match=self.match_ctx(match, self.rules(match)),
                                                 player=player, sender=mail.sender or "?", subject=subject, body=text)
            self.queue(f"copy:{mail.message_id}:{mail.content_hash[:16]}", mid, player["email"], csubject, ctext)

    def _refuse_envelope(self, mail, doc, lang: str, problems: list) -> Handled:
        """A document whose envelope is faulty may still name a known match: answer
        in that match's name (subject tag, wording) so the player sees which game
        the refusal is about.  The mail stays unattributed: nothing was proven.
        Without a readable document (a YAML error, two documents) the 'match:'
        lines of the mail itself are asked, if they agree on one name."""
        named = _named_match(mail, doc)
        match = self.store.match(named) if named else None
        if match is not None and not self.known(mail.sender, match):
            match = None   # a stranger learns nothing of the match the mail names
        if match is None and not self.known(mail.sender):
            return self.refuse_stranger(mail, problems[0].code if problems else "envelope")
        if match is not None and not (mail.sender and self.store.language_of_address(mail.sender)):
            lang = self.lang_of(match)
        handled = self.refuse(mail, match, lang, problems, source=doc.source if doc is not None else None)
        handled.match = None
        return handled

    def _sender_lang(self, mail) -> str:
        known = self.store.language_of_address(mail.sender) if mail.sender else None
        return known or self.settings.default_lang

    def refuse(self, mail, match, lang: str, problems: list, player=None, code: str | None = None,
               source: str | None = None) -> Handled:
        ctx_match = self.match_ctx(match, self.rules(match)) if match else None
        problems = list(problems)[:MAX_PROBLEMS]
        fixable = any(getattr(p, "code", None) not in NOTHING_TO_FIX for p in problems)
        thread = match or self._thread_match(mail)    # a reply to a report keeps its [match] tag
        turn = self.store.current_turn(match["id"]) if match and match["status"] != "ended" else None
        owes = (turn is not None and player is not None and match["status"] == "running"
                and turn["status"] == "open" and player["id"] in turn["awaiting"])
        subject, text = self.renderer.mail("refused", lang, match=ctx_match, problems=[describe(p, lang, source) for p in problems],
                                           fixable=fixable, tag=thread["id"] if thread else None,
                                           deadline=self.deadline_info(match, turn, lang) if owes else None,
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

    def _tell_wrong_key(self, mail, match, player) -> None:
        if mail.sender == player["email"] or not mail.sender:
            return  # the reply itself reaches the registered address; no sender: nobody to name
        lang = self.lang_of(match, player)
        subject, text = self.renderer.mail("wrong_key", lang, match=self.match_ctx(match, self.rules(match)),
                                           player=player, sender=checks.echo(mail.sender))
        # at most one notice per seat and hour, however many forged senders try
        hour = self.now().strftime("%Y%m%d%H")
        self.queue(f"wrongkey:{match['id']}:{player['id']}:{hour}", match["id"], player["email"], subject, text)

    # -- strangers ----------------------------------------------------------------
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
        if mail.sender and self._stranger_budget():
            subject, text = self.renderer.mail("stranger", self.settings.default_lang)
            self.queue(f"reply:{mail.message_id}:{mail.content_hash[:16]}", None, mail.sender, subject, text,
                       reply_to=mail)
        log.info("mail %s from an unknown sender refused (%s)", checks.echo(mail.message_id, 80), reason)
        return Handled("refused", reason, match_id)

    def _stranger_budget(self) -> bool:
        limit = self.intake.RateLimit(capacity=STRANGER_REPLIES_PER_HOUR)
        stored = self.store.rate_bucket(STRANGERS)
        decision = limit.take(self.intake.Bucket.from_json(stored) if stored else None, self.now())
        self.store.put_rate_bucket(STRANGERS, decision.bucket.to_json())
        return decision.allowed

    def _rate_limited(self, mail):
        """None if the mail may pass; the problem to tell the sender once; True to stay silent."""
        if not mail.sender or self.settings.rate_limit_per_hour <= 0:
            return None
        limit = self.intake.RateLimit(capacity=self.settings.rate_limit_per_hour)
        stored = self.store.rate_bucket(mail.sender)
        decision = limit.take(self.intake.Bucket.from_json(stored) if stored else None, self.now())
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


def orders_text(orders: dict, given=None) -> str:
    """Orders as a reply echoes them: what the player set, without the empty
    fields a game's model fills in (``null``, ``{}``, ``[]``) that they never wrote.
    ``given``: the fields the player sent; None when only the stored orders are known."""
    shown = {k: v for k, v in orders.items()
             if v is not None and not (v in ({}, []) and (given is None or k not in given))}
    return yaml.dump(shown, Dumper=Dumper, allow_unicode=True, sort_keys=False).rstrip()


_IDENT = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
_SUBJECT_TAG = re.compile(r"\[([a-z0-9][a-z0-9_-]{0,62})\]")
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


def _at(doc, key: str) -> tuple:
    """(line, column) of a top-level key in the document, if it can say."""
    try:
        line, column = doc.position((key,))
        return (line, column)
    except Exception:
        return ()
