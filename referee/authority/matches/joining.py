"""Joining by mail (issue 18).  ``command: join`` with ``name:`` asks for the next
free seat of an open match (``player: any``) or a named one (``player: <seat>``);
the seat is taken when the joiner proves the address (issue 32): a code goes to
the sender, and a ``command: join`` with that ``code:`` *from* that address takes
the seat, mails its key and tells the GM.  The match starts when every seat is
taken, or on the GM's ``start``.  A joiner finding every seat taken goes on the
wait list (``wait_list:`` places in the match file), which fills seats given up
later: ``command: leave`` before the start, or the GM's ``remove`` (``seat:``).
The GM closes and opens joining with ``close-joining`` / ``open-joining``.

Anyone may write here, so: nothing is held before the code comes back (a forged
From gets a seat for nobody); a code is an answer to a stranger, out of the
strangers' hourly budget, and at most ``identity.CODES_PER_DAY`` go to one
address a day and match; a refusal to someone who holds no seat follows the
strangers' policy (``Replies.stranger_answered``); ``sender_auth: require``
holds for joins as for orders; never the referee's own address; one address,
one seat or place; seats plus wait list bound the joins a match takes at all.
"""
from __future__ import annotations

from datetime import timedelta

from referee.authority import keys
from referee.authority.gate.senders import unproven
from referee.authority.matches import identity, seating
from referee.authority.replies import Handled, _at
from referee.authority.wording import Own, Refusal
from referee.intake import checks
from referee.store import seats as seat_rows

GM_IDS = ("@gm", "gm")
JOIN_GM_COMMANDS = ("close-joining", "open-joining")
ANY_SEAT = ("any", "new", "next")
SEAT_GM_COMMANDS = ("remove",)   # issue 32: the GM frees a seat before the start
_OPEN_GM = ("start", "status", "end", *JOIN_GM_COMMANDS, *SEAT_GM_COMMANDS)   # what the GM can do before the start


class Joining:
    def __init__(self, store, renderer, lookups, queue, replies, matches, settings, now, replace=None) -> None:
        self.store, self.renderer, self.lookups, self.queue = store, renderer, lookups, queue
        self.replies, self.matches, self.settings, self.now = replies, matches, settings, now
        self.replace = replace   # Commands.replace_player: a seat given to the first waiting

    # -- the door --------------------------------------------------------------------
    def takes(self, match: dict | None, env, turn: dict | None) -> bool:
        """Mail for this part: any mail for an open match, a join for any match.
        ``turn``: the match's current turn, as the caller read it."""
        if match is None or match["status"] == "open" or env.command == "join":
            return match is not None
        return turn is None   # ended before the start

    def handle(self, mail, match, env, doc, senders=None) -> Handled:
        """``senders``: the intake's sender check (``Senders.check``), held to as on a running match."""
        if env.command == "join":
            return self.join(mail, match, env, doc)
        lang = self.lookups.lang_of(match)
        if env.player in GM_IDS:
            if not keys.verify(env.key, match["gm_key_hash"]):
                if mail.sender != match["gm_email"]:
                    return self.replies.refuse_stranger(mail, "gm.denied", match["id"])
                return self.replies.refuse(mail, match, lang, [Own("gm.denied", {"match": match["id"]})])
            refused = senders.check(mail, match, None, lang, doc) if senders is not None else None
            if refused is not None:   # issue 32: sender_auth: require holds before the start too
                return refused
            try:
                done = self.gm_command(match["id"], env.command or "", env.args)
            except Refusal as e:
                return self.replies.refuse(mail, match, lang, [Own(e.code, e.params, *_at(doc, e.arg or "command"))],
                                           code=e.code)
            except KeyError as e:   # an argument the command needs is missing
                return self.replies.refuse(mail, match, lang, [Own("gm.needs", {"command": env.command, "arg": e.args[0]},
                                                                   *_at(doc, "command"))], code="gm.needs")
            self._answer(mail, match, None, "gm_done", done=done, command=env.command)
            return Handled("processed", env.command or "", match["id"], "@gm")
        player = self.store.player(match["id"], env.player)
        if player is None or not keys.verify(env.key, player["key_hash"]):
            if not self.replies.known(mail.sender, match):
                return self.replies.refuse_stranger(mail, "player.unknown", match["id"])
            return self.replies.refuse(mail, match, lang, [Own("key.wrong", {"player": checks.echo(env.player)})])
        lang = self.lookups.lang_of(match, player)
        refused = senders.check(mail, match, player, lang, doc) if senders is not None else None
        if refused is not None:
            return refused
        if env.command == "leave":
            return self.leave(mail, match, player)
        if env.command == "status":
            self._answer(mail, match, player, "status")
            return Handled("processed", "status", match["id"], player["id"])
        return self.replies.refuse(mail, match, lang, [Own("join.not_started", {"match": match["id"]})],
                                   player=player, code="join.not_started")

    def _answer(self, mail, match, player, event: str, **extra) -> None:
        lang = self.lookups.lang_of(match, player)
        role = "gm" if player is None else "player"
        subject, text = self.renderer.mail("joining", lang, event=event, role=role, player=player,
                                           **seating.lobby(self.matches, self.store.match(match["id"])), **extra)
        self.replies.reply(mail, match, player if player is not None else {"id": "@gm", "email": match["gm_email"]},
                           subject, text)

    # -- join: the request, then the code from the joiner's address ---------------------
    def join(self, mail, match, env, doc) -> Handled:
        if not mail.sender:
            return Handled("refused", "join.no_sender", match["id"])
        if identity.ours(self.settings, mail.sender):   # mail to it comes back here: no answer at all
            return Handled("ignored", "join.ours", match["id"])
        lang = self._lang(env) or self.lookups.lang_of(match)
        problem = unproven(mail, match) or self._closed_to(match, mail.sender)
        if problem is None and "code" in env.args:
            return self.confirm(mail, match, env, doc, lang)
        problem = problem or self._input_problem(env, doc) or self._place_problem(match, env.player)
        if problem is not None:
            return self._refuse(mail, match, lang, problem)
        return self._send_code(mail, match, env, checks.header_text(env.args["name"], "name", checks.MAX_NAME), lang)

    def _send_code(self, mail, match, env, name: str, lang: str) -> Handled:
        """The code to the sender; nothing held until it comes back from there."""
        now, email = self.now(), mail.sender.lower()
        seat_rows.forget_join_requests(self.store, match["id"], now - timedelta(days=1), now)
        request = seat_rows.join_request(self.store, match["id"], email)
        counted = identity.day_count(request, now)
        if counted is None:
            return self._refuse(mail, match, lang, Own("join.too_many", {"count": identity.CODES_PER_DAY,
                                                                         "when": identity.next_day(request)}))
        if not self.replies.stranger_answered(mail, anyone=True):   # a flood of joins mails nobody beyond it
            return Handled("ignored", "join.budget", match["id"])
        code = identity.new_code()
        seat = env.player if env.player not in ANY_SEAT else "any"
        seat_rows.put_join_request(self.store, match["id"], email, name, self._lang(env), seat, keys.hash_key(code),
                                   now + timedelta(hours=identity.CODE_HOURS), *counted)
        self._tell_joiner(match, email, name, lang, "code", code=code, hours=identity.CODE_HOURS, wanted=seat,
                          stamp=f"{mail.message_id}:{mail.content_hash[:16]}")
        return Handled("processed", "join.code", match["id"])

    def confirm(self, mail, match, env, doc, lang: str) -> Handled:
        """``code:`` from the address it went to: the seat (or a place) is taken now,
        as the request asked, if the match still has it."""
        email = mail.sender.lower()
        request = seat_rows.join_request(self.store, match["id"], email)
        if request is None or not request["code_hash"]:
            return self._refuse(mail, match, lang, Own("join.no_request", {"match": match["id"]}, *_at(doc, "code")))
        lang = request["lang"] or lang
        wrong = identity.code_check(request, env.args.get("code"), self.now())
        if wrong is not None:
            if wrong == "wrong":
                seat_rows.count_wrong_join_code(self.store, match["id"], email)
            else:
                seat_rows.void_join_request(self.store, match["id"], email)
            params = {"hours": identity.CODE_HOURS, "left": identity.MAX_TRIES - request["tries"] - 1}
            return self._refuse(mail, match, lang, Own(f"join.{wrong}_code", params, *_at(doc, "code")))
        seat_rows.void_join_request(self.store, match["id"], email)   # used; the day's count stays
        problem = self._place_problem(match, request["seat"])
        if problem is not None:   # taken, full or closed since the request
            return self._refuse(mail, match, lang, problem)
        seat = self._seat_for(match, request["seat"])
        if seat is None:   # every seat taken: the wait list
            place = seat_rows.add_waiting(self.store, match["id"], email, request["name"], request["lang"], self.now())
            self._tell_joiner(match, email, request["name"], request["lang"], "waiting", place=place)
            seating.tell_gm(self.matches, match, "gm_waiting", who=request["name"])
            return Handled("processed", "join.waiting", match["id"])
        self._seat(match, seat, request["name"], email, request["lang"])
        return Handled("processed", "join", match["id"], seat)

    def _lang(self, env) -> str | None:
        value = env.args.get("lang")
        return value if value in checks.LANGUAGES else None

    def _closed_to(self, match, sender: str) -> Own | None:
        """Why this match takes no join from ``sender`` at all, or None."""
        sender = sender.lower()
        if not isinstance(match["spec"].get("seats"), int | list):
            return Own("join.not_open", {"match": match["id"]})
        if seat_rows.joining_closed(self.store, match["id"]) or match["status"] == "ended":
            return Own("join.closed", {"match": match["id"]})
        if sender == match["gm_email"] or self.store.plays_in(match["id"], sender):
            return Own("join.already")
        if any(w["email"] == sender for w in seat_rows.waiting(self.store, match["id"])):
            return Own("join.already_waiting")
        return None

    def _input_problem(self, env, doc) -> Own | None:
        if "name" not in env.args:
            return Own("join.name", {}, *_at(doc, "command"))
        if "lang" in env.args and self._lang(env) is None:
            return Own("gm.bad_lang", {"value": checks.echo(env.args.get("lang")), "known": ", ".join(checks.LANGUAGES)},
                       *_at(doc, "lang"))
        try:
            checks.header_text(env.args["name"], "name", checks.MAX_NAME)
        except checks.Invalid:
            return Own("gm.bad_name", {}, *_at(doc, "name"))
        return None

    def _place_problem(self, match, wanted: str) -> Own | None:
        """Why the seat asked for (or a place on the wait list) cannot be had now, or None."""
        seat = self._seat_for(match, wanted)
        if isinstance(seat, Own):
            return seat
        if seat is None and len(seat_rows.waiting(self.store, match["id"])) >= int(match["spec"].get("wait_list", 10)):
            return Own("join.full", {"match": match["id"]})
        return None

    def _refuse(self, mail, match, lang, problem: Own) -> Handled:
        """Someone who holds no seat is answered only as the strangers' policy and budget allow."""
        if not self.replies.known(mail.sender, match) and not self.replies.stranger_answered(mail):
            return Handled("ignored", problem.code, match["id"])
        return self.replies.refuse(mail, match, lang, [problem], code=problem.code)

    def _seat_for(self, match, wanted) -> str | Own | None:
        """The seat asked for (``player:``), the next free one, or None when all are taken."""
        if match["status"] != "open":
            return None
        held = {p["id"] for p in self.store.players(match["id"])}
        free = [s for s in seating.all_seats(match) if s not in held]
        if wanted in ANY_SEAT:
            return free[0] if free else None
        if wanted in free:
            return wanted
        return Own("join.no_seat", {"seat": checks.echo(wanted), "free": ", ".join(free) or "-"})

    def _seat(self, match, seat: str, name: str, email: str, lang: str | None) -> None:
        key = keys.new_key()
        self.store.add_player(match["id"], seat, name, email, lang, keys.hash_key(key))
        self._tell_joiner(match, email, name, lang, "joined", seat=seat, key=key)
        seating.tell_gm(self.matches, self.store.match(match["id"]), "gm_joined", who=name, seat=seat)
        held = {p["id"] for p in self.store.players(match["id"])}
        if set(seating.all_seats(match)) <= held:
            seating.begin(self.matches, match["id"], by_gm=False)

    def _tell_joiner(self, match, email: str, name: str, lang: str | None, event: str, stamp: str = "",
                     **extra) -> None:
        lang = lang or self.lookups.lang_of(match)
        subject, text = self.renderer.mail("joining", lang, event=event, role="player", name=name,
                                           **seating.lobby(self.matches, self.store.match(match["id"])), **extra)
        stamp = stamp or self.now().isoformat()
        self.queue.queue(f"joining:{match['id']}:{event}:{email}:{extra.get('seat', '')}:{stamp}",
                         match["id"], email, subject, text)

    # -- leave (before the start) -----------------------------------------------------------
    def leave(self, mail, match, player) -> Handled:
        seat_rows.remove_player(self.store, match["id"], player["id"])
        self._answer(mail, match, player, "left")
        seating.tell_gm(self.matches, match, "gm_left", who=player["name"], seat=player["id"])
        self._fill(match, player["id"])
        return Handled("processed", "leave", match["id"], player["id"])

    def remove(self, match, args: dict) -> str:
        """The GM's ``remove``: a seat freed before the start (a joiner nobody knows,
        one who went quiet); its player is told, the first waiting takes it."""
        player = self.store.player(match["id"], str(args["seat"]))   # none given: KeyError, "needs seat:"
        if player is None:
            raise Refusal("gm.no_seat", "seat", seat=checks.echo(args["seat"]))
        seat_rows.remove_player(self.store, match["id"], player["id"])
        self._tell_joiner(match, player["email"], player["name"], player["lang"], "removed", seat=player["id"])
        self._fill(match, player["id"])
        return f"{player['id']} free again ({player['name']} removed)"

    def _fill(self, match, seat: str) -> None:
        """The first on the wait list takes the seat freed."""
        for waiting in seat_rows.waiting(self.store, match["id"])[:1]:
            seat_rows.drop_waiting(self.store, match["id"], waiting["email"])
            self._seat(match, seat, waiting["name"], waiting["email"], waiting["lang"])

    def fill_abandoned(self, match: dict, seat: str) -> None:
        """A running match's seat marked abandoned (dropouts.py) goes to the first on
        the wait list, as the GM's ``replace`` would give it; the GM is told."""
        first = seat_rows.waiting(self.store, match["id"])[:1]
        if not first or self.replace is None or seat_rows.joining_closed(self.store, match["id"]):
            return
        seat_rows.drop_waiting(self.store, match["id"], first[0]["email"])
        self.replace(match["id"], seat, first[0]["email"], first[0]["name"])
        seating.tell_gm(self.matches, self.store.match(match["id"]), "gm_filled", who=first[0]["name"], seat=seat)

    # -- the GM ------------------------------------------------------------------------------
    def gm_takes(self, match: dict, cmd: str) -> bool:
        """Joining commands, and every command on a match not started (most are refused:
        there is no turn to pause, extend or close yet)."""
        return cmd in JOIN_GM_COMMANDS or match["status"] == "open" or self.store.current_turn(match["id"]) is None

    def gm_command(self, match_id: str, cmd: str, args: dict) -> str:
        with self.store.transaction():
            match = self.store.match(match_id)
            if cmd in JOIN_GM_COMMANDS:
                if not isinstance(match["spec"].get("seats"), int | list):
                    raise Refusal("join.not_open", "command", match=match_id)
                seat_rows.set_joining_closed(self.store, match_id, cmd == "close-joining")
                return "joining closed" if cmd == "close-joining" else "joining open"
            if cmd == "status":
                return _summary(seating.lobby(self.matches, match))
            if cmd in SEAT_GM_COMMANDS and match["status"] != "open":
                raise Refusal("join.remove_started", "command")
            if match["status"] != "open" or cmd not in _OPEN_GM:
                raise Refusal("join.not_started", "command", match=match_id)
            if cmd == "remove":
                return self.remove(match, args)
            if cmd == "start":
                return seating.begin(self.matches, match_id, by_gm=True)
            if cmd == "end":
                self.store.set_match_status(match_id, "ended")
                for p in self.store.players(match_id):
                    self._tell_joiner(match, p["email"], p["name"], p["lang"], "ended")
                return "ended before the start"
            raise Refusal("join.not_started", "command", match=match_id)


def _summary(lobby: dict) -> str:
    """An open match in one line (the CLI's status): seats, the wait list, joining open or closed."""
    seats = ", ".join(f"{s['id']} {s['name']}" if s["name"] else f"{s['id']} free" for s in lobby["seats"])
    taken = sum(1 for s in lobby["seats"] if s["name"])
    return (f"{lobby['status']}, {taken} of {len(lobby['seats'])} seats taken ({seats}); waiting: "
            f"{', '.join(lobby['waiting']) or 'nobody'}; joining {'closed' if lobby['closed'] else 'open'}")
