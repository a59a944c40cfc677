"""The order page's stages as a player clicks them, the same steps for every browser kit
(``browser.Browser`` chromium, ``firefox.Firefox``): a match served through the test
Dovecot and SMTP, its page opened from a file, chosen on, mailed back by SMTP, and the
referee's reply and stored orders checked. Used by tests/end_to_end/test_order_page_*.py
(which put tests/end_to_end on the path, where ``test_end_to_end_mail`` lives)."""
from __future__ import annotations

import re

from orderpage import SHOTS, labels, latest_page, mail_of, open_page, page_of, play_until, send
from test_end_to_end_mail import KEY, Clock, Table, body

from referee.app.referee import Referee
from referee.app.service import Service
from referee.authority.base import Settings
from referee.game_api.contract import Rng
from referee.mail.imap_source import ImapSource
from referee.mail.sink import SmtpSink
from referee.store.sqlite import SqliteStore

FF_SEATS = ("alice", "bob", "carol")
# Nations orders that only pass on: to drive a match to a stage without changing its board
PASS = {"plan": {"steps": ["pass"]}, "books": {"hold": []}, "famine": {"trade": "none"}}


class Match:
    """A match served through the test Dovecot and SMTP, its seats' keys from their welcome mails."""

    def __init__(self, s, tmp_path, game: str, seats, lang: str, options: dict | None = None) -> None:
        self.s, self.address, self.tmp, self.lang = s, s.address("referee"), tmp_path, lang
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

    def play_until(self, want, seed: int = 3, orders=None) -> bool:
        found = play_until(self.ref, "op", self.address, self.keys, want, Rng(seed), sender=self.s.address, orders=orders)
        self.service.tick()   # the reports of those closes out through SMTP
        return found

    def seat_at(self, stage: str) -> str:
        return next(p for p, s in self.turn()["awaiting"].items() if s == stage)

    def open_report(self, browser, player: str) -> None:
        """The order page of the newest report mail that carries one, opened from a file."""
        _, page = latest_page(self.s, player)
        assert page is not None, f"{player}'s report carries an order page"
        open_page(browser, self.tmp, page)

    def mail_from_page(self, browser, player: str) -> str:
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

    def accepted(self, player: str) -> dict:
        """The referee's reply says accepted: the orders it stored."""
        accepted(self, player)
        return stored(self, player)

    def accepted_as(self, player: str, expected: dict) -> None:
        """Accepted, and stored exactly the fields chosen."""
        got = self.accepted(player)
        assert {k: got.get(k) for k in expected} == expected, got


def stored(m: Match, player: str) -> dict:
    return m.ref.store.submissions("op", m.turn()["number"])[player]["orders"]


def accepted(m: Match, player: str) -> None:
    assert re.search(r"Subject: .*(ccepted|ngenommen)", m.reply), m.reply[:800]


def shot(browser, name: str) -> None:
    browser.screenshot(SHOTS / f"{browser.name}-{name}.png")


def ff_keep(m: Match, browser) -> None:
    """The welcome's keep: the second card kept swapped for the third dealt."""
    state, player = m.state(), "alice"
    dealt = state.d["dealt"][player]
    page = page_of(m.welcomes[player])
    assert page is not None and page[0] == "orders-op-t1.html"
    open_page(browser, m.tmp, page)
    browser.select('[data-k="orders.keep.1"]', labels(m.rules, state, player, m.lang, "keep.*")[dealt[2]])
    shot(browser, "ff-keep")
    m.mail_from_page(browser, player)
    m.accepted_as(player, {"keep": [dealt[0], dealt[2]]})


# the fields only an event (or a vote) takes: never shown for a snub
NOT_FOR_A_SNUB = ("state?", "side?", "card?", "targets+", "player?", "position?", "pick?", "faction?", "article?",
                  "reclaim?")


def ff_action(m: Match, browser) -> None:
    """A report's action: an event shows its card, and once a card is chosen the fields its
    event takes and no other; then a snub, which shows none of the fields it does not take:
    one delegate snubbed, the draw pool by a changed preference, accepted as chosen."""
    assert m.play_until(lambda st, aw: "action" in aw.values())
    active, state = m.seat_at("action"), m.state()
    m.open_report(browser, active)
    lang, choices = m.lang, m.rules.order_choices(state, active, m.lang)
    actions = labels(m.rules, state, active, lang, "action")
    browser.select('[data-k="orders.action"]', actions["event"])
    events = labels(m.rules, state, active, lang, "card")
    assert (browser.attribute('[data-k="orders.card?"]', "data-k") is not None) == bool(events)
    if events:
        card = next(iter(events))
        browser.click('[data-k="orders.card?"]')
        browser.select('[data-k="orders.card"]', events[card])
        for field in ("state", "side", "player", "position", "pick", "faction", "article"):
            takes = any(card in c.get("when", {}).get("card", ()) for c in choices[field])
            assert (browser.attribute(f'[data-k="orders.{field}?"]', "data-k") is not None) == takes, (card, field)
        shot(browser, "ff-action-event")
    browser.select('[data-k="orders.action"]', actions["snub"])
    for k in NOT_FOR_A_SNUB:
        assert browser.attribute(f'[data-k="orders.{k}"]', "data-k") is None, k
    browser.click('[data-k="orders.delegates+"]')
    card = state.d["hands"][active][0]
    browser.select('[data-k="orders.delegates.0"]', labels(m.rules, state, active, lang, "delegates.*")[card])
    browser.click('[data-k="orders.take.1^"]')     # position 2 first
    shot(browser, "ff-action")
    text = m.mail_from_page(browser, active)
    assert "\n  card:" not in text and "\n  state:" not in text, text
    m.accepted_as(active, {"action": "snub", "delegates": [card], "take": [2, 1, 3]})


def ff_flip(m: Match, browser) -> bool:
    """The Committee winner's flip; False when none came up in this match."""
    if not m.play_until(lambda st, aw: "committee_flip" in aw.values(), seed=11):
        return False
    flipper, state = m.seat_at("committee_flip"), m.state()
    m.open_report(browser, flipper)
    browser.select('[data-k="orders.flip"]', labels(m.rules, state, flipper, m.lang, "flip")[True])
    shot(browser, "ff-committee-flip")
    m.mail_from_page(browser, flipper)
    m.accepted_as(flipper, {"flip": True})
    return True


def nations_plan_de(m: Match, browser) -> None:
    """The welcome's plan, in German: a buy step put before the form's "ask"."""
    player, state = next(iter(m.turn()["awaiting"])), m.state()
    open_page(browser, m.tmp, page_of(m.welcomes[player]))
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
    steps = m.accepted(player)["steps"]
    assert steps[0]["buy"]["tile"] == tile and steps[1] == "ask"


def nations_books(m: Match, browser, seat: str) -> str:
    """The books phase: hold back the first book die offered; the die held."""
    state, lang = m.state(), m.lang
    m.open_report(browser, seat)
    books = labels(m.rules, state, seat, lang, "hold.*")
    assert books, "the books stage offers the book dice"
    # no trade while books are held (R101): the page offers no trade to be refused
    assert browser.attribute('[data-k="orders.trade+"]', "data-k") is None
    browser.click('[data-k="orders.hold+"]')
    first = next(iter(books))
    browser.select('[data-k="orders.hold.0"]', books[first])
    shot(browser, "nations-books")
    m.mail_from_page(browser, seat)
    m.accepted_as(seat, {"hold": [first]})
    return first


def nations_famine(m: Match, browser, seat: str) -> None:
    """The famine: one pair of dice traded into food."""
    state, lang = m.state(), m.lang
    m.open_report(browser, seat)
    dice = labels(m.rules, state, seat, lang, "trade.*.*")
    words = {"de": "eine Liste", "en": "a list"}
    browser.select('[data-k="orders.trade#"]', m.rules.messages.get("kind.trade.arr", {}).get(lang, words[lang]))
    browser.click('[data-k="orders.trade+"]')
    browser.click('[data-k="orders.trade.0+"]')
    browser.click('[data-k="orders.trade.0+"]')
    first, second = list(dice)[:2]
    browser.select('[data-k="orders.trade.0.0"]', dice[first])
    browser.select('[data-k="orders.trade.0.1"]', dice[second])
    shot(browser, "nations-famine")
    m.mail_from_page(browser, seat)
    m.accepted_as(seat, {"trade": [[first, second]]})


def no_key_refused_de(m: Match, browser) -> None:
    """"Open mail" with the key empty: no mailto, refused aloud, focus on the key, no mail."""
    open_page(browser, m.tmp, page_of(m.welcomes["bob"]))
    assert browser.attribute("#mail", "href") == "#key", "no mailto while the key is empty"
    before = browser.eval("location.href")
    browser.click("#mail")
    alert = browser.eval("document.getElementById('alert').textContent")
    assert "Schlüssel" in alert and browser.attribute("#alert", "role") == "alert"
    assert browser.eval("document.activeElement.id") == "key"
    assert browser.eval("location.href") == before
    assert browser.eval("document.getElementById('doc').value").count("key: \n") == 1
    shot(browser, "ff-no-key-refused")

