"""What every seat hears of a match's course (paused, resumed, extended, rolled
back, ended), and the status a reply or a notice shows."""
from __future__ import annotations

from referee.authority.orders import orders_text


class Notices:
    def __init__(self, store, renderer, lookups, queue, now) -> None:
        self.store, self.renderer, self.lookups, self.queue, self.now = store, renderer, lookups, queue, now

    def status_ctx(self, match: dict, player: dict | None) -> dict:
        match = self.store.match(match["id"])
        turn = self.store.current_turn(match["id"])
        names = self.lookups.names(match["id"])
        subs = self.store.submissions(match["id"], turn["number"])
        mine = subs.get(player["id"]) if player else None
        lang = self.lookups.lang_of(match, player)
        return {"match": self.lookups.match_ctx(match, self.lookups.rules(match)), "status": match["status"],
                "turn": turn["number"], "turn_open": turn["status"] == "open",
                "deadline": self.lookups.deadline_info(match, turn, lang),
                "awaited": [names[p]["name"] for p in turn["awaiting"] if p not in subs],
                "waiting": sorted(names[p]["name"] for p in self.store.waits(match["id"], turn["number"])),
                "player": player, "owes": bool(player and player["id"] in turn["awaiting"]),
                "mine": orders_text(mine["orders"]) if mine else None}

    def notify_all(self, match_id: str, event: str) -> None:
        """Tell every player (and the GM) about a change of the match's course."""
        match = self.store.match(match_id)
        turn = self.store.current_turn(match_id)
        stamp = f"{turn['number']}.{turn['rev']}:{self.now().isoformat()}"
        for p in self.store.players(match_id):
            lang = self.lookups.lang_of(match, p)
            subject, text = self.renderer.mail("notice", lang, **self.status_ctx(match, p), event=event)
            # a moved deadline moves the calendar entry; the end cancels it
            calendar = (self.lookups.calendar_part(match, turn, lang, self.now(), ended=event == "ended")
                        if event in ("extended", "resumed", "ended") else None)
            self.queue.queue(f"notice:{match_id}:{event}:{stamp}:{p['id']}", match_id, p["email"], subject, text,
                             calendar=calendar)
