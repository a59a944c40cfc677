"""Joining by mail (issue 18).  ``command: join`` with ``name:`` takes the next
free seat of an open match (``player: any``) or a named one (``player: <seat>``),
mails the seat's key to the sender and tells the GM; the match starts when every
seat is taken, or on the GM's ``start``.  A joiner finding every seat taken goes
on the wait list (``wait_list:`` places in the match file), which fills seats
given up later: ``command: leave`` before the start.  The GM closes and opens
joining with ``close-joining`` / ``open-joining``.

Anyone may write here, so: a sender gets one seat or one place, never the
referee's own address; answers to someone who holds no seat come out of the
strangers' hourly budget (a flood of forged joins sends nothing beyond it),
and seats plus wait list bound the joins a match takes at all.
"""
from __future__ import annotations

from referee.authority import keys
from referee.authority.matches import seating
from referee.authority.replies import Handled, _at
from referee.authority.wording import Own, Refusal
from referee.intake import checks
from referee.store import seats as seat_rows

GM_IDS = ("@gm", "gm")
JOIN_GM_COMMANDS = ("close-joining", "open-joining")
ANY_SEAT = ("any", "new", "next")
_OPEN_GM = ("start", "status", "end", *JOIN_GM_COMMANDS)   # what the GM can do before the start


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

    def handle(self, mail, match, env, doc) -> Handled:
        if env.command == "join":
            return self.join(mail, match, env, doc)
        lang = self.lookups.lang_of(match)
        if env.player in GM_IDS:
            if not keys.verify(env.key, match["gm_key_hash"]):
                if mail.sender != match["gm_email"]:
                    return self.replies.refuse_stranger(mail, "gm.denied", match["id"])
                return self.replies.refuse(mail, match, lang, [Own("gm.denied", {"match": match["id"]})])
            try:
                done = self.gm_command(match["id"], env.command or "", env.args)
            except Refusal as e:
                return self.replies.refuse(mail, match, lang, [Own(e.code, e.params, *_at(doc, e.arg or "command"))],
                                           code=e.code)
            self._answer(mail, match, None, "gm_done", done=done, command=env.command)
            return Handled("processed", env.command or "", match["id"], "@gm")
        player = self.store.player(match["id"], env.player)
        if player is None or not keys.verify(env.key, player["key_hash"]):
            if not self.replies.known(mail.sender, match):
                return self.replies.refuse_stranger(mail, "player.unknown", match["id"])
            return self.replies.refuse(mail, match, lang, [Own("key.wrong", {"player": checks.echo(env.player)})])
        lang = self.lookups.lang_of(match, player)
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

    # -- join ---------------------------------------------------------------------------
    def join(self, mail, match, env, doc) -> Handled:
        lang = self._lang(env) or self.lookups.lang_of(match)
        refused = self._refusal(mail, match, env, doc, lang)
        if refused is not None:
            return refused
        name = checks.header_text(env.args["name"], "name", checks.MAX_NAME)
        seat = self._seat_for(match, env)
        if isinstance(seat, Own):
            return self._refuse(mail, match, lang, seat)
        if seat is None and len(seat_rows.waiting(self.store, match["id"])) >= int(match["spec"].get("wait_list", 10)):
            return self._refuse(mail, match, lang, Own("join.full", {"match": match["id"]}))
        if seat is None:   # every seat taken: the wait list
            place = seat_rows.add_waiting(self.store, match["id"], mail.sender, name, self._lang(env), self.now())
            self._tell_joiner(match, mail.sender, name, self._lang(env), "waiting", place=place)
            seating.tell_gm(self.matches, match, "gm_waiting", who=name)
            return Handled("processed", "join.waiting", match["id"])
        self._seat(match, seat, name, mail.sender, self._lang(env))
        return Handled("processed", "join", match["id"], seat)

    def _lang(self, env) -> str | None:
        value = env.args.get("lang")
        return value if value in checks.LANGUAGES else None

    def _refusal(self, mail, match, env, doc, lang) -> Handled | None:
        """The join refused, or None: a sender, a name, an address of its own, joining open."""
        if not mail.sender:
            return Handled("refused", "join.no_sender", match["id"])
        sender = mail.sender.lower()
        checks_in_order = (
            (sender == self.settings.address.lower(), Own("join.ours")),
            (not isinstance(match["spec"].get("seats"), int | list), Own("join.not_open", {"match": match["id"]})),
            (seat_rows.joining_closed(self.store, match["id"]) or match["status"] == "ended",
             Own("join.closed", {"match": match["id"]})),
            (sender == match["gm_email"] or self.store.plays_in(match["id"], sender), Own("join.already")),
            (any(w["email"] == sender for w in seat_rows.waiting(self.store, match["id"])), Own("join.already_waiting")),
            ("name" not in env.args, Own("join.name", {}, *_at(doc, "command"))),
            ("lang" in env.args and self._lang(env) is None,
             Own("gm.bad_lang", {"value": checks.echo(env.args.get("lang")), "known": ", ".join(checks.LANGUAGES)},
                 *_at(doc, "lang"))),
        )
        for broken, problem in checks_in_order:
            if broken:
                return self._refuse(mail, match, lang, problem)
        try:
            checks.header_text(env.args["name"], "name", checks.MAX_NAME)
        except checks.Invalid:
            return self._refuse(mail, match, lang, Own("gm.bad_name", {}, *_at(doc, "name")))
        return None

    def _refuse(self, mail, match, lang, problem: Own) -> Handled:
        """Someone who holds no seat is answered only while the strangers' budget lasts."""
        if not self.replies.known(mail.sender, match) and not self.replies.stranger_budget():
            return Handled("refused", problem.code, match["id"])
        return self.replies.refuse(mail, match, lang, [problem], code=problem.code)

    def _seat_for(self, match, env) -> str | Own | None:
        """The seat asked for (``player:``), the next free one, or None when all are taken."""
        if match["status"] != "open":
            return None
        held = {p["id"] for p in self.store.players(match["id"])}
        free = [s for s in seating.all_seats(match) if s not in held]
        wanted = env.player
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

    def _tell_joiner(self, match, email: str, name: str, lang: str | None, event: str, **extra) -> None:
        lang = lang or self.lookups.lang_of(match)
        subject, text = self.renderer.mail("joining", lang, event=event, role="player", name=name,
                                           **seating.lobby(self.matches, self.store.match(match["id"])), **extra)
        self.queue.queue(f"joining:{match['id']}:{event}:{email}:{extra.get('seat', '')}:{self.now().isoformat()}",
                         match["id"], email, subject, text)

    # -- leave (before the start) -----------------------------------------------------------
    def leave(self, mail, match, player) -> Handled:
        seat_rows.remove_player(self.store, match["id"], player["id"])
        self._answer(mail, match, player, "left")
        seating.tell_gm(self.matches, match, "gm_left", who=player["name"], seat=player["id"])
        self._fill(match, player["id"])
        return Handled("processed", "leave", match["id"], player["id"])

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
            if match["status"] != "open" or cmd not in _OPEN_GM:
                raise Refusal("join.not_started", "command", match=match_id)
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
