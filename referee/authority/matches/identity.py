"""A seat's key and address, changed by mail (issue 18).

``command: new-key`` (with the key): a fresh key goes to the registered
address only, whoever sent the command; the old one stops working at once.

``command: address`` with ``email:`` (with the key): a confirmation code goes
to the new address; the change takes effect when a mail *from* the new
address brings the code back (``command: address`` with ``code:``, no key
needed: the code proves the address, the key proved the seat).  Codes hold for
``CODE_HOURS``; ``MAX_TRIES`` wrong codes void the request; at most
``CODES_PER_DAY`` codes go out per seat and day, so nobody turns the referee
into a mail cannon at someone else's address.  The old address is told.
"""
from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from referee.authority import keys
from referee.authority.replies import Handled, _at
from referee.authority.wording import Own
from referee.intake import checks
from referee.store import seats as seat_rows

CODE_HOURS = 48
MAX_TRIES = 5
CODES_PER_DAY = 3


def new_code() -> str:
    return keys.new_key(groups=2)   # 40 random bits; MAX_TRIES guesses at most


class Identity:
    def __init__(self, store, renderer, lookups, queue, replies, notices, settings, now) -> None:
        self.store, self.renderer, self.lookups, self.queue = store, renderer, lookups, queue
        self.replies, self.notices, self.settings, self.now = replies, notices, settings, now

    def _ctx(self, match: dict) -> dict:
        return self.lookups.match_ctx(match, self.lookups.rules(match))

    def _done(self, mail, match, player, command: str, **extra) -> Handled:
        lang = self.lookups.lang_of(match, player)
        subject, text = self.renderer.mail("seat_done", lang, **self.notices.status_ctx(match, player),
                                           command=command, **extra)
        self.replies.reply(mail, match, player, subject, text)
        return Handled("processed", command, match["id"], player["id"])

    # -- new-key -----------------------------------------------------------------
    def new_key(self, mail, match, player, env, doc) -> Handled:
        key = keys.new_key()
        key_hash = keys.hash_key(key)
        seat_rows.set_key_hash(self.store, match["id"], player["id"], key_hash)
        player = self.store.player(match["id"], player["id"])
        lang = self.lookups.lang_of(match, player)
        turn = self.store.current_turn(match["id"])
        subject, text = self.renderer.mail("new_key", lang, match=self._ctx(match), player=player, key=key,
                                           turn=turn["number"], address=self.settings.address)
        issued = hashlib.sha256(key_hash.encode()).hexdigest()[:16]   # no part of the key in the dedupe
        self.queue.queue(f"newkey:{match['id']}:{player['id']}:{issued}", match["id"], player["email"], subject, text)
        return self._done(mail, match, player, "new-key")

    # -- address: the request --------------------------------------------------------
    def address(self, mail, match, player, env, doc) -> Handled:
        lang = self.lookups.lang_of(match, player)

        def refuse(code: str, **params) -> Handled:
            return self.replies.refuse(mail, match, lang, [Own(code, params, *_at(doc, "email"))], player=player,
                                       code=code)

        if "code" in env.args:   # sent with the key from the old address: the code only counts from the new one
            return self.confirm(mail, match, player, env, doc)
        if "email" not in env.args:
            return refuse("address.needs")
        try:
            new = checks.email(env.args["email"], "email").lower()
        except checks.Invalid:
            return refuse("address.bad", value=checks.echo(env.args["email"]))
        if new == self.settings.address.lower() or new.endswith("@" + self.settings.domain.lower()) and \
                new.partition("@")[0] in ("referee", "postmaster", "mailer-daemon"):
            return refuse("address.ours", value=new)
        if new == player["email"]:
            return refuse("address.same", value=new)
        if new == match["gm_email"] or any(p["email"] == new for p in self.store.players(match["id"])):
            return refuse("address.taken", value=new)
        now = self.now()
        pending = seat_rows.pending_address(self.store, match["id"], player["id"])
        sent, first = 1, now
        if pending is not None and now - datetime.fromisoformat(pending["first_sent"]) < timedelta(days=1):
            if pending["sent"] >= CODES_PER_DAY:
                when = datetime.fromisoformat(pending["first_sent"]) + timedelta(days=1)
                return refuse("address.too_many", count=CODES_PER_DAY, when=when.strftime("%Y-%m-%d %H:%M UTC"))
            sent, first = pending["sent"] + 1, datetime.fromisoformat(pending["first_sent"])
        code = new_code()
        expires = now + timedelta(hours=CODE_HOURS)
        seat_rows.put_pending_address(self.store, match["id"], player["id"], new, keys.hash_key(code), expires,
                                      sent, first)
        subject, text = self.renderer.mail("address_code", lang, match=self._ctx(match), player=player, code=code,
                                           hours=CODE_HOURS, address=self.settings.address, new=new)
        self.queue.queue(f"addresscode:{match['id']}:{player['id']}:{mail.message_id}:{mail.content_hash[:16]}",
                         match["id"], new, subject, text)
        return self._done(mail, match, player, "address", new=new, hours=CODE_HOURS)

    # -- address: the code comes back -------------------------------------------------
    def confirm(self, mail, match, player, env, doc) -> Handled:
        """A mail with ``code:``: only from the address the code went to, before it
        expires, within ``MAX_TRIES`` tries; a sender with nothing pending is a stranger."""
        pending = seat_rows.pending_address(self.store, match["id"], player["id"])
        member = self.replies.known(mail.sender, match)
        if pending is None or mail.sender != pending["new_email"]:
            if not member:
                return self.replies.refuse_stranger(mail, "address.no_request", match["id"])
            lang = self.lookups.lang_of(match, player)
            return self.replies.refuse(mail, match, lang, [Own("address.no_request", {"player": player["id"]})],
                                       code="address.no_request")
        lang = self.lookups.lang_of(match, player)
        answer = dict(player, email=pending["new_email"])   # answered at the new address, no copy elsewhere

        def refuse(code: str, **params) -> Handled:
            return self.replies.refuse(mail, match, lang, [Own(code, params, *_at(doc, "code"))], player=answer,
                                       code=code)

        if self.now() >= datetime.fromisoformat(pending["expires"]):
            seat_rows.drop_pending_address(self.store, match["id"], player["id"])
            return refuse("address.expired", hours=CODE_HOURS)
        if not keys.verify(str(env.args.get("code"))[:40], pending["code_hash"]):
            if pending["tries"] + 1 >= MAX_TRIES:
                seat_rows.drop_pending_address(self.store, match["id"], player["id"])
                return refuse("address.void")
            seat_rows.count_wrong_code(self.store, match["id"], player["id"])
            return refuse("address.wrong_code", left=MAX_TRIES - pending["tries"] - 1)
        old = player["email"]
        seat_rows.change_address(self.store, match["id"], player["id"], pending["new_email"], self.now())
        seat_rows.drop_pending_address(self.store, match["id"], player["id"])
        player = self.store.player(match["id"], player["id"])
        subject, text = self.renderer.mail("address_changed", lang, match=self._ctx(match), player=player, old=old)
        self.queue.queue(f"addressold:{match['id']}:{player['id']}:{mail.message_id}:{mail.content_hash[:16]}",
                         match["id"], old, subject, text)
        return self._done(mail, match, player, "address-confirmed", new=player["email"])
