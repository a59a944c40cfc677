"""Player commands (withdraw, status, resend, wait, no-wait, help) and the GM's
commands, by mail and (the same methods) from the CLI."""
from __future__ import annotations

from datetime import datetime

from referee.authority import keys
from referee.authority.matches import bot_seats
from referee.authority.matches.dropouts import seat_replaced
from referee.authority.matches.identity import ours
from referee.authority.matches.joining import JOIN_GM_COMMANDS, SEAT_GM_COMMANDS, Joining
from referee.authority.matches.match_file import MatchError, MatchFileRefused, file_lang, load_spec, marks_within
from referee.authority.matches.seat_commands import SEAT_COMMANDS, SeatCommands
from referee.authority.matches.spec import BotProblem, bot_strength
from referee.authority.order_mail import order_mail, queue_rules_mail, rules_for_mail, schema_url, stale_form
from referee.authority.replies import MAX_PROBLEMS, Handled, _at
from referee.authority.talk import talk
from referee.authority.wording import Own, Refusal, describe
from referee.bots import STRENGTHS
from referee.game_api.contract import GM
from referee.intake import checks
from referee.outbox.refs import report_ref
from referee.store import bots as bot_rows

PLAYER_COMMANDS = ("withdraw", "status", "resend", "wait", "no-wait", "help")
PLAYER_COMMANDS += SEAT_COMMANDS   # issue 18, seats: new-key, address, absent (seat_commands.py)
GM_COMMANDS = ("start", "pause", "resume", "extend", "force", "preview", "rollback", "replace", "observer",
               "end", "status", "close")
PLAYER_COMMANDS += talk.PLAYER_COMMANDS   # issue 18: table talk and letters (referee/authority/talk/talk.py)
GM_COMMANDS += talk.GM_COMMANDS           # issue 18: the chronicle, approve and decline letters
GM_COMMANDS += JOIN_GM_COMMANDS   # issue 18, seats: close-joining, open-joining (joining.py)
GM_COMMANDS += SEAT_GM_COMMANDS   # issue 32: remove, a seat freed before the start (joining.py)
CREATE_KEYS = ("spec", "match_file")   # where a mailed "command: create" carries its match file


class Commands:
    """Player and GM commands; a GM command that closes, previews or rolls back
    goes to ``closing``, one that starts or seats goes to ``matches``."""

    def __init__(self, store, renderer, lookups, queue, replies, orders, notices, matches, closing,
                 settings, now, talk=None) -> None:
        self.talk = talk   # issue 18: table talk, the chronicle, letters
        self.store, self.renderer, self.lookups, self.queue = store, renderer, lookups, queue
        self.replies, self.orders, self.notices, self.matches, self.closing = replies, orders, notices, matches, closing
        self.settings, self.now = settings, now
        self.seats = SeatCommands(store, renderer, lookups, queue, replies, notices, settings, now)   # issue 18
        self.joining = Joining(store, renderer, lookups, queue, replies, matches, settings, now,   # issue 18
                               replace=self.replace_player)
        closing.dropouts.on_abandoned = self.joining.fill_abandoned   # a seat given up goes to the wait list

    # -- players -------------------------------------------------------------
    def player_command(self, mail, match, player, env, doc) -> Handled:
        lang = self.lookups.lang_of(match, player)
        cmd = env.command
        if cmd not in PLAYER_COMMANDS:
            known = ", ".join(PLAYER_COMMANDS)
            return self.replies.refuse(mail, match, lang, [Own("command.unknown", {"command": cmd, "known": known},
                                                               *_at(doc, "command"))], player=player)
        if cmd in talk.PLAYER_COMMANDS:
            return self.talk.player_command(mail, match, player, env, doc)
        if cmd in self.seats.handlers:   # issue 18: new-key, address, absent
            return self.seats.handle(mail, match, player, env, doc)
        turn = self.store.current_turn(match["id"])
        extra: dict = {}
        asked_turn = env.args.get("turn") or env.turn
        last = _last_resolved(self.store, match["id"]) if cmd == "resend" else None
        if cmd == "help" or (cmd == "resend" and not asked_turn and last is None):
            # a resend before any report: what the player lost is the welcome's form
            return self._help(mail, match, player, turn, cmd, lang)
        if cmd == "resend":
            try:
                number = checks.integer(asked_turn or last or 0,
                                        0, checks.MAX_TURN, "turn")
            except checks.Invalid:
                return self.replies.refuse(mail, match, lang, [Own("resend.none", {"turn": checks.echo(env.args.get("turn"), 12)},
                                                                   *_at(doc, "turn"))], player=player)
            past = self.store.turn(match["id"], number) if number else None
            if past is None or past["status"] != "resolved":
                return self.replies.refuse(mail, match, lang, [Own("resend.none", {"turn": number})], player=player)
            self._resend(mail, match, player, past)
            extra["resent"] = number
        elif turn["status"] == "open" and cmd == "withdraw":
            extra["withdrawn"] = self.store.delete_submission(match["id"], turn["number"], player["id"])
        elif turn["status"] == "open" and cmd in ("wait", "no-wait"):
            self.store.set_wait(match["id"], turn["number"], player["id"], cmd == "wait")
        subject, text = self.renderer.mail("status", lang, **self.notices.status_ctx(match, player), command=cmd, **extra)
        self.replies.reply(mail, match, player, subject, text)
        return Handled("processed", cmd, match["id"], player["id"])

    def _help(self, mail, match, player, turn: dict, cmd: str, lang: str) -> Handled:
        """The commands, the order form of the open turn if the player owes one, and the rules
        (the site's page, or a mail of their own: never beside the form a reply may quote)."""
        rules = self.lookups.rules(match)
        stage = turn["awaiting"].get(player["id"]) if turn["status"] == "open" and match["status"] != "ended" else None
        form = rules.order_form(self.lookups.turn_state(rules, match["id"], turn), player["id"], lang) if stage else ""
        if form:
            form = order_mail(match["id"], player["id"], turn["number"], form, lang,
                              schema_url(self.settings.site_url, match["id"], stage))
        about = rules_for_mail(rules, lang, self.settings.site_url, match["id"])
        subject, text = self.renderer.mail("status", lang, **self.notices.status_ctx(match, player), command=cmd,
                                           helping=True, form=form, rules_about=about)
        self.replies.reply(mail, match, player, subject, text)
        queue_rules_mail(self.renderer, self.queue, about, self.lookups.match_ctx(match, rules),
                         f"rules:{cmd}:{mail.message_id}:{mail.content_hash[:16]}", player["email"], lang)
        return Handled("processed", cmd, match["id"], player["id"])

    def _resend(self, mail, match, player, past) -> None:
        stored = past["result"]["mails"].get(player["id"])
        if stored is None:
            return
        # the very report of that turn, read from the archive when the mail is built
        ref = report_ref(match["id"], past["number"], past["rev"], player["id"], stored)
        ref.update(stale_form(self.store, self.lookups, match, player, past, stored["lang"]))
        self.queue.queue(f"resend:{mail.message_id}:{mail.content_hash[:16]}", match["id"], player["email"],
                         stored["subject"], "", None, report=ref)

    # -- the GM ----------------------------------------------------------------
    def gm_mail(self, mail, match, env, doc) -> Handled:
        lang = self.lookups.lang_of(match)
        if not keys.verify(env.key, match["gm_key_hash"]):
            if mail.sender != match["gm_email"]:
                return self.replies.refuse_stranger(mail, "gm.denied", match["id"])
            return self.replies.refuse(mail, match, lang, [Own("gm.denied", {"match": match["id"]}, *_at(doc, "key"))])
        cmd = env.command
        if cmd is None and env.orders is not None:
            # a game may await the GM's own orders (a stage for "@gm"), e.g. the
            # Ratsspiel's Spielleitung filling gaps in the selection
            gm = {"id": GM, "name": "GM", "email": match["gm_email"], "lang": None}
            return self.orders.take(mail, match, gm, self.store.current_turn(match["id"]), env, doc, lang)
        if cmd not in GM_COMMANDS:
            known = ", ".join(GM_COMMANDS)
            return self.replies.refuse(mail, match, lang, [Own("command.unknown", {"command": cmd, "known": known},
                                                               *_at(doc, "command"))])
        try:
            done = self.gm_command(match["id"], cmd, env.args, requested_by=mail)
        except Refusal as e:
            return self.replies.refuse(mail, match, lang, [Own(e.code, e.params, *(_at(doc, e.arg) if e.arg else ()))],
                                       code="command.failed")
        except KeyError as e:  # an argument the command needs is missing
            return self.replies.refuse(mail, match, lang, [Own("gm.needs", {"command": cmd, "arg": e.args[0]},
                                                               *_at(doc, "command"))], code="command.failed")
        except (MatchError, ValueError) as e:
            return self.replies.refuse(mail, match, lang, [Own("command.failed", {"command": cmd, "reason": str(e)})])
        gm = {"id": "@gm", "email": match["gm_email"], "lang": None}
        subject, text = self.renderer.mail("gm_done", lang, **self.notices.status_ctx(match, None), command=cmd, done=done)
        self.replies.reply(mail, match, gm, subject, text)
        return Handled("processed", cmd, match["id"], "@gm")

    def _turn_meant(self, match_id: str, mail) -> int | None:
        """The turn a mailed close means: the one open when the mail arrived.  A mail that
        waited while another worker closed that turn must not close the next one too."""
        turn = self.store.current_turn(match_id)
        received = getattr(mail, "received", None)
        if turn is None or received is None or not turn.get("opened"):
            return None
        opened = datetime.fromisoformat(turn["opened"])
        if received < opened <= self.now():   # the open turn is younger than the mail
            return turn["number"] - 1
        return None

    def gm_command(self, match_id: str, cmd: str, args: dict, requested_by=None) -> str:
        """Carry out a GM command; returns a one-line account of what was done."""
        args = args or {}
        if cmd in talk.GM_COMMANDS:
            return self.talk.gm_command(match_id, cmd, args, requested_by)
        match = self.store.match(match_id)
        if match is not None and self.joining.gm_takes(match, cmd):   # issue 18: joining, an open match
            return self.joining.gm_command(match_id, cmd, args)
        if cmd in SEAT_GM_COMMANDS:   # a match under way: its seats change by replace
            raise Refusal("join.remove_started", "command")
        if cmd == "start":
            self.matches.start(match_id)
            return "started"
        if cmd == "pause":
            return self.pause(match_id)
        if cmd == "resume":
            return self.resume(match_id)
        if cmd == "extend":
            return self.extend(match_id, hours=args.get("by", args.get("hours")), until=args.get("until"))
        if cmd in ("force", "close"):   # close: the GM confirms a turn the close guard held
            return self.closing.force(match_id, self._turn_meant(match_id, requested_by))
        if cmd == "preview":
            return self.closing.preview(match_id, tag=requested_by.message_id if requested_by else None)
        if cmd == "rollback":
            return self.closing.rollback(match_id)
        if cmd == "replace":
            # "seat": the envelope's own "player:" is the GM here
            strength = _bot_arg(args.get("bot"))   # issue 35: bot=true gives the seat to a bot
            if strength is not None:
                if args.get("email") is not None:
                    raise Refusal("gm.bot_and_email", "email")
                if args.get("name") is not None:   # a bot plays under the seat's name: a name here would be lost
                    raise Refusal("gm.bot_and_name", "name")
                return self.replace_with_bot(match_id, str(args["seat"]), strength)
            return self.replace_player(match_id, str(args["seat"]), self._outside(args["email"]),
                                       _checked(checks.header_text, args.get("name"), "name", "gm.bad_name", checks.MAX_NAME))
        if cmd == "observer":
            return self.add_observer(match_id, self._outside(args["email"]),
                                     _checked(checks.language, args.get("lang"), "lang", "gm.bad_lang"))
        if cmd == "end":
            return self.end(match_id)
        if cmd == "status":
            return "status"
        raise ValueError(f"unknown command {cmd!r}")

    def _outside(self, value) -> str:
        """An address the GM gives a seat or an observer: never the referee's own (issue 32)."""
        email = _address(value)
        if ours(self.settings, email):
            raise Refusal("gm.ours", "email", value=email.lower())
        return email

    def pause(self, match_id: str) -> str:
        with self.store.transaction():
            match = self.store.match(match_id)
            if match["status"] != "running":
                raise Refusal("gm.pause", status=match["status"])
            self.store.set_match_status(match_id, "paused", paused_at=self.now())
            self.notices.notify_all(match_id, "paused")
        return "paused"

    def resume(self, match_id: str) -> str:
        with self.store.transaction():
            match = self.store.match(match_id)
            if match["status"] != "paused":
                raise Refusal("gm.resume", status=match["status"])
            turn = self.store.current_turn(match_id)
            now = self.now()
            if turn["status"] == "open" and turn["deadline"]:
                paused_at = datetime.fromisoformat(match["paused_at"])
                new = self.lookups.timing(match).shift(datetime.fromisoformat(turn["deadline"]), paused_at, now)
                self.store.set_deadline(match_id, turn["number"], new)
            elif turn["status"] == "open":  # a rolled-back turn waits for a fresh deadline
                self.store.set_deadline(match_id, turn["number"], self.lookups.timing(match).next_deadline(now, None))
            self.store.set_match_status(match_id, "running")
            self.notices.notify_all(match_id, "resumed")
        return "resumed"

    def extend(self, match_id: str, hours=None, until=None) -> str:
        with self.store.transaction():
            match = self.store.match(match_id)
            turn = self.store.current_turn(match_id)
            if turn["status"] != "open" or not turn["deadline"]:
                raise Refusal("gm.extend_none")
            old = datetime.fromisoformat(turn["deadline"])
            arg = "until" if until is not None else "by"
            if until is not None:
                try:
                    new = until if isinstance(until, datetime) else datetime.fromisoformat(str(until)[:40])
                except ValueError:
                    raise Refusal("gm.bad_time", "until", value=checks.echo(until)) from None
                if new.tzinfo is None:
                    new = new.replace(tzinfo=self.lookups.timing(match).zone)
            elif hours is not None:
                try:
                    new = self.lookups.timing(match).extend(old, str(hours)[:40] if isinstance(hours, str) else hours)
                except OverflowError:
                    raise Refusal("gm.too_far", "by", days=checks.MAX_AHEAD.days) from None
                except (ValueError, TypeError):
                    raise Refusal("gm.bad_duration", "by", value=checks.echo(hours)) from None
            else:
                raise Refusal("gm.extend_how", "command")
            try:  # a deadline the clock can hold, and grace and reminders after it
                checks.moment(new, self.now(), arg)
            except checks.Invalid:
                raise Refusal("gm.too_far", arg, days=checks.MAX_AHEAD.days) from None
            if new <= old:
                raise Refusal("gm.extend_earlier", arg)
            self.store.set_deadline(match_id, turn["number"], new)
            self.notices.notify_all(match_id, "extended")
        return f"deadline {self.lookups.timing(match).local(new)}"

    def replace_player(self, match_id: str, player_id: str, email: str, name: str | None = None) -> str:
        with self.store.transaction():
            match = self.store.match(match_id)
            before = self.store.player(match_id, player_id)
            if before is None:
                raise Refusal("gm.no_seat", "seat", seat=checks.echo(player_id))
            if name is None and player_id in bot_rows.bots(self.store, match_id):   # a person takes no bot's name
                raise Refusal("gm.bot_seat_needs_name", "name", seat=player_id, bot=before["name"])
            key = keys.new_key()
            self.store.replace_player(match_id, player_id, email, keys.hash_key(key), name, self.now())
            seat_replaced(self.store, match_id, player_id)   # issue 18: the newcomer starts with a clean record
            turn = self.store.current_turn(match_id)
            rules = self.lookups.rules(match)
            self.matches.welcome(match, turn, rules, rules.load(turn["state"]), self.store.player(match_id, player_id),
                                 key, "welcome", replaced=True)
            if before["email"] and before["email"] != email.lower():   # the one who leaves is told, in their language
                self.notices.replaced(match, turn, before)
            if bot_rows.drop_bot(self.store, match_id, player_id):   # issue 35: a person takes a bot's seat
                bot_seats.tell(self, match, self.store.player(match_id, player_id), "person")
        return f"{player_id} now plays from {email.lower()}"

    def replace_with_bot(self, match_id: str, seat: str, strength: str) -> str:
        """Issue 35: the seat goes to a bot (no address, never mailed) until the GM replaces it again."""
        with self.store.transaction():
            match = self.store.match(match_id)
            before = self.store.player(match_id, seat)
            if before is None:
                raise Refusal("gm.no_seat", "seat", seat=checks.echo(seat))
            held = bot_rows.bots(self.store, match_id).get(seat)
            if held is not None:   # a bot's seat stays a bot's: only the GM hears of it
                return bot_seats.restrength(self.store, match_id, held, strength, self.now())
            bot_seats.to_bot(self.store, match_id, seat, strength, "gm", self.now())
            seat_replaced(self.store, match_id, seat)
            turn = self.store.current_turn(match_id)
            if before["email"] and turn is not None:   # the one who leaves is told, in their language
                self.notices.replaced(match, turn, before, to_bot=True)
            bot_seats.tell(self, match, self.store.player(match_id, seat), "gm")
        return f"{seat} is now played by a bot ({strength})"

    def add_observer(self, match_id: str, email: str, lang: str | None = None) -> str:
        with self.store.transaction():
            added = self.store.add_observer(match_id, email, lang)
            if added:
                self.notices.observer_welcome(self.store.match(match_id), email.lower(), lang)
        return f"observer {email.lower()} " + ("added" if added else "was already there")

    def end(self, match_id: str) -> str:
        with self.store.transaction():
            self.store.set_match_status(match_id, "ended")
            self.notices.notify_all(match_id, "ended")
        return "ended"

    # -- creating a match by mail -----------------------------------------------
    def create_by_mail(self, mail, env, doc) -> Handled:
        allowed = self.settings.gm_keys.get(mail.sender) if mail.sender else None
        if allowed is None:
            return self.replies.refuse_stranger(mail, "gm.denied")
        source = env.args.get("spec") or env.args.get("match_file")
        lang = file_lang(source) or self.settings.default_lang   # the GM wrote the file in it
        if keys.normalise(env.key or "") != keys.normalise(allowed):
            return self._create_refused(mail, env, lang, [Own("gm.denied", {"match": env.match}).describe(lang)],
                                        "gm.denied")
        try:
            spec = load_spec(source if source is not None else {}, self.now(), marks_within(doc, CREATE_KEYS))
            if spec.id != env.match:
                raise MatchError([f"the envelope says match {env.match!r}, the match file {spec.id!r}"],
                                 [f"der Umschlag nennt die Partie {env.match!r}, die Partiedatei {spec.id!r}"])
            self.matches.create_match(spec)  # a fresh GM key of its own, mailed to its gm: the creation key only creates
        except MatchFileRefused as e:   # its own words in en and de
            return self._create_refused(mail, env, lang, [describe(e.problem, lang)], "command.failed")
        except MatchError as e:   # each problem with its line
            return self._create_refused(mail, env, lang, e.lines(lang)[:MAX_PROBLEMS], "command.failed")
        match = self.store.match(spec.id)
        gm = {"id": "@gm", "email": mail.sender, "lang": None}
        subject, text = self.renderer.mail("gm_done", self.lookups.lang_of(match), **self.notices.status_ctx(match, None),
                                           command="create", done=f"created {spec.id}")
        self.replies.reply(mail, match, gm, subject, text)
        return Handled("processed", "create", spec.id, "@gm")

    def _create_refused(self, mail, env, lang: str, problems: list[str], code: str) -> Handled:
        """No match was made: the refusal says so (no orders of a match to stand meanwhile)."""
        subject, text = self.renderer.mail("create_refused", lang, match=checks.echo(env.match), problems=problems)
        self.replies.reply(mail, None, None, subject, text)
        return Handled("refused", code)


def _address(value) -> str:
    try:
        return checks.email(value, "email")
    except checks.Invalid:
        raise Refusal("gm.bad_address", "email", value=checks.echo(value)) from None


def _checked(check, value, arg: str, code: str, *extra):
    """``value`` through ``check`` (None stays None), else a Refusal at ``arg``."""
    if value is None:
        return None
    try:
        return check(value, arg, *extra)
    except checks.Invalid:
        raise Refusal(code, arg, value=checks.echo(value), known=", ".join(checks.LANGUAGES)) from None


def _bot_arg(value) -> str | None:
    """``bot:`` of a replace (a mail's true/false, the command line's text): the strength, or None."""
    if value is None or value is False or (isinstance(value, str) and value.strip().lower() == "false"):
        return None
    if isinstance(value, str) and value.strip().lower() == "true":
        value = True
    try:
        return bot_strength(value)
    except BotProblem:
        raise Refusal("gm.bad_bot", "bot", value=checks.echo(value), known=", ".join(STRENGTHS)) from None


def _last_resolved(store, match_id: str) -> int | None:
    done = [t["number"] for t in store.turns(match_id) if t["status"] == "resolved"]
    return max(done) if done else None
