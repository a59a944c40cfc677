"""Taking a player's (or the GM's) orders for the open turn: in time by when
the mail arrived, awaited, valid; stored, and the acceptance replied."""
from __future__ import annotations

import keyword
from datetime import datetime

from referee.authority.gate.holds import has_fault, holds
from referee.authority.replies import Handled, _at
from referee.authority.wording import Own, describe
from referee.game_api.contract import FAULT
from referee.intake.safe_yaml import dump as dump_orders


class Orders:
    def __init__(self, store, renderer, lookups, replies, reader, now) -> None:
        self.store, self.renderer, self.lookups, self.replies = store, renderer, lookups, replies
        self.reader, self.now = reader, now

    def take(self, mail, match, player, turn, env, doc, lang) -> Handled:
        if match["status"] == "ended":
            return self.replies.refuse(mail, match, lang, [Own("match.ended", {"match": match["id"]})], player=player)
        if env.turn is not None and env.turn != turn["number"]:
            return self.replies.refuse(mail, match, lang, [Own("turn.wrong", {"sent": env.turn, "current": turn["number"]},
                                                               *_at(doc, "turn"))], player=player)
        arrived = self._arrived(mail, turn)
        if turn["deadline"] and not self.lookups.timing(match).accepts_orders(datetime.fromisoformat(turn["deadline"]),
                                                                              arrived):
            info = self.lookups.deadline_info(match, turn, lang)
            late = Own("turn.late", {"current": turn["number"], "deadline": info["local"]})
            return self.replies.refuse(mail, match, lang, [late], player=player)
        stage = turn["awaiting"].get(player["id"])
        if stage is None:
            return self.replies.refuse(mail, match, lang, [Own("turn.not_awaited", {"current": turn["number"]})], player=player)
        if env.orders is None:
            return self.replies.refuse(mail, match, lang, [Own("orders.missing")], player=player)
        rules = self.lookups.rules(match)
        state = self.lookups.turn_state(rules, match["id"], turn)
        model, problems = self.reader.check_orders(rules, state, stage, player["id"], env.orders, doc)
        # the intake's own warnings (tabs read as spaces, attachments left aside) are news to the player too
        problems = list(problems) + list(getattr(doc, "notes", ()))
        if model is None or any(p.severity == "error" for p in problems):
            return self.replies.refuse(mail, match, lang, problems, player=player, source=doc.source)
        orders = model.model_dump(mode="json")
        faults = [p for p in problems if p.code.startswith(FAULT)]
        self._hold(match, turn, player["id"], stage, rules, state, bool(faults))
        self.store.put_submission(match["id"], turn["number"], player["id"], orders, mail.message_id,
                                  mail.content_hash, self.now())
        names = self.lookups.names(match["id"])
        awaited = [names.get(p, {"name": p})["name"] for p in self.lookups.still_awaited(match["id"], turn)]
        asked, faulty = holds(self.store, self.lookups, match, turn, state) if not awaited else ([], [])
        subject, text = self.renderer.mail(
            "accepted", lang, match=self.lookups.match_ctx(match, rules), player=player, turn=turn["number"],
            orders=self._understood(rules, state, player["id"], model, orders),
            faults=[describe(p, lang, doc.source) for p in faults],
            warnings=[describe(p, lang, doc.source) for p in problems if p not in faults], deadline=self.lookups.deadline_info(match, turn, lang),
            awaited=awaited, paused=match["status"] == "paused", subject=mail.subject,
            early_close=bool(match["spec"].get("early_close", True)),
            held_asked=[names.get(p, {"name": p})["name"] for p in asked],
            held_fault=[names.get(p, {"name": p})["name"] for p in faulty if p != player["id"]],
            grace=self._in_grace(match, turn, arrived, lang))
        self.replies.reply(mail, match, player, subject, text)
        return Handled("processed", "accepted", match["id"], player["id"])

    def _hold(self, match, turn, pid: str, stage, rules, state, faulty: bool) -> None:
        """Orders with a fault (contract.FAULT) keep the turn from closing early: the
        player's wait flag, set here and cleared by orders without one that replace
        orders with one (a wait the player asked for otherwise stays)."""
        if faulty:
            self.store.set_wait(match["id"], turn["number"], pid, True)
            return
        before = self.store.submissions(match["id"], turn["number"]).get(pid)
        if before is None or pid not in self.store.waits(match["id"], turn["number"]):
            return
        if has_fault(rules, state, stage, pid, before["orders"]):   # None (no longer read): the flag stays
            self.store.set_wait(match["id"], turn["number"], pid, False)

    @staticmethod
    def _understood(rules, state, player: str, model, orders: dict) -> str:
        """The echo: the game's ``understood(state, player, orders)`` hook where it has
        one (the orders as they will be used, defaults in place of refused parts),
        else what the player set."""
        hook = getattr(rules, "understood", None)
        if callable(hook):
            try:
                used = hook(state, player, model)
            except Exception:   # an optional hook never costs the player the acceptance
                used = None
            if isinstance(used, dict):
                return orders_text(used)
        fields = type(model).model_fields   # the echo spells keys as the player writes them (``if``, not ``if_``)
        return orders_text(model.model_dump(mode="json", by_alias=True),
                           {fields[k].alias or k if k in fields else k for k in model.model_fields_set})

    def _in_grace(self, match, turn, arrived: datetime, lang: str) -> dict | None:
        """When orders came after the deadline but within its grace: until when the
        grace runs (local and UTC), for the reply to say they were late and taken."""
        if not turn["deadline"] or match["status"] != "running":
            return None
        deadline = datetime.fromisoformat(turn["deadline"])
        if arrived < deadline:
            return None
        timing = self.lookups.timing(match)
        end = deadline + timing.schedule.grace
        return {"local": timing.local(end, lang), "utc": timing.utc(end, lang)}

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


def orders_text(orders: dict, given=None) -> str:
    """Orders as a reply echoes them: what the player set, without the empty
    fields a game's model fills in (``null``, ``{}``, ``[]``) that they never wrote.
    ``given``: the fields the player sent; None when only the stored orders are known."""
    shown = {_spelled(k): _without_nulls(v) for k, v in orders.items()
             if v is not None and not (v in ({}, []) and (given is None or _spelled(k) not in given))}
    return dump_orders(shown).rstrip()


def _spelled(key):
    """A key as the player writes it: a game's model names ``if``/``pass`` ``if_``/``pass_``
    (Python keywords), and stored orders keep that name; the player never sees it."""
    if isinstance(key, str) and key.endswith("_") and keyword.iskeyword(key[:-1]):
        return key[:-1]
    return key


def _without_nulls(value, depth: int = 0):
    """A value with the null fields of its mappings left out, at every level a
    game's orders have (``viertel: null`` is nothing the player wrote)."""
    if depth > 32:   # orders are shallow; the intake's loader caps depth at 32 already
        return value
    if isinstance(value, dict):
        return {_spelled(k): _without_nulls(v, depth + 1) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v, depth + 1) for v in value]
    return value
