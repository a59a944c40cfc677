"""The close worked out, outside any write transaction (issue 8): the orders
re-validated (or defaulted), the turn resolved with its seed, the next turn's
deadline, every report rendered, the new state dumped and hashed.  Nothing here
writes; ``close_commit`` checks under the match's claim that what this read is
still so, and stores it.  The preview renders with the same parts."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pydantic import ValidationError

from referee.authority.gate.bot_orders import BOT_FAILED, BOT_MARK
from referee.authority.gate.orders import orders_text
from referee.authority.matches.absence import moved_past
from referee.authority.order_mail import schema_url
from referee.authority.talk.talk_archive import heading as talk_heading
from referee.game_api.contract import GM, Rng, derive_seed, encoded_with_hash, views_of
from referee.outbox.refs import report_name
from referee.pictures.board import svg_of
from referee.render import order_page, standings
from referee.render.shared import one_report
from referee.runtime import crash
from referee.store import bots as bot_rows
from referee.store import closing as close_rows


def pictures_once(mails: dict) -> dict[str, str]:
    """The reports' pictures, each distinct one once (most readers see the same board):
    every report's ``picture`` becomes the key of its SVG in what this returns."""
    found: dict[str, str] = {}
    keys: dict[str, str] = {}   # SVG -> key: readers in one language share one SVG, hashed once
    for m in mails.values():
        svg = m.get("picture")
        if svg:
            key = keys.get(svg)
            if key is None:
                key = keys[svg] = hashlib.sha256(svg.encode()).hexdigest()[:16]
            found[key], m["picture"] = svg, key
    return found


def kept_of(mails: dict) -> dict:
    """What the store keeps of each report: its language, subject and picture key (the body is the archive's)."""
    return {who: {k: m[k] for k in ("lang", "subject", "picture") if m.get(k) is not None} for who, m in mails.items()}


@dataclass
class Plan:
    """A close worked out: what to store and queue, and the inputs it was worked out from."""
    inputs: tuple                  # store.closing.inputs, read before anything else
    match: dict
    turn: dict
    now: datetime
    ended: bool
    next_turn: dict | None         # add_turn's arguments for the next turn, None if the match ended
    away: list                     # absences the next deadline moved past (issue 18)
    missing: list[str]
    mails: dict                    # who -> lang, subject, text, html, picture (key)
    sends: list[tuple[str, str, str, str | None]] = field(default_factory=list)   # (key, to, who, calendar)
    result: dict = field(default_factory=dict)   # the stored result, without report bodies
    result_parts: dict = field(default_factory=dict)   # its entries' JSON texts, as stored (store_plan)
    after: dict | None = None      # the standings of the resolved state, if the reports read them

    def reports(self) -> dict[str, str]:
        """The report files of the turn's archive folder: ``<who>.<lang>.txt|.html``."""
        files = {}
        for who, m in self.mails.items():
            name = report_name(who, m["lang"])
            files[f"{name}.txt"], files[f"{name}.html"] = m["text"], m["html"]
        return files


class CloseCompute:
    """Reads a match's open turn and works its close out; writes nothing."""

    def __init__(self, store, renderer, lookups, now) -> None:
        self.store, self.renderer, self.lookups, self.now = store, renderer, lookups, now

    def plan(self, match_id: str, number: int | None) -> Plan | None:
        """The close of the open turn, or None if there is none to close (``number``:
        the turn the caller saw open, which another worker may have closed)."""
        seen = close_rows.inputs(self.store, match_id)
        match = self.store.match(match_id)
        turn = self.store.current_turn(match_id)
        if match is None or turn is None or turn["status"] != "open" or match["status"] == "ended" \
                or number not in (None, turn["number"]):
            return None
        now = self.now()
        rules = self.lookups.rules(match)
        state = rules.load(turn["state"])
        orders, used, missing = self.orders_for(rules, state, match_id, turn)
        # the standings before the turn: as the close before read them from the state it made (the
        # turn's row), else read from the state as loaded (a copy: resolve may change it)
        before = turn.get("standings")
        if before is None:
            before = {k: dict(v) if isinstance(v, dict) else v for k, v in standings.read(rules, state).items()}
        res = rules.resolve(state, orders, Rng(turn["seed"]))
        crash.point("close.resolved")
        awaiting = rules.awaiting(res.state)
        ended = res.outcome is not None or not awaiting
        dumped = rules.dump(res.state)
        next_turn, nxt, away = None, None, []
        if not ended:
            timing = self.lookups.timing(match)
            old = datetime.fromisoformat(turn["deadline"]) if turn["deadline"] else None
            deadline = timing.next_deadline(now, old) if match["status"] == "running" else None
            deadline, away = moved_past(self.store, match, deadline, timing.zone)   # issue 18
            next_turn = {"match": match_id, "number": turn["number"] + 1, "state": dumped, "awaiting": awaiting,
                         "deadline": deadline, "seed": derive_seed(match["seed"], turn["number"] + 1), "opened": now}
            # the next turn as the store will give it back (the reports name its deadline)
            nxt = {"number": turn["number"] + 1, "rev": 0, "status": "open", "awaiting": awaiting,
                   "deadline": deadline.astimezone(UTC).isoformat() if deadline else None}
        plan = Plan(seen, match, turn, now, ended, next_turn, away, missing, {})
        self._reports(plan, rules, res, nxt, before, used)
        encoded, state_hash = encoded_with_hash(dumped)   # the state encoded once: its hash, the next turn's row
        if next_turn is not None:
            if encoded is not None:
                next_turn["state_text"] = encoded.decode()
            next_turn["standings"] = plan.after   # the next close's standings before its turn
        plan.result = {"state": dumped, "hash": state_hash,
                       "log": [e.to_json() for e in res.log], "outcome": res.outcome, "orders": used,
                       "missing": missing, "pictures": pictures_once(plan.mails)}
        if not ended:   # the next turn holds the state; the last one of a match keeps it here
            plan.result.pop("state")
        plan.result["mails"] = kept_of(plan.mails)
        return plan

    def orders_for(self, rules, state, match_id: str, turn: dict):
        """Orders for every awaited player: their last valid submission, re-validated, else the default."""
        subs = self.store.submissions(match_id, turn["number"])
        orders, used, missing = {}, {}, []
        for pid, stage in sorted(turn["awaiting"].items()):
            model, source = None, "player"
            sent = subs[pid]["message_id"] if pid in subs else None
            if sent is not None and not sent.startswith(BOT_FAILED):   # issue 35: a failed bot's seat: defaults
                source = "bot" if sent.startswith(BOT_MARK) else "player"   # orders.yaml says a bot's
                try:
                    model = rules.order_schema(state, stage).model_validate(subs[pid]["orders"])
                    if any(p.is_error for p in rules.validate(state, pid, model)):
                        model = None
                except ValidationError:
                    model = None
            if model is None:
                model, source = rules.default_orders(state, pid), "default"
                missing.append(pid)
            orders[pid] = model
            used[pid] = {"source": source, "stage": stage, "orders": model.model_dump(mode="json")}
        return orders, used, missing

    def _reports(self, plan: Plan, rules, res, nxt, before: dict | None = None, used: dict | None = None) -> None:
        """Render every report of the close, and what queues each: the board picture (if the
        game draws one) and the next deadline as a calendar part (cancelled in the last report).
        ``before``: the standings of the turn's state, read before it was resolved; ``used``:
        the orders the close used (``orders_for``), the defaults of who sent none among them."""
        match, turn, missing, mails = plan.match, plan.turn, plan.missing, plan.mails
        calendars: dict[str, str | None] = {}
        players = self.store.players(match["id"])
        once = Shared(self, match, turn, rules, res, nxt,
                      talk=close_rows.has_talk(plan.inputs, turn["number"]), before=before, used=used,
                      readers=[p["id"] for p in players] + [None, GM])

        def send(key: str, to: str, who: str) -> None:
            lang = mails[who]["lang"]
            if lang not in calendars:
                calendars[lang] = self.lookups.calendar_part(match, nxt, lang, plan.now, ended=nxt is None)
            plan.sends.append((key, to, who, calendars[lang]))

        # one digest scope for the close: what its reports share (players, outcome, the labels)
        # is digested once, not once a reader; nothing changes meanwhile
        with one_report():
            for p in players:
                lang = self.lookups.lang_of(match, p)
                mails[p["id"]] = self.render(match, turn, rules, res, missing, nxt, p["id"], lang, once)
                send(p["id"], p["email"], p["id"])
            for o in self.store.observers(match["id"]):
                lang = o["lang"] or self.lookups.lang_of(match)
                if f"_public.{lang}" not in mails:
                    mails[f"_public.{lang}"] = self.render(match, turn, rules, res, missing, nxt, None, lang, once)
                send(f"obs:{o['email']}", o["email"], f"_public.{lang}")
            lang = self.lookups.lang_of(match)
            mails["_gm"] = self.render(match, turn, rules, res, missing, nxt, GM, lang, once)
            send("@gm", match["gm_email"], "_gm")
        plan.after = once.after   # the standings after the turn, as the reports read them: the next turn keeps them

    def _report_ctx(self, match, turn, rules, res, missing, nxt, viewer, lang, once: Shared) -> dict:
        owes = nxt is not None and viewer in nxt["awaiting"]
        return {"match": once.match_ctx, "turn": turn["number"], "viewer": viewer,
                "view": once.view(viewer), "picture": once.picture(lang),
                "standings": once.standings(lang),
                "log": once.log(viewer),
                "missing": list(missing), "players": once.names, "outcome": res.outcome,
                "order_form": rules.order_form(res.state, viewer, lang) if owes else "", "next": once.next_info(lang)}

    def render(self, match, turn, rules, res, missing, nxt, viewer, lang, once: Shared | None = None) -> dict:
        """One reader's report: lang, subject, text, HTML and the board picture (SVG);
        ``once``: what the close's reports share (a report of its own without)."""
        if once is None:
            once = Shared(self, match, turn, rules, res, nxt)
        ctx = self._report_ctx(match, turn, rules, res, missing, nxt, viewer, lang, once)
        body_text, body_html = self.renderer.game_report(rules.name, rules.languages, lang, ctx)
        ctx = dict(ctx, **self._wrapper_ctx(match, turn, rules, missing, viewer, once),
                   schema_url=schema_url(self.lookups.settings.site_url, match["id"],
                                         (ctx["next"] or {}).get("awaiting", {}).get(viewer)))
        subject, text, html = self.renderer.report(lang, ctx, body_text, body_html,
                                                   game_template=self.renderer.last_game_template)
        out = {"lang": lang, "subject": subject, "text": text, "html": html, "picture": ctx["picture"]}
        if ctx["order_form"]:   # issue 36: the clickable order page, queued with the report (never stored in the result)
            out["page"] = order_page.offer(rules, res.state, viewer, lang, match_ctx=once.match_ctx, turn=nxt["number"],
                                           stage=nxt["awaiting"].get(viewer), address=self.lookups.settings.address,
                                           player_name=once.names.get(viewer, {}).get("name", viewer),
                                           form=ctx["order_form"])
        return out

    def _wrapper_ctx(self, match, turn, rules, missing, viewer, once: Shared) -> dict:
        """What the referee's report wrapper adds to the game's context: whether a turn
        closes early, and the default orders a player who sent none got (read first)."""
        defaults = ""
        if viewer in missing:   # empty orders (the game decides at the close) are said in words, never as "{}"
            defaults = orders_text(once.defaults(viewer))
            defaults = "-" if defaults.strip() in ("", "{}", "null") else defaults
        # issue 18: the chronicle for this reader, and the public table talk in the public report
        if once.talk:
            heading = talk_heading(self.store, match["id"], turn["number"], viewer, lambda: once.names)
        else:   # the close read none for the turn: nothing to ask the store per reader
            heading = {"chronicle": [], "table_talk": []}
        return {"early_close": bool(match["spec"].get("early_close", True)), "my_defaults": defaults,
                "bots": once.bots, **heading}


class Shared:
    """What every report of one close has in common, worked out once for the close
    (a close renders one report per reader): the seats' names, the match's context,
    the public view and picture, the standings table and the next deadline per language."""

    def __init__(self, compute: CloseCompute, match, turn, rules, res, nxt, talk: bool = True,
                 before: dict | None = None, used: dict | None = None, readers: list | None = None) -> None:
        self.lookups, self.turn, self.rules, self.res, self.nxt = compute.lookups, turn, rules, res, nxt
        self._used = used or {}       # orders_for's: a defaulted reader's orders, made from the same state
        self.talk = talk              # False: the close read no chronicle entry nor table talk for the turn
        self.names = self.lookups.names(match["id"])
        self.bots = sorted(bot_rows.bots(compute.store, match["id"]))   # issue 35: the reports name the bots' seats
        self.match, self.match_ctx = match, self.lookups.match_ctx(match, rules)
        self._before = before         # None: no standings (the GM's preview shows none)
        self.after: dict | None = None   # the standings of the resolved state, once a report read them
        self._readers = readers if readers is not None else [None]   # whose views are made together
        self._views: dict | None = None
        self._old = None
        self._entries: list | None = None
        self._drawn: dict[str, str | None] = {}
        self._tables: dict[str, list] = {}
        self._next: dict[str, dict | None] = {}

    def view(self, viewer):
        """``viewer``'s view of the resolved state, each once.  The readers' views are made together
        (``views_of``): a game builds what they have in common once, and a shared part of the
        reports given that very object again is found by identity, without a digest."""
        if self._views is None:
            self._views = views_of(self.rules, self.res.state, self._readers)
        if viewer not in self._views:
            self._views[viewer] = self.rules.view(self.res.state, viewer)
        return self._views[viewer]

    def old_state(self):
        """The state the turn opened with, loaded once (default orders are made from it)."""
        if self._old is None:
            self._old = self.rules.load(self.turn["state"])
        return self._old

    def defaults(self, viewer) -> dict:
        """The default orders ``viewer`` got (as JSON): what the close used, which made them from
        the state the turn opened with, before resolving; else made here from that state."""
        used = self._used.get(viewer)
        if used is not None and used["source"] == "default":
            return used["orders"]
        return self.rules.default_orders(self.old_state(), viewer).model_dump(mode="json")

    def picture(self, lang: str) -> str | None:
        """The board picture in ``lang``: drawn from the public view (a game draws
        the public part only, so every reader's is the same), once per close and language."""
        if lang not in self._drawn:
            self._drawn[lang] = svg_of(self.rules, self.view(None), lang)
        return self._drawn[lang]

    def log(self, viewer) -> list:
        """The turn's log entries ``viewer`` may see, as the templates read them: each entry made
        once per close (templates only read them), a list of the reader's own."""
        if self._entries is None:
            self._entries = [(e, {"kind": e.kind, "data": dict(e.data)}) for e in self.res.log]
        return [entry for e, entry in self._entries if e.visible_for(viewer)]

    def standings(self, lang: str) -> list:
        if self._before is None:
            return []
        if lang not in self._tables:
            if self.after is None:
                self.after = standings.of_view(self.rules, lambda: self.view(None))   # the reports' public view
            self._tables[lang] = standings.table(self.rules, self._before, self.after, lang, self.names)
        return self._tables[lang]

    def next_info(self, lang: str) -> dict | None:
        """The next turn and its deadline in ``lang`` (None after the last turn)."""
        if self.nxt is None:
            return None
        if lang not in self._next:
            info = self.lookups.deadline_info(self.match, self.nxt, lang)
            # deadline_utc without the word "UTC": templates write "({{ next.deadline_utc }} UTC)"
            self._next[lang] = {"turn": self.nxt["number"], "deadline_local": info["local"] if info else None,
                                "deadline_utc": info["at"].strftime("%Y-%m-%d %H:%M") if info else None,
                                "awaiting": dict(self.nxt["awaiting"])}
        return self._next[lang]
