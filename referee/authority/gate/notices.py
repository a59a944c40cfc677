"""What every seat hears of a match's course (paused, resumed, extended, rolled
back, ended), and the status a reply or a notice shows."""
from __future__ import annotations

from referee.authority.gate.holds import holds
from referee.authority.gate.orders import orders_text
from referee.authority.matches.dropouts import seat_lines
from referee.authority.matches.observers import welcome_observer
from referee.authority.matches.position import position_text


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
                **self._holds(match, turn, names),
                "player": player, "owes": bool(player and player["id"] in turn["awaiting"]),
                "mine": orders_text(mine["orders"]) if mine else None,
                "seats": seat_lines(self.store, match, names, self.now()) if player is None else []}   # issue 18

    def _holds(self, match: dict, turn: dict, names: dict) -> dict:
        """Who holds the early close: "waiting" asked to, "fixing" owe corrected orders."""
        asked, faulty = holds(self.store, self.lookups, match, turn)
        return {"waiting": sorted(names[p]["name"] for p in asked), "fixing": sorted(names[p]["name"] for p in faulty)}

    def notify_all(self, match_id: str, event: str) -> None:
        """Tell every player, the GM and every observer about a change of the match's
        course; when the GM ends it, each gets the final standings as they may see them."""
        match = self.store.match(match_id)
        turn = self.store.current_turn(match_id)
        stamp = f"{turn['number']}.{turn['rev']}:{self.now().isoformat()}"
        lang_of = self.lookups.lang_of
        readers = [(p["id"], p["email"], lang_of(match, p), p) for p in self.store.players(match_id)]
        readers.append(("@gm", match["gm_email"], lang_of(match), None))
        readers += [(None, o["email"], o["lang"] or lang_of(match), None) for o in self.store.observers(match_id)]
        rules = self.lookups.rules(match) if event == "ended" else None
        state = rules.load(turn["state"]) if rules else None
        for viewer, address, lang, player in readers:
            position = self._position(match, rules, state, turn, viewer, lang) if rules else ""
            subject, text = self.renderer.mail("notice", lang, **self.status_ctx(match, player), event=event,
                                               position=position)
            # a moved deadline moves a player's calendar entry; the end cancels it
            calendar = (self.lookups.calendar_part(match, turn, lang, self.now(), ended=event == "ended")
                        if player is not None and event in ("extended", "resumed", "ended") else None)
            self.queue.queue(f"notice:{match_id}:{event}:{stamp}:{viewer or 'observer:' + address}", match_id,
                             address, subject, text, calendar=calendar)

    def observer_welcome(self, match: dict, email: str, lang: str | None) -> None:
        """An observer added by the GM: what the match is, the game in brief, the position now."""
        turn = self.store.current_turn(match["id"])
        rules = self.lookups.rules(match)
        welcome_observer(self, match, turn, rules, rules.load(turn["state"]), email, lang)

    def replaced(self, match: dict, turn: dict, before: dict, to_bot: bool = False) -> None:
        """The player whose seat the GM gave to another address (``to_bot``: to a bot) is
        told, in their language."""
        rules = self.lookups.rules(match)
        subject, text = self.renderer.mail("replaced", self.lookups.lang_of(match, before),
                                           match=self.lookups.match_ctx(match, rules), seat=before["id"],
                                           name=before["name"], to_bot=to_bot)
        self.queue.queue(f"replaced:{match['id']}:{before['id']}:{turn['number']}.{turn['rev']}:{before['email']}",
                         match["id"], before["email"], subject, text)

    def _position(self, match, rules, state, turn, viewer, lang) -> str:
        return position_text(self.renderer, rules, self.lookups.match_ctx(match, rules), state, viewer, lang,
                             turn["number"] - (turn["status"] == "open"), self.lookups.names(match["id"]))
