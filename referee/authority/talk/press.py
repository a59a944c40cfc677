"""Table talk (issue 18): a player's ``press:`` relayed at once to the seats it
names, and answers to a relayed mail routed back, no address ever shown.

A relayed mail comes from the referee and carries a fresh route: its Message-ID
(which a reply names in In-Reply-To/References) and a token in its subject
(``#T-XXXX-XXXX``, for a client that drops the references).  Only the address
registered for the seat the mail went to may answer through it: the route is a
secret that reached that address alone, and the sender must be that address,
proven as for any mail of the seat (``Senders.check``, ``sender_auth``).  Text
holding the writer's own key is not relayed: a message may pose as a referee
notice asking for it (the relay frame says the referee never does).
Every message is stored, copied to the GM and written to ``tNNN/press.yaml``."""
from __future__ import annotations

import hashlib
import re
from datetime import timedelta

from referee.authority import keys
from referee.authority.matches.talk_spec import press_options
from referee.authority.replies import Handled
from referee.authority.talk.talk_archive import write_press
from referee.authority.wording import Own
from referee.intake import checks, finding
from referee.store.bots import bots as bot_seats
from referee.store.talk import TalkRecords

ALL = ("all", "alle", "everyone", "jeder")
KEYS = ("to", "an", "text", "anonymous", "signed")   # what 'press:' takes (a misspelt 'anonymous' must not sign)
MAX_TO = 60                  # seat ids read from one 'to:'
MAX_REFS = 20                # references of a reply looked up
TOKEN = re.compile(r"#T-([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b", re.I)
# a key as a player may copy it: three groups of four, any case, joined by dashes, dots or spaces;
# tried at every word start (a lookahead), so no decoy before it can swallow a group of it
_KEYLIKE = re.compile(r"(?<![0-9A-Z])(?=([2-9A-HJ-NP-Z]{4})[-. \t]{0,3}([2-9A-HJ-NP-Z]{4})[-. \t]{0,3}"
                      r"([2-9A-HJ-NP-Z]{4})(?![0-9A-Z]))")
_ATTRIBUTION = re.compile(r"^\s*(on|am)\s.{0,200}(wrote|schrieb)[^:]{0,80}:\s*$", re.I)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
DAY_HOURS = 24


def digest_of(dedupe: str) -> str:
    """The digest ``MailQueue.queue`` puts into the Message-ID of a mail queued under ``dedupe``."""
    return hashlib.sha256(dedupe.encode()).hexdigest()[:32]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.upper().encode()).hexdigest()


def clean_text(value) -> str | None:
    """Plain text as sent (YAML text or a number), control characters out; None if it is no text."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    text = _CONTROL.sub("", str(value).replace("\r\n", "\n").replace("\r", "\n")).strip()
    return text or None


def _at(doc, *names: str) -> tuple:
    """(line, column) of the first of ``names`` (a top-level key or one under 'press:')."""
    if doc is None:
        return ()
    for name in names:
        for path in ((name,), ("press", name)):
            try:
                if doc.resolve(path) == path:
                    return doc.position(path)
            except Exception:
                continue
    return ()


class Press:
    def __init__(self, store, archive, renderer, lookups, queue, replies, reader, settings, now) -> None:
        self.store, self.archive, self.renderer, self.lookups, self.queue = store, archive, renderer, lookups, queue
        self.replies, self.reader, self.settings, self.now = replies, reader, settings, now
        self.records = TalkRecords(store)

    # -- a new message ---------------------------------------------------------
    def send(self, mail, match, player, env, doc) -> Handled:
        lang = self.lookups.lang_of(match, player)
        args, opts = env.args, press_options(match["spec"])

        def refuse(code: str, params: dict | None = None, *where: str) -> Handled:
            return self.replies.refuse(mail, match, lang, [Own(code, params or {}, *_at(doc, *where))],
                                       player=player, code=code)

        unknown = [str(k) for k in args if k not in KEYS]
        if unknown:
            return refuse("talk.unknown_key", {"key": unknown[0], "command": "press", "known": ", ".join(KEYS)},
                          unknown[0])
        closed = self._closed(match, opts)
        if closed is not None:
            return refuse(*closed)
        to = args.get("to", args.get("an"))
        seats, problem = self._recipients(match, player, to)
        if problem is not None:
            return refuse(problem[0], problem[1], "to", "an")
        public = seats == "all"
        if not public and opts.level() < 2:
            return refuse("press.public_only", None, "to", "an")
        anonymous = args.get("anonymous") is True or args.get("signed") is False
        if anonymous and opts.allow != "anonymous":
            return refuse("press.no_anonymous", None, "anonymous", "signed")
        text = clean_text(args.get("text"))
        if text is None:
            return refuse("press.no_text", None, "text", "press")
        if len(text) > opts.max_chars:
            return refuse("press.too_long", {"length": len(text), "limit": opts.max_chars}, "text", "press")
        if holds_key(text, player):
            return refuse("press.holds_key")   # no line shown: the refusal must not quote the key
        limited = self._rate(match, player, opts)
        if limited is not None:
            return refuse(*limited)
        recipients = [p["id"] for p in self.store.players(match["id"]) if p["id"] != player["id"]] if public else seats
        number = self.relay(match, player, recipients, public, anonymous, text)
        self._confirm(mail, match, player, number, recipients, public, anonymous, answered=None)
        return Handled("processed", "press", match["id"], player["id"])

    # -- an answer to a relayed mail --------------------------------------------
    def _route(self, mail) -> tuple[dict | None, list[str]]:
        """The route a reply names (by its references, else its subject token), and the tokens seen."""
        suffix = "@" + self.settings.domain + ">"
        digests = [r[1:].partition(".")[0] for r in mail.references[-MAX_REFS:] if r.endswith(suffix)]
        tokens = TOKEN.findall(mail.subject or "")
        return self.records.route(digests, token_hash(tokens[-1]) if tokens else None), tokens

    def match_of_answer(self, mail) -> dict | None:
        """The match a reply to a relayed mail belongs to (its mail is kept there), else None."""
        route, _ = self._route(mail)
        return self.store.match(route["match"]) if route else None

    def answer(self, mail, lang: str, check) -> Handled | None:
        """Route a reply to a relayed mail back to its sender; None if the mail answers none.
        ``check``: the sender check of a seat's mail (``Senders.check``)."""
        route, tokens = self._route(mail)
        if route is None:
            if not tokens:
                return None   # no table talk at all: the door goes on
            if not self.replies.known(mail.sender):
                return self.replies.refuse_stranger(mail, "press.bad_token")
            return self.replies.refuse(mail, None, lang, [Own("press.bad_token", {"token": "#T-" + tokens[-1].upper()})],
                                       code="press.bad_token")
        match = self.store.match(route["match"])
        holder = self.store.player(match["id"], route["holder"]) if match else None
        if holder is None or mail.sender != holder["email"]:
            if match is None or not self.replies.known(mail.sender, match):
                return self.replies.refuse_stranger(mail, "press.not_yours", route["match"])
            return self.replies.refuse(mail, match, self.lookups.lang_of(match), [Own("press.not_yours")],
                                       code="press.not_yours")
        lang = self.lookups.lang_of(match, holder)
        refused = check(mail, match, holder, lang, None)   # a forged From with the token must not speak for him
        if refused is not None:
            return refused
        opts = press_options(match["spec"])

        def refuse(code: str, params: dict | None = None) -> Handled:
            return self.replies.refuse(mail, match, lang, [Own(code, params or {})], player=holder, code=code)

        closed = self._closed(match, opts)
        if closed is not None:
            return refuse(*closed)
        if opts.level() < 2:
            return refuse("press.public_reply")
        text = reply_text(mail.text or "")
        if not text:
            return refuse("press.empty_reply")
        if len(text) > opts.max_chars:
            return refuse("press.too_long", {"length": len(text), "limit": opts.max_chars})
        if holds_key(text, holder):
            return refuse("press.holds_key")
        back = self.store.player(match["id"], route["back_to"])
        if back is None:
            return refuse("press.bad_seats", {"seats": route["back_to"], "known": self._known(match)})
        limited = self._rate(match, holder, opts)
        if limited is not None:
            return refuse(*limited)
        number = self.relay(match, holder, [back["id"]], False, False, text, answers=route["number"])
        original = self.records.press(match["id"], route["number"])
        hidden = bool(original and original["anonymous"])   # an unsigned sender stays unnamed to who answers
        self._confirm(mail, match, holder, number, [] if hidden else [back["id"]], False, False,
                      answered=route["number"])
        return Handled("processed", "press.answer", match["id"], holder["id"])

    # -- the checks ---------------------------------------------------------------
    def _closed(self, match, opts) -> tuple | None:
        if match["status"] == "ended":
            return ("press.ended", {"match": match["id"]})
        if opts.allow == "none":
            return ("press.none",)
        turn = self.store.current_turn(match["id"])
        if turn is not None and turn["status"] == "open":
            shut = sorted({stage for stage in turn["awaiting"].values() if stage in opts.closed})
            if shut:
                return ("press.closed", {"stages": ", ".join(shut)})
        return None

    def _known(self, match) -> str:
        return ", ".join(p["id"] for p in self.store.players(match["id"])[:MAX_TO])

    def _recipients(self, match, player, to):
        """("all" | [seat ids], None) or (None, (code, params))."""
        if isinstance(to, str):
            words = [w for w in re.split(r"[,\s]+", to[:4000]) if w]
        elif isinstance(to, list):
            words = [w for w in to[:MAX_TO + 1] if w is not None]
        else:
            words = []
        if not words:
            return None, ("press.no_to", {})
        if any(isinstance(w, str) and w.strip().lower() in ALL for w in words):
            return "all", None
        seats = {p["id"] for p in self.store.players(match["id"])}
        chosen, unknown = [], []
        for w in words[:MAX_TO]:
            name = w.strip().lower() if isinstance(w, str) else None
            if name in seats:
                if name != player["id"] and name not in chosen:
                    chosen.append(name)
            else:
                unknown.append(checks.echo(w, 40))
        if unknown:
            return None, ("press.bad_seats", {"seats": ", ".join(f"'{u}'" for u in unknown[:5]), "known": self._known(match)})
        if not chosen:
            return None, ("press.only_self", {})
        played = bot_seats(self.store, match["id"])   # a bot reads no table talk: say so, never drop it silently
        if any(seat in played for seat in chosen):
            return None, ("press.bot_seat", {"seats": ", ".join(f"'{s}'" for s in chosen if s in played)})
        return chosen, None

    def _rate(self, match, player, opts) -> tuple | None:
        limit = self.reader.RateLimit(capacity=opts.per_day, window=timedelta(hours=DAY_HOURS))
        name = f"@press:{match['id']}:{player['id']}"
        stored = self.store.rate_bucket(name)
        decision = limit.take(self.reader.Bucket.from_json(stored) if stored else None, self.now())
        self.store.put_rate_bucket(name, decision.bucket.to_json())
        if decision.allowed:
            return None
        return ("press.rate", {"limit": opts.per_day, "retry": decision.retry_after.strftime("%Y-%m-%d %H:%M UTC")})

    # -- relaying -----------------------------------------------------------------
    def relay(self, match, sender, recipients: list[str], public: bool, anonymous: bool, text: str,
              answers: int | None = None) -> int:
        """Store, relay to every recipient (each with a route to answer by), copy to the GM, archive."""
        turn = self.store.current_turn(match["id"])
        number = self.records.add_press(match["id"], turn["number"], sender["id"], recipients, public, anonymous,
                                        text, self.now(), answers)
        rules = self.lookups.rules(match)
        ctx_match = self.lookups.match_ctx(match, rules)
        names = self.lookups.names(match["id"])
        common = {"match": ctx_match, "number": number, "text": text, "public": public, "anonymous": anonymous,
                  "private_answers": press_options(match["spec"]).level() >= 2,   # a reply is relayed only then
                  "answers": answers, "sender": None if anonymous else {"id": sender["id"], "name": sender["name"]},
                  "recipients": [names[r]["name"] for r in recipients if r in names]}
        for seat in recipients:
            reader = self.store.player(match["id"], seat)
            token = keys.new_key(2)
            dedupe = f"press:{match['id']}:{number}:{seat}:{token}"
            self.records.add_route(digest_of(dedupe), token_hash(token), match["id"], number, seat, sender["id"])
            subject, body = self.renderer.mail("press", self.lookups.lang_of(match, reader), **common,
                                               reader=reader, token=f"#T-{token}")
            self.queue.queue(dedupe, match["id"], reader["email"], subject, body)
        subject, body = self.renderer.mail("press_copy", self.lookups.lang_of(match), **common,
                                           true_sender={"id": sender["id"], "name": sender["name"]})
        self.queue.queue(f"press-copy:{match['id']}:{number}", match["id"], match["gm_email"], subject, body)
        write_press(self.archive, self.records, match["id"], turn["number"])
        return number

    def _confirm(self, mail, match, player, number, recipients, public, anonymous, answered) -> None:
        names = self.lookups.names(match["id"])
        subject, text = self.renderer.mail("press_sent", self.lookups.lang_of(match, player),
                                           match=self.lookups.match_ctx(match, self.lookups.rules(match)),
                                           number=number, public=public, anonymous=anonymous, answered=answered,
                                           recipients=[names[r]["name"] for r in recipients if r in names])
        self.replies.reply(mail, match, player, subject, text)


def holds_key(text: str, player) -> bool:
    """Whether ``text`` holds the current key of ``player``'s seat, however it is spaced or cased.
    Every key-shaped word is tried (a cap would let a key hide behind decoys): the text is capped
    (``talk_spec.MAX_CHARS``, so ~1,700 words at most) and a keyed hash costs ~1 µs."""
    found = {"-".join(m.groups()) for m in _KEYLIKE.finditer(text.upper())}
    return any(keys.verify(word, player["key_hash"]) for word in found)


def reply_text(text: str) -> str:
    """The writer's own text of a reply: quoted lines, signature and a quoted original
    cut as for documents (``finding``), then a trailing "On ... wrote:" line."""
    lines = finding.visible_lines(finding.clean(text))
    while lines and not lines[-1].strip():
        lines.pop()
    if lines and _ATTRIBUTION.match(lines[-1]):
        lines.pop()
    return clean_text("\n".join(lines)) or ""
