"""Every reply and report a player can get says what happens next — the deadline, whether
the turn closes early, which orders count if none come — in English (ann) and German (bob)."""
from __future__ import annotations

import email
import mailbox
from datetime import UTC, datetime, timezone
from email import policy

import pytest
import toygame  # tests/ is on sys.path (tests/conftest.py)
from refkit import in_order

from referee.app.referee import Referee
from referee.authority import keys
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.inbound import parse_inbound
from referee.mail.sink import MaildirSink
from referee.render.renderer import Renderer
from referee.store import open_store

REFEREE = "referee@example.org"
KEYS = {"ann": "7KQ2-MX4P-9WTR", "bob": "4HJD-8RVE-2NCZ"}
SAYS = {   # what each language says; "{deadline}" is the turn's local deadline
    "en": {"early": "closes at the deadline, or earlier once all orders are in",
           "late": "closes at the deadline, even if all orders are in earlier",
           "still": "still closes only at the deadline, {deadline}",
           "refused": "until the deadline, {deadline}",
           "defaults": "default orders", "none_came": "No orders of yours came in for turn 1"},
    "de": {"early": "schließt zum Abgabeschluss oder früher, sobald alle Befehle da sind",
           "late": "schließt zum Abgabeschluss, auch wenn alle Befehle früher da sind",
           "still": "trotzdem erst zum Abgabeschluss, {deadline}",
           "refused": "bis zum Abgabeschluss schicken: {deadline}",
           "defaults": "Standardbefehle", "none_came": "Von dir kamen bis zum Abgabeschluss keine Befehle für Zug 1"},
}
LANG = {"ann": "en", "bob": "de"}


class Table:
    def __init__(self, tmp_path, early_close: bool) -> None:
        registry.register(toygame.RULES)
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
        self.ref = Referee(open_store(tmp_path / "referee.sqlite"), tmp_path / "turns",
                           Renderer(extra_dirs=[toygame.TEMPLATES]), lambda: self.now, Settings(address=REFEREE))
        self.ref.create_match({
            "id": "toy1", "game": "toybid", "title": "Toy One", "gm": "gm@example.org", "language": "en",
            "timezone": "Europe/Berlin", "options": {"rounds": 2}, "schedule": {"period": "48h"},
            "early_close": early_close,
            "players": [{"id": "ann", "name": "Ann", "email": "ann@example.org"},
                        {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"}]}, seed="next")
        with self.ref.store.transaction():
            for pid, key in KEYS.items():
                self.ref.store.replace_player("toy1", pid, f"{pid}@example.org", keys.hash_key(key), None, self.now)
        self.sink, self.box, self.seen, self.n = MaildirSink(tmp_path / "out"), tmp_path / "out", set(), 0
        self.mails()

    def mails(self) -> dict[str, str]:
        """Texts sent since the last call, by recipient's local part."""
        self.ref.send_pending(self.sink)
        box = mailbox.Maildir(str(self.box), create=False)
        new = [k for k in in_order(box) if k not in self.seen]
        self.seen |= set(new)
        msgs = [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in new]
        return {m["To"].split("@")[0]: m["Subject"] + "\n" + m.get_body(("plain",)).get_content() for m in msgs}

    def send(self, player: str, bid: int) -> str:
        self.n += 1
        raw = (f"From: {player}@example.org\r\nTo: {REFEREE}\r\nSubject: orders\r\nMessage-ID: <n{self.n}@example.org>\r\n"
               f"Content-Type: text/plain; charset=utf-8\r\n\r\nmatch: toy1\r\nplayer: {player}\r\n"
               f"key: {KEYS[player]}\r\nturn: 1\r\norders:\r\n  bid: {bid}\r\n").encode()
        self.ref.handle(parse_inbound(raw))
        return self.mails()[player]

    def deadline(self, player: str) -> str:
        match = self.ref.store.match("toy1")
        return self.ref.lookups.deadline_info(match, self.ref.store.current_turn("toy1"), LANG[player])["local"]


@pytest.fixture
def table(tmp_path, request):
    t = Table(tmp_path, request.param)
    yield t
    t.ref.store.close()
    registry.unregister(toygame.RULES.name)


def said(player: str, what: str, deadline: str = "") -> str:
    return SAYS[LANG[player]][what].format(deadline=deadline)


@pytest.mark.parametrize("table", [True], indirect=True)
@pytest.mark.parametrize("player", ["ann", "bob"])
def test_a_confirmation_while_others_owe_says_the_deadline_and_early_close(table, player):
    text = table.send(player, 2)
    assert table.deadline(player) in text
    assert said(player, "early") in text and said(player, "defaults") in text


@pytest.mark.parametrize("table", [False], indirect=True)
@pytest.mark.parametrize("player", ["ann", "bob"])
def test_a_confirmation_without_early_close_says_the_turn_waits_for_the_deadline(table, player):
    other = "bob" if player == "ann" else "ann"
    assert said(player, "late") in table.send(player, 2)
    table.send(other, 3)
    text = table.send(player, 1)        # now everyone's orders are in
    assert said(player, "still", table.deadline(player)) in text


@pytest.mark.parametrize("table", [True], indirect=True)
@pytest.mark.parametrize("player", ["ann", "bob"])
def test_a_refusal_says_until_when_and_what_counts_otherwise(table, player):
    text = table.send(player, 9)
    assert "[toy1]" in text.splitlines()[0]
    assert said(player, "refused", table.deadline(player)) in text and said(player, "defaults") in text


@pytest.mark.parametrize("table", [True, False], indirect=True)
@pytest.mark.parametrize("player", ["ann", "bob"])
def test_a_report_says_first_that_no_orders_came_and_which_default_was_used(table, player):
    other = "bob" if player == "ann" else "ann"
    table.send(other, 3)
    table.ref.close_turn("toy1")
    reports = table.mails()
    report = reports[player]
    body = report.split("\n", 1)[1].lstrip()
    assert body.startswith(said(player, "none_came"))
    assert "bid: 1" in body.split("\n\n", 2)[1]          # the toy game's default, shown right there
    rule = said(player, "early" if table.ref.store.match("toy1")["spec"].get("early_close", True) else "late")
    assert rule in report and said(player, "defaults") in report and table.deadline(player) in report
    assert said(other, "none_came") not in reports[other]
