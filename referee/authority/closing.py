"""Closing turns: reminders, due and early closes, resolution, reports, archive;
and the GM's force, preview and rollback.

A close is one transaction: re-validate, default the missing, resolve with the
turn seed, persist the result and the next turn, render every report and
queue it under a dedupe key.  The archive is written after the commit from
what was committed (``archived`` flag), so a crash at any point either
repeats the whole close (nothing was committed) or only the archive writing.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from datetime import datetime

from pydantic import ValidationError

from referee import pictures, standings
from referee.authority import crash
from referee.authority.absence import moved_past, tell_moved
from referee.authority.dropouts import Dropouts
from referee.authority.order_mail import schema_url
from referee.authority.orders import orders_text
from referee.authority.talk_archive import heading as talk_heading
from referee.authority.wording import Refusal
from referee.contract import GM, Rng, derive_seed, state_hash
from referee.pictures import svg_of


def report_name(who: str, lang: str) -> str:
    """A report's file name in the archive, without .txt/.html: ``ann.en``, ``_gm.de``, ``_public.en``."""
    return who if "." in who else f"{who}.{lang}"


def report_ref(match_id: str, number: int, rev: int, who: str, m: dict) -> dict:
    """What an outbox row holds of a report instead of its body (``m``: the rendered or kept report)."""
    return {"match": match_id, "turn": number, "rev": rev, "who": who, "name": report_name(who, m["lang"]),
            "picture": bool(m.get("picture"))}


def _pictures_once(mails: dict) -> dict[str, str]:
    """The reports' pictures, each distinct one once (most readers see the same board):
    every report's ``picture`` becomes the key of its SVG in what this returns."""
    found: dict[str, str] = {}
    for m in mails.values():
        if m.get("picture"):
            key = hashlib.sha256(m["picture"].encode()).hexdigest()[:16]
            found[key], m["picture"] = m["picture"], key
    return found


@dataclass
class TickReport:
    closed: list[tuple[str, int]] = field(default_factory=list)
    reminded: int = 0
    failed: list[tuple[str, int]] = field(default_factory=list)
    more: bool = False   # the pass stopped at its budget; the next tick goes on where it stopped


class Closing:
    """Everything that ends a turn: the tick's due and early closes and reminders,
    the GM's force, preview and rollback, and writing (and repairing) the archive.
    Its dependencies are all in its constructor, so a worker that only closes
    turns needs nothing else."""

    def __init__(self, store, archive, renderer, lookups, queue, faults, notices, now) -> None:
        self.store, self.archive, self.renderer, self.lookups = store, archive, renderer, lookups
        self.queue, self.faults, self.notices, self.now = queue, faults, notices, now
        self.dropouts = Dropouts(store, renderer, lookups, queue, now)   # issue 18: missed turns counted at each close

    _tick_cursor: str | None = None   # the last match a pass cut short by its budget looked at
    # (match_id, forced) -> False to hold the close: the close guard and the snapshot before it (Referee)
    before_close = None

    def tick(self, budget: float | None = None) -> TickReport:
        """One pass over every running match: close what is due, remind who is late.
        Each match, close, reminder and archive repair in a guard of its own.
        ``budget``: stop after so many seconds and go on from there next time, so
        that the service reads and answers mail while a league closes."""
        report, start = TickReport(), time.monotonic()
        if self._tick_cursor is None:
            self.repair_archive()
        now = self.now()
        left = [m for m in self.store.matches("running")
                if self._tick_cursor is None or m["id"] > self._tick_cursor]
        for i, match in enumerate(left):
            with self.faults.guarded("tick", match["id"], match["id"]):
                self._tick_match(match, now, report)
            self._tick_cursor = match["id"]
            if budget is not None and i + 1 < len(left) and time.monotonic() - start > budget:
                report.more = True   # at least one match a call: a pass always ends
                return report
        self._tick_cursor = None
        return report

    def _tick_match(self, match: dict, now, report: TickReport) -> None:
        turn = self.store.current_turn(match["id"])
        if turn is None or turn["status"] != "open" or not turn["deadline"]:
            return
        timing = self.lookups.timing(match)
        deadline = datetime.fromisoformat(turn["deadline"])
        all_in = not self.lookups.still_awaited(match["id"], turn)
        waiting = bool(self.store.waits(match["id"], turn["number"]))
        item = f"{match['id']}:{turn['number']}.{turn['rev']}"
        if timing.close_due(deadline, now, all_in, waiting):
            with self.faults.guarded("close", item, match["id"], turn["number"]) as guard:
                closed = self.close_turn(match["id"], turn["number"])
            if guard.failed:  # the turn stays open and is tried again next tick
                report.failed.append((match["id"], turn["number"]))
            elif closed is not None:
                self.store.clear_fault("close", item)
                report.closed.append((match["id"], turn["number"]))
        else:
            with self.faults.guarded("remind", item, match["id"], turn["number"]), self.store.transaction():
                report.reminded += self._remind(match, turn, now, deadline, timing)

    def _remind(self, match, turn, now, deadline, timing) -> int:
        offset = timing.due_reminder(deadline, now, datetime.fromisoformat(turn["opened"]))
        if offset is None:
            return 0
        count = 0
        names = self.lookups.names(match["id"])
        for pid in self.lookups.still_awaited(match["id"], turn):
            player = self.store.player(match["id"], pid)
            lang = self.lookups.lang_of(match, player)
            rules = self.lookups.rules(match)
            subject, text = self.renderer.mail(
                "reminder", lang, match=self.lookups.match_ctx(match, rules), player=player,
                turn=turn["number"], deadline=self.lookups.deadline_info(match, turn, lang),
                awaited=[names[p]["name"] for p in self.lookups.still_awaited(match["id"], turn)],
                order_form=rules.order_form(rules.load(turn["state"]), pid, lang),
                schema_url=schema_url(self.lookups.settings.site_url, match["id"], turn["awaiting"].get(pid)))
            key = f"remind:{match['id']}:{turn['number']}.{turn['rev']}:{pid}:{int(offset.total_seconds())}"
            count += self.queue.queue(key, match["id"], player["email"], subject, text)
        return count

    # -- closing ----------------------------------------------------------------
    def force(self, match_id: str) -> str:
        number = self.close_turn(match_id, forced=True)
        if number is None:
            raise Refusal("gm.no_open_turn", what="close", what_de="Schließen")
        return f"turn {number} closed"

    def close_turn(self, match_id: str, number: int | None = None, forced: bool = False) -> int | None:
        """Close and resolve the open turn; None if there is none (already closed;
        ``number``: the turn the caller saw open, which another worker may have closed) or it is held."""
        if self.before_close is not None and not self.before_close(match_id, forced):
            return None
        with self.store.transaction():
            if not self.store.claim_match(match_id, wait=False):   # another worker is closing it
                return None
            match = self.store.match(match_id)
            turn = self.store.current_turn(match_id)
            if turn is None or turn["status"] != "open" or match["status"] == "ended" \
                    or number not in (None, turn["number"]):
                return None
            now = self.now()
            rules = self.lookups.rules(match)
            state = rules.load(turn["state"])
            orders, used, missing = self._orders_for(rules, state, match_id, turn)
            res = rules.resolve(state, orders, Rng(turn["seed"]))
            crash.point("close.resolved")
            awaiting = rules.awaiting(res.state)
            ended = res.outcome is not None or not awaiting
            if ended:
                self.store.set_match_status(match_id, "ended")
                nxt = None
            else:
                old = datetime.fromisoformat(turn["deadline"]) if turn["deadline"] else None
                deadline = self.lookups.timing(match).next_deadline(now, old) if match["status"] == "running" else None
                deadline, away = moved_past(self.store, match, deadline, self.lookups.timing(match).zone)   # issue 18
                self.store.add_turn(match=match_id, number=turn["number"] + 1, state=rules.dump(res.state),
                                    awaiting=awaiting, deadline=deadline, seed=derive_seed(match["seed"], turn["number"] + 1),
                                    opened=now)
                nxt = self.store.current_turn(match_id)
                tell_moved(self, match_id, away)   # issue 18: a deadline moved past an absence, everyone told
            self.dropouts.after_close(match, turn, missing)
            # the reports' bodies stay in the result only until the archive holds them
            mails = self._queue_reports(match, turn, rules, res, missing, nxt)
            result = {"state": rules.dump(res.state), "hash": state_hash(rules, res.state),
                      "log": [e.to_json() for e in res.log], "outcome": res.outcome, "orders": used,
                      "missing": missing, "mails": mails, "pictures": _pictures_once(mails)}
            self.store.resolve_turn(match_id, turn["number"], result, now)
            crash.point("close.before_commit")
        crash.point("close.committed")
        pictures.prerender(result["pictures"].values())   # PNGs made on another core while this one goes on
        # the turn stands whatever happens to its archive; the next tick writes it again
        with self.faults.guarded("archive", f"{match_id}:{turn['number']}", match_id, turn["number"]):
            self.archive_turn(match_id, turn["number"])
        return turn["number"]

    def _orders_for(self, rules, state, match_id: str, turn: dict):
        """Orders for every awaited player: their last valid submission, re-validated, else the default."""
        subs = self.store.submissions(match_id, turn["number"])
        orders, used, missing = {}, {}, []
        for pid, stage in sorted(turn["awaiting"].items()):
            model, source = None, "player"
            if pid in subs:
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

    def _report_ctx(self, match, turn, rules, res, missing, nxt, viewer, lang, moved=None, drawn=None) -> dict:
        next_info = None
        if nxt is not None:
            info = self.lookups.deadline_info(match, nxt, lang)
            # deadline_utc without the word "UTC": templates write "({{ next.deadline_utc }} UTC)"
            next_info = {"turn": nxt["number"], "deadline_local": info["local"] if info else None,
                         "deadline_utc": info["at"].strftime("%Y-%m-%d %H:%M") if info else None,
                         "awaiting": dict(nxt["awaiting"])}
        owes = nxt is not None and viewer in nxt["awaiting"]
        view = rules.view(res.state, viewer)
        return {"match": self.lookups.match_ctx(match, rules), "turn": turn["number"], "viewer": viewer,
                "view": view, "picture": self._picture(rules, res.state, lang, {} if drawn is None else drawn),
                "standings": standings.table(rules, *moved, lang, self.lookups.names(match["id"])) if moved else [],
                "log": [{"kind": e.kind, "data": dict(e.data)} for e in res.log if e.visible_for(viewer)],
                "missing": list(missing), "players": self.lookups.names(match["id"]), "outcome": res.outcome,
                "order_form": rules.order_form(res.state, viewer, lang) if owes else "", "next": next_info}

    def _render_report(self, match, turn, rules, res, missing, nxt, viewer, lang, moved=None, drawn=None) -> dict:
        ctx = self._report_ctx(match, turn, rules, res, missing, nxt, viewer, lang, moved, drawn)
        body_text, body_html = self.renderer.game_report(rules.name, rules.languages, lang, ctx)
        ctx = dict(ctx, **self._wrapper_ctx(match, turn, rules, missing, viewer),
                   schema_url=schema_url(self.lookups.settings.site_url, match["id"],
                                         (ctx["next"] or {}).get("awaiting", {}).get(viewer)))
        subject, text, html = self.renderer.report(lang, ctx, body_text, body_html,
                                                   game_template=self.renderer.last_game_template)
        return {"lang": lang, "subject": subject, "text": text, "html": html, "picture": ctx["picture"]}

    @staticmethod
    def _picture(rules, state, lang: str, drawn: dict) -> str | None:
        """The board picture in ``lang``: drawn from the public view (a game draws
        the public part only, so every reader's is the same), once per close and language."""
        if lang not in drawn:
            drawn[lang] = svg_of(rules, rules.view(state, None), lang)
        return drawn[lang]

    def _wrapper_ctx(self, match, turn, rules, missing, viewer) -> dict:
        """What the referee's report wrapper adds to the game's context: whether a turn
        closes early, and the default orders a player who sent none got (read first)."""
        defaults = ""
        if viewer in missing:
            state = rules.load(turn["state"])
            defaults = orders_text(rules.default_orders(state, viewer).model_dump(mode="json"))
        return {"early_close": bool(match["spec"].get("early_close", True)), "my_defaults": defaults,
                # issue 18: the chronicle for this reader, and the public table talk in the public report
                **talk_heading(self.store, match["id"], turn["number"], viewer, lambda: self.lookups.names(match["id"]))}

    def _queue_reports(self, match, turn, rules, res, missing, nxt) -> dict:
        """Render and queue every report of a close; returns them for the archive and ``resend``.
        Each carries the board picture (if the game draws one) and the next deadline
        as a calendar part (cancelled in the last report)."""
        mails, tag = {}, f"{match['id']}:{turn['number']}.{turn['rev']}"
        calendars: dict[str, str | None] = {}
        drawn: dict[str, str | None] = {}   # the picture per language, drawn once
        # the standings before and after the turn, read once for every report
        moved = (standings.read(rules, rules.load(turn["state"])), standings.read(rules, res.state))

        def send(key: str, to: str, who: str) -> None:
            m = mails[who]
            if m["lang"] not in calendars:
                calendars[m["lang"]] = self.lookups.calendar_part(match, nxt, m["lang"], self.now(),
                                                                  ended=nxt is None)
            # the row names the report: its body is sent from the archive, its picture from the result
            self.queue.queue(f"report:{tag}:{key}", match["id"], to, m["subject"], "", None,
                             calendar=calendars[m["lang"]], report=report_ref(match["id"], turn["number"],
                                                                             turn["rev"], who, m))

        for p in self.store.players(match["id"]):
            lang = self.lookups.lang_of(match, p)
            mails[p["id"]] = self._render_report(match, turn, rules, res, missing, nxt, p["id"], lang, moved, drawn)
            send(p["id"], p["email"], p["id"])
        for o in self.store.observers(match["id"]):
            lang = o["lang"] or self.lookups.lang_of(match)
            if f"_public.{lang}" not in mails:
                mails[f"_public.{lang}"] = self._render_report(match, turn, rules, res, missing, nxt, None, lang,
                                                                   moved, drawn)
            send(f"obs:{o['email']}", o["email"], f"_public.{lang}")
        lang = self.lookups.lang_of(match)
        mails["_gm"] = self._render_report(match, turn, rules, res, missing, nxt, GM, lang, moved, drawn)
        send("@gm", match["gm_email"], "_gm")
        return mails

    # -- archive --------------------------------------------------------------
    def archive_turn(self, match_id: str, number: int) -> None:
        turn = self.store.turn(match_id, number)
        result = turn["result"]
        reports = {}
        for who, m in result["mails"].items():
            if "text" not in m:  # archived before: the reports' bodies are the archive's alone
                continue
            name = report_name(who, m["lang"])
            reports[f"{name}.txt"] = m["text"]
            reports[f"{name}.html"] = m["html"]
        self.archive.write_turn(match_id, number, result["orders"],
                                {"match": match_id, "turn": number, "rev": turn["rev"], "seed": turn["seed"],
                                 "hash": result["hash"], "log": result["log"], "outcome": result["outcome"],
                                 "missing": result["missing"], "closed": turn["closed"]}, reports)
        crash.point("archive.written")
        # what the store keeps: no report bodies (the archive's), and the state only
        # where no next turn holds it (the last one of a match)
        kept = dict(result, mails={who: {k: m[k] for k in ("lang", "subject", "picture") if m.get(k) is not None}
                                   for who, m in result["mails"].items()})
        if self.store.turn(match_id, number + 1) is not None:
            kept.pop("state", None)
        with self.store.transaction():
            self.store.set_archived(match_id, number, kept)

    def repair_archive(self) -> None:
        """Write what a crash (or a full disk) kept from the archive; retried every tick."""
        for row in self.store.unarchived():
            item = f"{row['match']}:{row['number']}"
            with self.faults.guarded("archive", item, row["match"], row["number"]) as guard:
                self.archive_turn(row["match"], row["number"])
            if not guard.failed:
                self.store.clear_fault("archive", item)

    # -- GM: preview and rollback ------------------------------------------------
    def preview(self, match_id: str, tag: str | None = None) -> str:
        """Resolve the open turn as it stands, persist nothing, mail the GM's report to the GM."""
        with self.store.transaction():
            match = self.store.match(match_id)
            turn = self.store.current_turn(match_id)
            if turn["status"] != "open":
                raise Refusal("gm.no_open_turn", what="preview", what_de="Vorausschauen")
            rules = self.lookups.rules(match)
            state = rules.load(turn["state"])
            orders, _, missing = self._orders_for(rules, state, match_id, turn)
            res = rules.resolve(state, orders, Rng(turn["seed"]))
            m = self._render_report(match, turn, rules, res, missing, None, GM, self.lookups.lang_of(match))
            self.queue.queue(f"preview:{match_id}:{turn['number']}.{turn['rev']}:{tag or self.now().isoformat()}",
                             match_id, match["gm_email"], "[preview] " + m["subject"], m["text"], m["html"],
                             picture=m.get("picture"))
        return f"preview of turn {turn['number']} sent to the GM"

    def rollback(self, match_id: str) -> str:
        """Undo the last resolved turn: it opens again (paused, orders kept), the next one is dropped."""
        with self.store.transaction():
            resolved = [t for t in self.store.turns(match_id) if t["status"] == "resolved"]
            if not resolved:
                raise Refusal("gm.no_resolved_turn")
            last = resolved[-1]
            current = self.store.current_turn(match_id)
            # the deadline the GM gave the dropped turn (an extend since) stays; without one a fresh one on resume
            deadline = None
            if current["number"] == last["number"] + 1:
                deadline = datetime.fromisoformat(current["deadline"]) if current["deadline"] else None
                self.store.delete_turn(match_id, current["number"])
            self.store.reopen_turn(match_id, last["number"], deadline=deadline)
            self.store.set_match_status(match_id, "paused", paused_at=self.now())
            self.notices.notify_all(match_id, "rolled_back")
        self.archive.set_aside(match_id, last["number"], last["rev"])
        return f"turn {last['number']} is open again; the match is paused until you resume it"

