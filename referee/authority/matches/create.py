"""Creating and starting matches."""
from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping

from referee.authority import keys
from referee.authority.matches import seating
from referee.authority.matches.bot_seats import add_seats, bot_marks, other_bots
from referee.authority.matches.match_file import Created, MatchError, load_spec, within_the_calendar
from referee.authority.matches.observers import welcome_observer
from referee.authority.matches.position import position_text, summary_text
from referee.authority.matches.spec import MatchSpec
from referee.authority.matches.talk_spec import press_options
from referee.authority.order_mail import queue_rules_mail, rules_for_mail, schema_url
from referee.authority.wording import Refusal
from referee.game_api import registry
from referee.game_api.contract import Rng, derive_seed, phrase, state_hash
from referee.render import order_page


class Matches:
    """Creating a match (keys, welcome mails, the archive's match record) and starting it."""

    def __init__(self, store, archive, renderer, lookups, queue, settings, now) -> None:
        self.store, self.archive, self.renderer, self.lookups = store, archive, renderer, lookups
        self.queue, self.settings, self.now = queue, settings, now

    def create_match(self, spec: MatchSpec | str | Mapping, *, gm_key: str | None = None,
                     seed: str | None = None) -> Created:
        """Validate, set up, issue keys and queue the welcome mails, all in one transaction."""
        spec = spec if isinstance(spec, MatchSpec) else load_spec(spec, self.now())
        if spec.free_seats():   # issue 18: open for joining; set up once the seats are taken
            return seating.open_match(self, spec, gm_key, seed)
        try:
            rules = registry.get(spec.game)
        except LookupError as e:
            raise MatchError([str(e)]) from None
        players = [p.id for p in spec.players]
        options = spec.game_options()
        problems = [phrase(rules, p, "en") for p in rules.check_options(players, options) if p.is_error]
        now = self.now()
        try:
            timing = self.lookups.timing({"spec": spec.model_dump(mode="json")})
            within_the_calendar(timing, now)
        except Exception as e:  # the schedule's own validation message is the useful part
            problems.append(f"schedule: {e}")
        if problems:
            raise MatchError(problems)
        seed = seed or secrets.token_hex(16)
        state = rules.setup(players, options, Rng(derive_seed(seed, "setup")))
        gm_key = gm_key or keys.new_key()
        player_keys = {p.id: keys.new_key() for p in spec.players}
        running = spec.start == "auto"
        deadline = timing.first_deadline(now) if running else None
        spec_json = spec.model_dump(mode="json")
        with self.store.transaction():
            if self.store.match(spec.id) is not None:
                raise MatchError([f"a match called {spec.id!r} exists already"])
            self.store.add_match(id=spec.id, game=rules.name, version=rules.version, spec=spec_json, seed=seed,
                                 status="running" if running else "waiting", gm_email=spec.gm.lower(),
                                 gm_key_hash=keys.hash_key(gm_key), created=now)
            add_seats(self.store, spec, player_keys, now)   # issue 35: a bot seat has no address
            for o in spec.observers:
                self.store.add_observer(spec.id, o.email, o.lang)
            dumped = rules.dump(state)
            self.store.add_turn(match=spec.id, number=1, state=dumped, awaiting=rules.awaiting(state),
                                deadline=deadline, seed=derive_seed(seed, 1), opened=now)
            match = self.store.match(spec.id)
            turn = self.store.current_turn(spec.id)
            for p in self.store.players(spec.id):
                self.welcome(match, turn, rules, state, p, player_keys[p["id"]], "welcome")
            self._gm_welcome(match, turn, gm_key)
            for o in self.store.observers(spec.id):   # the match file's observers: welcomed like one the GM adds
                welcome_observer(self, match, turn, rules, state, o["email"], o["lang"])
            self.archive.write_match(spec.id, self.match_record(match, rules, state))
        return Created(spec.id, gm_key)

    def match_record(self, match: dict, rules, state) -> dict:
        spec = match["spec"]
        return {"id": match["id"], "game": match["game"], "version": match["version"],
                "title": spec.get("title") or rules.title,
                "players": bot_marks(self.store, match["id"], [{"id": p["id"], "name": p["name"]}
                                                               for p in self.store.players(match["id"])]),
                "options": MatchSpec.model_validate(spec).game_options(), "language": spec["language"],
                "timezone": spec["timezone"], "schedule": spec["schedule"], "seed": match["seed"],
                "setup_hash": state_hash(rules, state)}

    def welcome(self, match: dict, turn: dict, rules, state, player: dict, key: str, kind: str,
                replaced: bool = False) -> None:
        if not player["email"]:   # issue 35: a bot's seat is never mailed
            return
        lang = self.lookups.lang_of(match, player)
        stage = turn["awaiting"].get(player["id"])
        form = rules.order_form(state, player["id"], lang) if stage else ""
        ctx = self.lookups.match_ctx(match, rules)
        about = rules_for_mail(rules, lang, self.settings.site_url, match["id"])
        subject, text = self.renderer.mail(
            kind, lang, match=ctx, player=player, key=key, turn=turn["number"],
            order_form=form, deadline=self.lookups.deadline_info(match, turn, lang), address=self.settings.address,
            schema_url=schema_url(self.settings.site_url, match["id"], stage),
            summary=summary_text(rules, lang), replaced=replaced, press=press_options(match["spec"]),
            rules_for_players=about, bots=other_bots(self.store, match["id"], player["id"]),
            position=position_text(self.renderer, rules, ctx, state, player["id"], lang, turn["number"] - 1,
                                   self.lookups.names(match["id"])))
        # once per key, named by a digest of the stored salted hash: no part of the key itself
        issued = hashlib.sha256(player["key_hash"].encode()).hexdigest()[:16]
        page = order_page.offer(rules, state, player["id"], lang, match_ctx=ctx, turn=turn["number"], stage=stage,
                                address=self.settings.address, player_name=player["name"], form=form)
        self.queue.queue(f"{kind}:{match['id']}:{player['id']}:{issued}", match["id"], player["email"], subject, text,
                         calendar=self.lookups.calendar_part(match, turn, lang, self.now()), page=page)
        queue_rules_mail(self.renderer, self.queue, about, ctx, f"rules:{match['id']}:{player['id']}:{issued}",
                         player["email"], lang)

    def _gm_welcome(self, match: dict, turn: dict, gm_key: str) -> None:
        rules = self.lookups.rules(match)
        lang = self.lookups.lang_of(match)
        subject, text = self.renderer.mail(
            "gm_welcome", lang, match=self.lookups.match_ctx(match, rules), key=gm_key,
            players=self.store.players(match["id"]), deadline=self.lookups.deadline_info(match, turn, lang),
            address=self.settings.address, status=match["status"])
        self.queue.queue(f"gm_welcome:{match['id']}", match["id"], match["gm_email"], subject, text)

    def start(self, match_id: str) -> None:
        """Start a match created with ``start: manual``: the first deadline runs from now."""
        with self.store.transaction():
            match = self.store.match(match_id)
            if match["status"] != "waiting":
                raise Refusal("gm.start", "command", status=match["status"])
            turn = self.store.current_turn(match_id)
            self.store.set_deadline(match_id, turn["number"], self.lookups.timing(match).first_deadline(self.now()))
            self.store.set_match_status(match_id, "running")
