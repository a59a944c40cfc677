"""Issue 36: the order page of a real mail, clicked in headless chromium, writes orders the
referee accepts as chosen — Founding Fathers (keep, action, committee flip) and Nations (plan,
famine), each stage from a match played through the real referee (Dovecot, SMTP, IMAP); and
"Open mail" without a key refuses, said aloud, and writes no mail."""
from __future__ import annotations

import re

import pytest
from browser import Browser
from orderpage import SHOTS, labels, latest_page, mail_of, open_page, page_of, play_until, send
from test_end_to_end_mail import KEY, Clock, Table, body
from test_end_to_end_nations import strong_edition

from referee.app.referee import Referee
from referee.app.service import Service
from referee.authority.base import Settings
from referee.game_api.contract import Rng
from referee.mail.imap_source import ImapSource
from referee.mail.sink import SmtpSink
from referee.store.sqlite import SqliteStore

FF_SEATS = ("alice", "bob", "carol")


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    b.install_error_log()
    yield b
    b.close()


class Match:
    """A match served through the test Dovecot and SMTP, its seats' keys from their welcome mails."""

    def __init__(self, s, tmp_path, game: str, seats, lang: str, options: dict | None = None) -> None:
        self.s, self.address = s, s.address("referee")
        self.ref = Referee(SqliteStore(tmp_path / "referee.sqlite"), tmp_path / "turns", clock=Clock(),
                           settings=Settings(address=self.address, rate_limit_per_hour=10_000))
        source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), security="plain")
        self.service = Service(self.ref, source, SmtpSink(s.host, s.smtp.port, security="plain"), address=self.address)
        self.table = Table(s, self.address)
        self.table.seen = {p: 0 for p in seats}
        spec = {"id": "op", "game": game, "lang": lang, "gm": s.address("gm"), "schedule": {"period": "48h"},
                "players": [{"id": p, "name": p.title(), "email": s.address(p)} for p in seats]}
        if options:
            spec["options"] = options
        self.ref.create_match(spec, seed=f"page-{game}")
        self.service.tick()
        self.welcomes = {p: self.table.new_mail(p, expect=2)[0][0] for p in seats}
        self.keys = {p: KEY.search(body(m.as_bytes())[1]).group(1) for p, m in self.welcomes.items()}
        self.rules = self.ref.rules(self.ref.store.match("op"))

    def turn(self):
        return self.ref.store.current_turn("op")

    def state(self):
        return self.rules.load(self.turn()["state"])

    def play_until(self, want, seed: int = 3) -> bool:
        found = play_until(self.ref, "op", self.address, self.keys, want, Rng(seed), sender=self.s.address)
        self.service.tick()   # the reports of those closes out through SMTP
        return found

    def mail_from_page(self, browser, player: str) -> dict:
        """Type the key, take the mailto's subject and body, send it by SMTP: the referee's reply."""
        browser.focus("#key")
        browser.type(self.keys[player])
        to, subject, text = mail_of(browser)
        assert to == self.address and subject.endswith(f" {self.turn()['number']}")
        assert self.keys[player] in text
        had = len(self.s.wait_messages(player, 0))
        send(self.s, player, to, subject, text)
        self.service.poll_once()
        self.reply = self.s.wait_messages(player, had + 1)[-1].decode("utf-8", "replace")
        return text


def stored(m: Match, player: str) -> dict:
    return m.ref.store.submissions("op", m.turn()["number"])[player]["orders"]


def accepted(m: Match, player: str) -> None:
    assert re.search(r"Subject: .*(ccepted|ngenommen)", m.reply), m.reply[:800]


def shot(browser, name: str) -> None:
    browser.screenshot(SHOTS / f"{name}.png")


def test_founding_fathers_every_stage_by_the_page(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "founding_fathers", FF_SEATS, "en")
    # -- keep (the welcome): swap the second card kept for the third dealt
    state = m.state()
    player = "alice"
    dealt = state.d["dealt"][player]
    page = page_of(m.welcomes[player])
    assert page is not None and page[0] == "orders-op-t1.html"
    open_page(browser, tmp_path, page)
    names = labels(m.rules, state, player, "en", "keep.*")
    browser.select('[data-k="orders.keep.1"]', names[dealt[2]])
    shot(browser, "ff-keep")
    m.mail_from_page(browser, player)
    accepted(m, player)
    assert stored(m, player) == {"keep": [dealt[0], dealt[2]]}

    # -- action: snub one chosen delegate, the draw pool by a changed preference
    assert m.play_until(lambda st, aw: "action" in aw.values())
    active = next(p for p, stage in m.turn()["awaiting"].items() if stage == "action")
    state = m.state()
    msg, page = latest_page(mailservers, active)
    assert page is not None, "the active seat's report carries its order page"
    open_page(browser, tmp_path, page)
    browser.select('[data-k="orders.action"]', labels(m.rules, state, active, "en", "action")["snub"])
    browser.click('[data-k="orders.delegates+"]')
    card = state.d["hands"][active][0]
    browser.select('[data-k="orders.delegates.0"]', labels(m.rules, state, active, "en", "delegates.*")[card])
    browser.click('[data-k="orders.take.1^"]')     # position 2 first
    shot(browser, "ff-action")
    m.mail_from_page(browser, active)
    accepted(m, active)
    got = stored(m, active)
    assert got["action"] == "snub" and got["delegates"] == [card] and got["take"] == [2, 1, 3]

    # -- the Committee winner's flip
    if not m.play_until(lambda st, aw: "committee_flip" in aw.values(), seed=11):
        pytest.skip("no Committee flip came up in this match")
    flipper = next(p for p, stage in m.turn()["awaiting"].items() if stage == "committee_flip")
    state = m.state()
    _, page = latest_page(mailservers, flipper)
    open_page(browser, tmp_path, page)
    browser.select('[data-k="orders.flip"]', labels(m.rules, state, flipper, "en", "flip")[True])
    shot(browser, "ff-committee-flip")
    m.mail_from_page(browser, flipper)
    accepted(m, flipper)
    assert stored(m, flipper) == {"flip": True}


def test_nations_plan_and_famine_by_the_page_in_german(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "nations_dice", ("alice", "bob"), "de", {"edition": strong_edition()})
    # -- plan (the welcome of the first seat): a buy step put before the form's "ask"
    player = next(iter(m.turn()["awaiting"]))
    state = m.state()
    open_page(browser, tmp_path, page_of(m.welcomes[player]))
    assert browser.eval("document.documentElement.lang") == "de"
    assert "Befehle für Zug 1" in browser.eval("document.querySelector('h1').textContent")
    browser.click('[data-k="orders.steps+"]')
    browser.select('[data-k="orders.steps.1#"]', m.rules.messages["kind.steps.*.Step"]["de"])
    browser.click('[data-k="orders.steps.1.buy?"]')
    tile = next(t for column in state.d["board"] for t in column if t)
    browser.click('[data-k="orders.steps.1.buy.tile?"]')
    browser.select('[data-k="orders.steps.1.buy.tile"]', labels(m.rules, state, player, "de", "steps.*.buy.tile")[tile])
    browser.click('[data-k="orders.steps.1^"]')
    shot(browser, "nations-plan")
    text = m.mail_from_page(browser, player)
    assert f"- buy:\n        tile: {tile}" in text, text
    accepted(m, player)
    steps = stored(m, player)["steps"]
    assert steps[0]["buy"]["tile"] == tile and steps[1] == "ask"

    # -- famine: trade one pair of dice into food
    if not m.play_until(lambda st, aw: "famine" in aw.values() or "books" in aw.values(), seed=5):
        pytest.skip("no famine decision came up in this match")
    seat, stage = next((p, s) for p, s in m.turn()["awaiting"].items() if s in ("famine", "books"))
    state = m.state()
    _, page = latest_page(mailservers, seat)
    open_page(browser, tmp_path, page)
    if stage == "famine":
        dice = labels(m.rules, state, seat, "de", "trade.*.*")
        browser.select('[data-k="orders.trade#"]', m.rules.messages.get("kind.trade.arr", {}).get("de", "eine Liste"))
        browser.click('[data-k="orders.trade+"]')
        browser.click('[data-k="orders.trade.0+"]')
        browser.click('[data-k="orders.trade.0+"]')
        first, second = list(dice)[:2]
        browser.select('[data-k="orders.trade.0.0"]', dice[first])
        browser.select('[data-k="orders.trade.0.1"]', dice[second])
        expected = {"trade": [[first, second]]}
    else:
        books = labels(m.rules, state, seat, "de", "hold.*")
        browser.click('[data-k="orders.hold+"]')
        first = next(iter(books))
        browser.select('[data-k="orders.hold.0"]', books[first])
        expected = {"hold": [first]}
    shot(browser, f"nations-{stage}")
    m.mail_from_page(browser, seat)
    accepted(m, seat)
    got = stored(m, seat)
    assert {k: got[k] for k in expected} == expected


def test_open_mail_without_a_key_refuses_aloud(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "founding_fathers", FF_SEATS, "de")
    open_page(browser, tmp_path, page_of(m.welcomes["bob"]))
    assert browser.attribute("#mail", "href") == "#key", "no mailto while the key is empty"
    before = browser.eval("location.href")
    browser.click("#mail")
    alert = browser.eval("document.getElementById('alert').textContent")
    assert "Schlüssel" in alert and browser.attribute("#alert", "role") == "alert"
    assert browser.eval("document.activeElement.id") == "key"
    assert browser.eval("location.href") == before
    assert browser.eval("document.getElementById('doc').value").count("key: \n") == 1
    shot(browser, "ff-no-key-refused")
