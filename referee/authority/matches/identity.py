"""A seat's key and address, changed by mail (issue 18).

``command: new-key`` (with the key): a fresh key goes to the registered
address only, whoever sent the command; the old one stops working at once.
A player who lost the key sends ``command: new-key`` without one, from the
registered address: the fresh key goes there, at most ``LOST_KEYS_PER_DAY``
times a seat and day (a forged From cannot keep a seat's key turning; under
``sender_auth: require`` it is refused outright).

``command: address`` with ``email:`` (with the key): a confirmation code goes
to the new address; the change takes effect when a mail *from* the new
address brings the code back (``command: address`` with ``code:``, no key
needed: the code proves the address, the key proved the seat).  Codes hold for
``CODE_HOURS``; ``MAX_TRIES`` wrong codes void the request; at most
``CODES_PER_DAY`` codes go out per seat and day, so nobody turns the referee
into a mail cannon at someone else's address (a voided or expired request keeps
its count: issue 32).  Answers to the new address, not proven until the code
comes back, follow the strangers' policy and budget.  The code is checked again
at the end: two seats cannot both move onto one address.  The old address is told.

A join proves its address the same way (``day_count``, ``code_check``: joining.py).
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
LOST_KEYS_PER_DAY = 3
MAX_TRIES = 5
CODES_PER_DAY = 3


def new_code() -> str:
    return keys.new_key(groups=2)   # 40 random bits; MAX_TRIES guesses at most


def ours(settings, address: str) -> bool:
    """The referee's own address, or a role address of its domain: never a seat's,
    an observer's or a joiner's (mail to it would come back to the referee)."""
    address = address.lower()
    local, _, domain = address.rpartition("@")
    return address == settings.address.lower() or (
        domain == settings.domain.lower() and local in ("referee", "postmaster", "mailer-daemon"))


def day_count(request: dict | None, now: datetime) -> tuple[int, datetime] | None:
    """(codes sent, when the day's first went out) with one more code, or None when
    ``CODES_PER_DAY`` went out since that first one; ``request``: the stored row."""
    if request is None or now - datetime.fromisoformat(request["first_sent"]) >= timedelta(days=1):
        return 1, now
    if request["sent"] >= CODES_PER_DAY:
        return None
    return request["sent"] + 1, datetime.fromisoformat(request["first_sent"])


def next_day(request: dict) -> str:
    return (datetime.fromisoformat(request["first_sent"]) + timedelta(days=1)).strftime("%Y-%m-%d %H:%M UTC")


def code_check(request: dict, code, now: datetime) -> str | None:
    """None when ``code`` fits the request; else why not: expired, void (the last
    try), wrong.  The caller voids the request on the first two, counts the third."""
    if now >= datetime.fromisoformat(request["expires"]):
        return "expired"
    if keys.verify(str(code)[:40], request["code_hash"]):
        return None
    return "void" if request["tries"] + 1 >= MAX_TRIES else "wrong"


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
    def lost_key(self, mail, match, player, env, doc) -> Handled:
        """``command: new-key`` without a key, from the registered address (the caller checked
        the address and the sender): a fresh key to that address, a few times a day at most."""
        day = self.now().date().isoformat()
        free = next((n for n in range(1, LOST_KEYS_PER_DAY + 1)
                     if self.store.outbox_entry(self._lost_dedupe(match, player, day, n)) is None), None)
        lang = self.lookups.lang_of(match, player)
        if free is None:
            return self.replies.refuse(mail, match, lang, [Own("key.lost_cap", {"limit": LOST_KEYS_PER_DAY},
                                                               *_at(doc, "command"))])
        return self.new_key(mail, match, player, env, doc, dedupe=self._lost_dedupe(match, player, day, free))

    @staticmethod
    def _lost_dedupe(match: dict, player: dict, day: str, n: int) -> str:
        return f"newkey-lost:{match['id']}:{player['id']}:{day}:{n}"

    def new_key(self, mail, match, player, env, doc, dedupe: str | None = None) -> Handled:
        key = keys.new_key()
        key_hash = keys.hash_key(key)
        seat_rows.set_key_hash(self.store, match["id"], player["id"], key_hash)
        player = self.store.player(match["id"], player["id"])
        lang = self.lookups.lang_of(match, player)
        turn = self.store.current_turn(match["id"])
        subject, text = self.renderer.mail("new_key", lang, match=self._ctx(match), player=player, key=key,
                                           turn=turn["number"], address=self.settings.address)
        issued = hashlib.sha256(key_hash.encode()).hexdigest()[:16]   # no part of the key in the dedupe
        self.queue.queue(dedupe or f"newkey:{match['id']}:{player['id']}:{issued}", match["id"], player["email"],
                         subject, text)
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
        if ours(self.settings, new):
            return refuse("address.ours", value=new)
        if new == player["email"]:
            return refuse("address.same", value=new)
        if new == match["gm_email"] or any(p["email"] == new for p in self.store.players(match["id"])):
            return refuse("address.taken", value=new)
        now = self.now()
        pending = seat_rows.pending_address(self.store, match["id"], player["id"])
        counted = day_count(pending, now)   # a voided request still counts (issue 32)
        if counted is None:
            return refuse("address.too_many", count=CODES_PER_DAY, when=next_day(pending))
        sent, first = counted
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
        if pending is None or not pending["code_hash"] or mail.sender != pending["new_email"]:
            if not member:
                return self.replies.refuse_stranger(mail, "address.no_request", match["id"])
            lang = self.lookups.lang_of(match, player)
            return self.replies.refuse(mail, match, lang, [Own("address.no_request", {"player": player["id"]})],
                                       code="address.no_request")
        lang = self.lookups.lang_of(match, player)
        answer = dict(player, email=pending["new_email"])   # answered at the new address, no copy elsewhere

        def refuse(code: str, **params) -> Handled:
            if not member and not self.replies.stranger_answered(mail):   # the new address is unproven yet
                return Handled("ignored", code, match["id"], player["id"])
            return self.replies.refuse(mail, match, lang, [Own(code, params, *_at(doc, "code"))], player=answer,
                                       code=code)

        wrong = code_check(pending, env.args.get("code"), self.now())
        if wrong in ("expired", "void"):
            seat_rows.void_pending_address(self.store, match["id"], player["id"])
            return refuse("address.expired", hours=CODE_HOURS) if wrong == "expired" else refuse("address.void")
        if wrong == "wrong":
            seat_rows.count_wrong_code(self.store, match["id"], player["id"])
            return refuse("address.wrong_code", left=MAX_TRIES - pending["tries"] - 1)
        if pending["new_email"] == match["gm_email"] or self.store.plays_in(match["id"], pending["new_email"]):
            seat_rows.void_pending_address(self.store, match["id"], player["id"])   # taken since the request
            return refuse("address.taken", value=pending["new_email"])
        old = player["email"]
        seat_rows.change_address(self.store, match["id"], player["id"], pending["new_email"], self.now())
        seat_rows.void_pending_address(self.store, match["id"], player["id"])   # used; the day's count stays
        player = self.store.player(match["id"], player["id"])
        subject, text = self.renderer.mail("address_changed", lang, match=self._ctx(match), player=player, old=old)
        self.queue.queue(f"addressold:{match['id']}:{player['id']}:{mail.message_id}:{mail.content_hash[:16]}",
                         match["id"], old, subject, text)
        return self._done(mail, match, player, "address-confirmed", new=player["email"])
