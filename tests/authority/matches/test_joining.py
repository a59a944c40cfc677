"""Issue 18, joining by mail: a match created open (``seats:``) takes players with
``command: join``; the key goes to the sender, the GM is told; the match starts
when full or on the GM's start; a wait list fills seats given up; the GM closes
joining; a flood of joins and hostile input change nothing they should not."""
from __future__ import annotations

import re

from seats_fixtures import seats_table, toy  # noqa: F401  (fixtures)
from seats_table import REFEREE, Table

from referee.store import seats as seat_rows

KEY = re.compile(r"(?:Your key|Dein Schlüssel|Your GM key|Dein Spielleitungs-Schlüssel): (\S+)")
CODE = re.compile(r"^code: (\S+)$", re.M)


class Lobby(Table):
    """A toy match open for joining: ann named, three seats in all."""

    def __init__(self, root, **extra) -> None:
        extra.setdefault("seats", 3)
        extra.setdefault("players", [{"id": "ann", "name": "Ann", "email": "ann@example.org"}])
        super().__init__(root, **extra)

    held: dict[str, list[str]] = {}

    def join(self, sender: str, name: str = "Joiner", seat: str = "any", **args):
        """A join, and the code mailed back from the joiner's address (issue 32): the
        answer to the second mail; the first's, if it sent no code."""
        extra = "".join(f"{k}: {v}\n" for k, v in args.items())
        asked = self.send(sender, f"match: toy1\nplayer: {seat}\ncommand: join\nname: {name}\n{extra}")
        if asked.reason != "join.code":
            return asked
        sent = self.mails()
        code = CODE.search(sent[sender].pop()).group(1)
        for to, texts in sent.items():
            self.held.setdefault(to, []).extend(texts)
        return self.send(sender, f"match: toy1\nplayer: {seat}\ncommand: join\ncode: {code}\n")

    def mails(self) -> dict[str, list[str]]:
        out, self.held = self.held, {}
        for to, texts in super().mails().items():
            out.setdefault(to, []).extend(texts)
        return {to: texts for to, texts in out.items() if texts}


def lobby(tmp_path, **extra) -> Lobby:
    return Lobby(tmp_path, **extra)


def test_an_open_match_fills_by_mail_and_starts_when_full(tmp_path, toy):
    t = lobby(tmp_path)
    assert t.ref.store.match("toy1")["status"] == "open" and t.ref.store.current_turn("toy1") is None
    assert t.join("dan@example.org", "Dan").reason == "join"
    sent = t.mails()
    [joined] = sent["dan@example.org"]
    assert 'you have the seat "seat1"' in joined and KEY.search(joined)
    assert any("Dan joined" in m for m in sent["gm@example.org"])
    assert t.join("eve@example.org", "Eve", lang="de").reason == "join"
    sent = t.mails()
    assert any("Du hast einen Platz" in m for m in sent["eve@example.org"])
    assert t.ref.store.match("toy1")["status"] == "running"
    assert t.ref.store.current_turn("toy1")["number"] == 1
    welcomes = {to: m for to, ms in sent.items() for m in ms if "Welcome" in m or "Willkommen" in m}
    assert set(welcomes) == {"ann@example.org", "dan@example.org", "eve@example.org"}
    assert any("has started" in m for m in sent["gm@example.org"])
    # the welcome's key is the one played with
    dan_key = KEY.search(welcomes["dan@example.org"]).group(1)
    assert t.bid("seat1", 1, key=dan_key, sender="dan@example.org").reason == "accepted"


def test_a_named_seat_the_gm_start_and_too_few(tmp_path, toy):
    t = lobby(tmp_path, seats=["ann", "north", "south"])
    assert t.join("dan@example.org", "Dan", seat="south").reason == "join"
    assert t.ref.store.player("toy1", "south")["email"] == "dan@example.org"
    assert t.join("eve@example.org", "Eve", seat="south").reason == "join.no_seat"
    assert any("Free: north" in m for m in t.mails()["eve@example.org"])
    assert t.ref.gm_command("toy1", "start", {}) == "started with 2 players"
    assert t.ref.store.match("toy1")["status"] == "running"


def test_the_gm_cannot_start_with_fewer_than_the_game_needs(tmp_path, toy):
    t = lobby(tmp_path, players=[], seats=3)
    t.join("dan@example.org", "Dan")
    assert t.command("gm", "start").reason == "join.too_few"
    assert any("at least 2 players" in m for m in t.mails()["gm@example.org"])
    assert t.ref.store.match("toy1")["status"] == "open"


def test_a_wait_list_fills_a_seat_given_up(tmp_path, toy):
    t = lobby(tmp_path, seats=3, wait_list=1, players=[])
    keys = {}
    for who in ("dan", "eve"):
        t.join(f"{who}@example.org", who.title())
        keys[who] = KEY.search(t.mails()[f"{who}@example.org"][0]).group(1)
    t.ref.gm_command("toy1", "close-joining", {})
    assert t.join("fay@example.org", "Fay").reason == "join.closed"
    t.ref.gm_command("toy1", "open-joining", {})
    # a third seat is free: fay takes it and the match starts; gil then waits, hal finds the list full
    assert t.join("fay@example.org", "Fay").reason == "join"
    assert t.ref.store.match("toy1")["status"] == "running"
    assert t.join("gil@example.org", "Gil").reason == "join.waiting"
    assert t.join("hal@example.org", "Hal").reason == "join.full"
    assert [w["name"] for w in seat_rows.waiting(t.ref.store, "toy1")] == ["Gil"]


def test_leaving_before_the_start_frees_the_seat(tmp_path, toy):
    t = lobby(tmp_path, seats=3, players=[])
    t.join("dan@example.org", "Dan")
    key = KEY.search(t.mails()["dan@example.org"][0]).group(1)
    assert t.send("dan@example.org", f"match: toy1\nplayer: seat1\nkey: {key}\ncommand: status\n").reason == "status"
    assert t.send("dan@example.org", f"match: toy1\nplayer: seat1\nkey: {key}\nturn: 1\norders: {{bid: 1}}\n"
                  ).reason == "join.not_started"
    assert t.send("dan@example.org", f"match: toy1\nplayer: seat1\nkey: {key}\ncommand: leave\n").reason == "leave"
    assert t.ref.store.player("toy1", "seat1") is None
    assert any("seat \"seat1\" before the start" in m for m in t.mails()["gm@example.org"])
    assert t.join("eve@example.org", "Eve").reason == "join" and t.ref.store.player("toy1", "seat1")["name"] == "Eve"


def test_a_full_match_with_start_manual_waits_for_the_gm(tmp_path, toy):
    t = lobby(tmp_path, seats=2, players=[], start="manual")
    t.join("dan@example.org", "Dan")
    t.join("eve@example.org", "Eve")
    assert t.ref.store.match("toy1")["status"] == "waiting"
    t.ref.start("toy1")
    assert t.ref.store.match("toy1")["status"] == "running"


def test_a_seat_given_up_in_a_running_match_goes_to_the_first_waiting(tmp_path, toy):
    t = lobby(tmp_path, seats=2, players=[], dropouts={"warn_after": 1, "abandon_after": 2})
    t.join("dan@example.org", "Dan")
    t.join("eve@example.org", "Eve")
    t.join("fay@example.org", "Fay")   # waits
    [dan] = [m for m in t.mails()["dan@example.org"] if "Welcome" in m]
    key = KEY.search(dan).group(1)
    for _ in range(2):   # eve (seat2) sends nothing
        assert t.bid("seat1", 1, key=key, sender="dan@example.org").reason == "accepted"
        t.pass_deadline()
    sent = t.mails()
    assert t.ref.store.player("toy1", "seat2")["email"] == "fay@example.org"
    assert any("THE POSITION AS YOU TAKE OVER" in m for m in sent["fay@example.org"])
    assert any("first on the wait list" in m for m in sent["gm@example.org"])
    assert seat_rows.waiting(t.ref.store, "toy1") == []


def test_a_join_flood_answers_within_the_strangers_budget_and_seats_bound_the_joins(tmp_path, toy):
    t = lobby(tmp_path, seats=3, wait_list=2, players=[])
    reasons = [t.join(f"p{i}@flood.example", f"P{i}").reason for i in range(60)]
    assert reasons[:3] == ["join"] * 3 and reasons[3:5] == ["join.waiting"] * 2
    assert set(reasons[5:]) == {"join.full"}
    assert len(t.ref.store.players("toy1")) == 3 and len(seat_rows.waiting(t.ref.store, "toy1")) == 2
    answered = {to for to in t.mails() if to.endswith("@flood.example")}
    assert len(answered) <= 5 + 20, "refusals to strangers come out of the hourly budget"


def test_hostile_joins_are_refused_and_change_nothing(tmp_path, toy):
    t = lobby(tmp_path)
    assert t.join(REFEREE, "Me").reason == "own"   # the loop guard: never a seat, never an answer
    assert t.join("gm@example.org", "GM").reason == "join.already"
    assert t.join("ann@example.org", "Ann again").reason == "join.already"
    assert t.send("dan@example.org", "match: toy1\nplayer: any\ncommand: join\n").reason == "join.name"
    assert t.join("dan@example.org", '"Dan\\nBcc: x@evil.example"').reason == "gm.bad_name"
    assert t.join("dan@example.org", "x" * 200).reason == "gm.bad_name"
    assert t.join("dan@example.org", "Dan", lang="xx").reason == "gm.bad_lang"
    assert t.join("dan@example.org", "Dan", seat="nowhere").reason == "join.no_seat"
    assert [p["id"] for p in t.ref.store.players("toy1")] == ["ann"]
    # orders and commands wait for the start
    assert t.send("ann@example.org", "match: toy1\nplayer: ann\nkey: WRNG-KEYS-2222\ncommand: status\n").reason == "key.wrong"


def test_a_running_match_without_seats_takes_no_joins(tmp_path, toy):
    import toygame

    from referee.game_api import registry
    registry.register(toygame.RULES)
    t = Table(tmp_path)
    assert t.send("dan@example.org", "match: toy1\nplayer: any\ncommand: join\nname: Dan\n").reason == "join.not_open"
    assert len(t.ref.store.players("toy1")) == 3


def test_the_gm_status_of_an_open_match(tmp_path, toy):
    t = lobby(tmp_path)
    t.join("dan@example.org", "Dan")
    assert "open, 2 of 3 seats taken (ann Ann, seat1 Dan, seat2 free)" in t.ref.gm_command("toy1", "status", {})
    t.command("gm", "status")
    [text] = [m for m in t.mails()["gm@example.org"] if m.startswith("Re:")]
    assert "  seat2: free\n" in text and "  seat1: Dan\n" in text
