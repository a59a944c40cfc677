"""Players who stop answering (issue 18): every close counts each awaited seat's
turn as missed (defaulted) or not; after the match file's ``dropouts.warn_after``
missed turns in a row the player is warned, after ``abandon_after`` the seat is
marked abandoned, the GM is asked to ``replace`` it and the other players are
told.  Until then, and until the GM replaces the seat, defaults are used; with
``to_bot`` (issue 35) the seat goes to a bot instead until the GM replaces it.
Turns a player declared an absence for (policy ``defaults``) are not counted.
Orders coming in again clear a warning or an abandoned mark.
"""
from __future__ import annotations

from datetime import datetime

from referee.authority.matches import bot_seats
from referee.store import bots as bot_rows
from referee.store import seats as seat_rows


def excused(store, match: dict, turn: dict, now) -> set[str]:
    """Seats whose defaults this turn do not count: away at its deadline (or now)
    under the absence policy ``defaults``."""
    policy = (match["spec"].get("absence") or {}).get("policy")
    if policy != "defaults":
        return set()
    moment = datetime.fromisoformat(turn["deadline"]) if turn.get("deadline") else now
    return seat_rows.absent_at(store, match["id"], moment)


def seat_replaced(store, match_id: str, player_id: str) -> None:
    """The GM gave the seat to someone: a clean record for the newcomer."""
    seat_rows.forget_seat(store, match_id, player_id)


def seat_lines(store, match: dict, names: dict[str, dict], now: datetime) -> list[dict]:
    """For the GM's status: every seat's missed turns in a row, its mark, and
    until when it is away (the end of an absence running now, as a UTC time)."""
    counts = seat_rows.streaks(store, match["id"])
    marks = seat_rows.seat_status(store, match["id"])
    away: dict[str, str] = {}
    for row in seat_rows.absences(store, match["id"]):
        if datetime.fromisoformat(row["start"]) <= now < datetime.fromisoformat(row["until"]):
            away[row["player"]] = datetime.fromisoformat(row["until"]).strftime("%Y-%m-%d %H:%M UTC")
    held = bot_rows.bots(store, match["id"])   # issue 35: the GM sees which seats a bot plays
    return [{"id": pid, "name": names[pid]["name"], "missed": counts.get(pid, 0),
             "state": marks[pid]["mark"] if pid in marks else None, "away": away.get(pid),
             "bot": held[pid]["strength"] if pid in held else None} for pid in names]


class Dropouts:
    """Counting missed turns at each close and what follows from them; built by
    ``Closing`` (a worker that only closes turns counts them too)."""

    def __init__(self, store, renderer, lookups, queue, now) -> None:
        self.store, self.renderer, self.lookups, self.queue, self.now = store, renderer, lookups, queue, now
        self.on_abandoned = None   # (match, seat): the wait list's turn (joining.py), when a Commands is built

    def after_close(self, match: dict, turn: dict, missing: list[str]) -> None:
        """Inside the close's transaction: record the turn, warn, mark abandoned, tell."""
        away = excused(self.store, match, turn, self.now())
        away |= set(bot_rows.bots(self.store, match["id"]))   # issue 35: a bot's seat is never a dropout
        counted = {pid: pid in missing for pid in turn["awaiting"] if not pid.startswith("@") and pid not in away}
        seat_rows.record_turn(self.store, match["id"], turn["number"], counted)
        rule = match["spec"].get("dropouts")
        if not rule:
            return
        warn_after, abandon_after = int(rule["warn_after"]), int(rule["abandon_after"])
        marks = seat_rows.seat_status(self.store, match["id"])
        for pid, was_missed in sorted(counted.items()):
            mark = marks[pid]["mark"] if pid in marks else None
            if not was_missed:
                if mark is not None:   # back at the table
                    seat_rows.set_seat_status(self.store, match["id"], pid, None)
                if mark == "abandoned":   # the GM asked to replace the seat hears it needs no one new
                    self._back(match, turn, pid)
                continue
            if mark == "abandoned":
                continue
            count = seat_rows.streak(self.store, match["id"], pid, abandon_after)
            if count >= abandon_after and rule.get("to_bot"):   # issue 35: a bot plays it until the GM replaces it
                self._to_bot(match, pid, count, rule["to_bot"])
            elif count >= abandon_after:
                seat_rows.set_seat_status(self.store, match["id"], pid, "abandoned", turn["number"], self.now())
                self._abandoned(match, turn, pid, count)
            elif count >= warn_after and mark is None:
                seat_rows.set_seat_status(self.store, match["id"], pid, "warned", turn["number"], self.now())
                self._warn(match, turn, pid, count, abandon_after - count, bool(rule.get("to_bot")))

    def _to_bot(self, match: dict, pid: str, count: int, strength: str) -> None:
        """The silent player's seat goes to a bot; they, the others and the GM are told."""
        before = self.store.player(match["id"], pid)
        bot_seats.to_bot(self.store, match["id"], pid, strength, "dropout", self.now())
        seat_replaced(self.store, match["id"], pid)
        bot_seats.tell(self, match, self.store.player(match["id"], pid), "dropout", missed=count, strength=strength,
                       gm=True, left=before)
        if self.on_abandoned is not None:   # one waiting to join takes it from the bot at once
            self.on_abandoned(match, pid)

    def _ctx(self, match: dict) -> dict:
        return self.lookups.match_ctx(match, self.lookups.rules(match))

    def _warn(self, match: dict, turn: dict, pid: str, count: int, left: int, to_bot: bool) -> None:
        """``to_bot``: the warning promises what the rule does, a bot in the seat or the GM asked."""
        player = self.store.player(match["id"], pid)
        lang = self.lookups.lang_of(match, player)
        subject, text = self.renderer.mail("dropout_warning", lang, match=self._ctx(match), player=player,
                                           missed=count, left=left, turn=turn["number"], to_bot=to_bot)
        self.queue.queue(f"dropout:warn:{match['id']}:{turn['number']}.{turn['rev']}:{pid}", match["id"],
                         player["email"], subject, text)

    def _back(self, match: dict, turn: dict, pid: str) -> None:
        seat = self.store.player(match["id"], pid)
        subject, text = self.renderer.mail("seat_abandoned", self.lookups.lang_of(match), match=self._ctx(match),
                                           seat=seat, missed=0, role="back", address=self.lookups.settings.address)
        self.queue.queue(f"dropout:back:{match['id']}:{turn['number']}.{turn['rev']}:{pid}", match["id"],
                         match["gm_email"], subject, text)

    def _abandoned(self, match: dict, turn: dict, pid: str, count: int) -> None:
        """The GM is asked to replace the seat; every player (the absent one too) is told."""
        seat = self.store.player(match["id"], pid)
        tag = f"{match['id']}:{turn['number']}.{turn['rev']}:{pid}"
        readers = [(p["email"], self.lookups.lang_of(match, p), "self" if p["id"] == pid else "player", p["id"])
                   for p in self.store.players(match["id"])]
        readers.append((match["gm_email"], self.lookups.lang_of(match), "gm", "@gm"))
        for address, lang, role, who in readers:
            subject, text = self.renderer.mail("seat_abandoned", lang, match=self._ctx(match), seat=seat,
                                               missed=count, role=role, address=self.lookups.settings.address)
            self.queue.queue(f"dropout:abandoned:{tag}:{who}", match["id"], address, subject, text)
        if self.on_abandoned is not None:
            self.on_abandoned(match, pid)
